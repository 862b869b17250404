/* SPDX-License-Identifier: Apache-2.0 */
/* The command's signal handlers (cli.h). The library installs none: what to
 * do when a mapped file is cut short, or when the user interrupts a run, is
 * the command's decision (docs/cli.md, "Safety of files and output"). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t bus_faults;
static uintptr_t page_mask;

/* A read of a mapped page past the end of a file that was cut short raises
 * SIGBUS (BUS_ADRERR). The page is replaced by a page of zeros and the read
 * goes on; the command then finds that the file changed (the library's
 * check of each mapped file) and fails, naming it. Any other SIGBUS is
 * not ours: it takes its default action. */
static void on_bus(int sig, siginfo_t *si, void *context) {
  (void)context;
  uintptr_t page = (uintptr_t)si->si_addr & page_mask;
  if (si->si_code == BUS_ADRERR && page != 0 &&
      mmap((void *)page, ~page_mask + 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
           0) != MAP_FAILED) {
    bus_faults = bus_faults + 1;
    return;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The temporaries to remove. The list only changes while the signals that
 * read it are blocked. */
static char **temps;
static size_t cap_temps;
static volatile size_t n_temps;

static void on_stop(int sig) {
  for (size_t i = 0; i < n_temps; i++) unlink(temps[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_install_handlers(void) {
  static int installed;
  if (installed) return;
  installed = 1;
  long page = sysconf(_SC_PAGESIZE);
  page_mask = ~(uintptr_t)((page > 0 ? page : 4096) - 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = on_bus;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGBUS, &sa, NULL);
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaddset(&sa.sa_mask, SIGHUP);
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

unsigned long cli_bus_faults(void) { return (unsigned long)bus_faults; }

void cli_block_signals(int block) {
  static int depth; /* blocks nest */
  if (block ? depth++ > 0 : --depth > 0) return;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int cli_temp_add(const char *path) {
  char *copy = strdup(path);
  if (copy == NULL) return 0;
  int ok = 1;
  cli_block_signals(1);
  if (n_temps == cap_temps) {
    size_t cap = cap_temps > 0 ? 2 * cap_temps : 16;
    char **grown = cap <= SIZE_MAX / sizeof *grown ? realloc(temps, cap * sizeof *grown) : NULL;
    if (grown != NULL) {
      temps = grown;
      cap_temps = cap;
    }
    ok = grown != NULL;
  }
  if (ok) {
    temps[n_temps] = copy;
    n_temps = n_temps + 1;
  }
  cli_block_signals(0);
  if (!ok) free(copy);
  return ok;
}

void cli_temp_clear(void) {
  cli_block_signals(1);
  size_t n = n_temps;
  char **list = temps;
  n_temps = 0;
  temps = NULL; /* the handler sees an empty list from here on */
  cap_temps = 0;
  cli_block_signals(0);
  for (size_t i = 0; i < n; i++) free(list[i]);
  free(list);
}
