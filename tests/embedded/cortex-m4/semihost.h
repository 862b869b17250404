/* SPDX-License-Identifier: Apache-2.0 */
/* Minimal semihosting and stack measurement (startup.c). */
#ifndef EMBEDDED_SEMIHOST_H
#define EMBEDDED_SEMIHOST_H
#include <stddef.h>

int semihost_call(int op, const void *arg);
void semihost_puts(const char *s);
void semihost_exit(int status) __attribute__((noreturn));
#include <stdint.h>
/* Fills the unused stack with a pattern; stack_used_below(sp) then tells
 * how many bytes below sp were written since (the deepest point reached). */
void stack_paint(void);
size_t stack_used_below(uintptr_t sp);
static inline uintptr_t current_sp(void) {
  uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}
#endif
