/* SPDX-License-Identifier: Apache-2.0 */
/* Reset and fault handling for the Cortex-M4 test programs under
 * qemu-system-arm -M mps2-an386 with semihosting (run-qemu): copies .data,
 * clears .bss, runs main and leaves QEMU with main's status. A fault ends
 * the run with a message and status 70 rather than hanging.
 *
 * With EMBEDDED_NEWLIB (the unit tests, linked with --specs=rdimon.specs),
 * stdio goes through newlib's semihosting layer; without it (the size
 * configurations), nothing from the C library is needed here. */
#include <stddef.h>
#include <stdint.h>

#include "semihost.h"

#ifdef EMBEDDED_NEWLIB
#include <stdio.h>
extern void initialise_monitor_handles(void);
#endif

extern int main(void);
extern uint32_t __data_load__[], __data_start__[], __data_end__[];
extern uint32_t __bss_start__[], __bss_end__[], __stack_top__[];

void Reset_Handler(void);
void Fault_Handler(void);

/* Semihosting: the call number in r0, its argument in r1, BKPT 0xAB. */
int semihost_call(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void semihost_puts(const char *s) { semihost_call(0x04 /* SYS_WRITE0 */, s); }

__attribute__((noreturn)) void semihost_exit(int status) {
  /* SYS_EXIT_EXTENDED (semihosting 2.0) carries the status; QEMU exits
   * with it. */
  const uint32_t block[2] = {0x20026u /* ADP_Stopped_ApplicationExit */, (uint32_t)status};
  semihost_call(0x20, block);
  /* Without it: SYS_EXIT, success or failure only. */
  semihost_call(0x18, (const void *)(uintptr_t)(status == 0 ? 0x20026u : 0x20023u));
  for (;;) {
  }
}

static void put_hex(const char *label, uint32_t v) {
  char buf[24];
  size_t n = 0;
  while (label[n] != '\0' && n < 8) {
    buf[n] = label[n];
    n++;
  }
  for (int shift = 28; shift >= 0; shift -= 4) buf[n++] = "0123456789abcdef"[(v >> shift) & 15u];
  buf[n++] = ' ';
  buf[n] = '\0';
  semihost_puts(buf);
}

/* The stacked frame of the faulting code: r0-r3, r12, lr, pc, xpsr. */
__attribute__((used)) static void fault_report(const uint32_t *frame) {
  semihost_puts("embedded: fault: ");
  put_hex("pc=", frame[6]);
  put_hex("lr=", frame[5]);
  put_hex("cfsr=", *(volatile uint32_t *)0xE000ED28u);
  put_hex("hfsr=", *(volatile uint32_t *)0xE000ED2Cu);
  put_hex("bfar=", *(volatile uint32_t *)0xE000ED38u);
  semihost_puts("\n");
  semihost_exit(70);
}

__attribute__((naked)) void Fault_Handler(void) {
  __asm__ volatile(
      "tst lr, #4\n"
      "ite eq\n"
      "mrseq r0, msp\n"
      "mrsne r0, psp\n"
      "b fault_report\n");
}

static void Default_Handler(void) {
  semihost_puts("embedded: unexpected exception\n");
  semihost_exit(71);
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)__stack_top__, /* initial stack pointer */
    Reset_Handler,
    Default_Handler, /* NMI */
    Fault_Handler,   /* HardFault */
    Fault_Handler,   /* MemManage */
    Fault_Handler,   /* BusFault */
    Fault_Handler,   /* UsageFault */
    0, 0, 0, 0,
    Default_Handler, /* SVCall */
    Default_Handler, /* DebugMonitor */
    0,
    Default_Handler, /* PendSV */
    Default_Handler, /* SysTick */
};

/* Stack painting, for the measured high-water mark (stack_used_below). */
#define PAINT 0x5aa5c33cu
extern uint32_t __stack_limit__[];

__attribute__((noinline)) void stack_paint(void) {
  uint32_t *p = __stack_limit__;
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  while (p < sp - 16) *p++ = PAINT; /* leave this frame alone */
}

size_t stack_used_below(uintptr_t sp) {
  const uint32_t *p = __stack_limit__;
  while (p < __stack_top__ && *p == PAINT) p++;
  return (uintptr_t)p >= sp ? 0 : (size_t)(sp - (uintptr_t)p);
}

void Reset_Handler(void) {
  for (uint32_t *s = __data_load__, *d = __data_start__; d < __data_end__;) *d++ = *s++;
  for (uint32_t *d = __bss_start__; d < __bss_end__;) *d++ = 0;
  /* Trap division by zero (CCR.DIV_0_TRP). Not unaligned accesses
   * (UNALIGN_TRP): newlib's memcpy for ARMv7-M relies on them. */
  volatile uint32_t *ccr = (volatile uint32_t *)0xE000ED14u;
  *ccr |= 1u << 4;
#ifdef EMBEDDED_NEWLIB
  initialise_monitor_handles();
#endif
  int status = main();
#ifdef EMBEDDED_NEWLIB
  fflush(stdout);
  fflush(stderr);
#endif
  semihost_exit(status);
}
