/* SPDX-License-Identifier: Apache-2.0 */
/* A preloaded library (LD_PRELOAD) that makes the races and failures of the
 * front door happen at a chosen point, so that tests/cli/safety.sh can test
 * them deterministically, without sleeps. Each behaviour is off unless its
 * environment variable is set:
 *
 *   SHIM_TRUNCATE=PATH:SIZE[:fstat:N]
 *                                right after the first mmap of PATH's file
 *                                (or, with :fstat:N, right after its N-th
 *                                fstat, which still saw the old size),
 *                                truncate PATH to SIZE bytes
 *   SHIM_REWRITE=PATH:OFFSET:TEXT
 *                                at the first calloc of 16 KiB or more after
 *                                the first mmap of PATH's file (an arena's
 *                                new block: the .npy reader's between its
 *                                two passes over a string array), write TEXT
 *                                at OFFSET in PATH, in place: its size and
 *                                modification time stay as they were
 *   SHIM_ENOSPC_AFTER=N          writes to regular files fail with ENOSPC once
 *                                N bytes were written to them in all
 *   SHIM_SIGNAL_AT_WRITE=N:SIG   raise signal SIG at the N-th write to a
 *                                regular file
 *   SHIM_FAIL_RENAME_AT=N        the N-th rename fails with EIO
 *   SHIM_STOP_AT_RENAME=N        stop the process (SIGSTOP) right after the
 *                                N-th rename
 *   SHIM_FLOCK_NOTE=FILE         create FILE just before each flock
 *   SHIM_SWAP_AT=K:DIR:TARGET    at the K-th call of open, openat, read,
 *                                pread, fstat, mmap or close, replace the
 *                                directory DIR by a symbolic link to TARGET
 *   SHIM_NO_OPENAT2=1            openat2 fails with ENOSYS, as on kernels
 *                                before 5.6 and under qemu-user
 *   SHIM_COUNT=FILE              write, at exit, the number of calls that
 *                                SHIM_SWAP_AT counts and of strcmp calls
 *   SHIM_LOG=FILE                append the calls above, one per line
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
/* The functions that take an off_t or a struct stat: with 64-bit file
 * offsets on a 32-bit host, the headers rename them (open is open64, and
 * so the definitions below define open64...), so the next definition must
 * be looked up under that name too. */
#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && UINTPTR_MAX == 0xFFFFFFFFu
#define REAL_LFS(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name "64"))
#else
#define REAL_LFS(name) REAL(name)
#endif

static long calls, writes, renames;
static unsigned long long written;

static long env_long(const char *name, long fallback) {
  const char *v = getenv(name);
  return v != NULL ? strtol(v, NULL, 10) : fallback;
}

static void log_call(const char *what, const char *detail) {
  const char *log = getenv("SHIM_LOG");
  if (log == NULL) return;
  int fd = REAL_LFS(open)(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  char line[512];
  int n = snprintf(line, sizeof line, "%s %s\n", what, detail != NULL ? detail : "");
  if (n > 0) (void)!REAL(write)(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  REAL(close)(fd);
}

static long strcmps;

__attribute__((destructor)) static void write_count(void) {
  const char *file = getenv("SHIM_COUNT");
  if (file == NULL) return;
  FILE *f = fopen(file, "w");
  if (f == NULL) return;
  fprintf(f, "calls %ld\nstrcmp %ld\n", calls, strcmps);
  fclose(f);
}

int strcmp(const char *a, const char *b) {
  strcmps++;
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x != '\0' && *x == *y) {
    x++;
    y++;
  }
  return (int)*x - (int)*y;
}

/* Truncates the file the spec names (PATH:SIZE[:fstat:N]) when fd is that
 * file and `when` its moment; once. */
static void maybe_truncate(int fd, const char *when) {
  static int done;
  static long fstats;
  const char *spec = getenv("SHIM_TRUNCATE");
  if (spec == NULL || done || fd < 0) return;
  char path[1024];
  snprintf(path, sizeof path, "%s", spec);
  char *size = strchr(path, ':');
  if (size == NULL) return;
  *size++ = '\0';
  char *moment = strchr(size, ':');
  long nth = 1;
  if (moment != NULL) {
    *moment++ = '\0';
    char *n = strchr(moment, ':');
    if (n != NULL) {
      *n++ = '\0';
      nth = strtol(n, NULL, 10);
    }
  }
  if (strcmp(moment != NULL ? moment : "mmap", when) != 0) return;
  struct stat a, b;
  if (REAL_LFS(fstat)(fd, &a) != 0 || stat(path, &b) != 0 || a.st_ino != b.st_ino ||
      a.st_dev != b.st_dev) {
    return;
  }
  if (strcmp(when, "fstat") == 0 && ++fstats != nth) return;
  done = 1;
  if (truncate(path, strtoll(size, NULL, 10)) == 0) log_call("truncate", path);
}

/* SHIM_REWRITE: PATH, opened for writing when its file is first mapped
 * (with its times then), waits for the first calloc of 16 KiB or more. */
static int rewrite_fd = -1;
static struct timespec rewrite_times[2];

static void maybe_arm_rewrite(int fd) {
  static int armed;
  const char *spec = getenv("SHIM_REWRITE");
  if (spec == NULL || armed || fd < 0) return;
  char path[1024];
  snprintf(path, sizeof path, "%s", spec);
  char *offset = strchr(path, ':');
  if (offset == NULL) return;
  *offset = '\0';
  struct stat a, b;
  if (REAL_LFS(fstat)(fd, &a) != 0 || stat(path, &b) != 0 || a.st_ino != b.st_ino ||
      a.st_dev != b.st_dev) {
    return;
  }
  armed = 1;
  rewrite_fd = REAL_LFS(open)(path, O_WRONLY | O_CLOEXEC);
  rewrite_times[0] = a.st_atim;
  rewrite_times[1] = a.st_mtim;
}

/* glibc's own calloc: no dlsym, which may itself allocate. */
extern void *__libc_calloc(size_t n, size_t size);

void *calloc(size_t n, size_t size) {
  void *p = __libc_calloc(n, size);
  /* n * size >= 16 KiB, without overflow */
  if (rewrite_fd >= 0 && size != 0 && n >= (16384u + size - 1u) / size) {
    int fd = rewrite_fd;
    rewrite_fd = -1; /* once; the descriptor stays open (closing would look up close) */
    const char *spec = getenv("SHIM_REWRITE");
    const char *offset = spec != NULL ? strchr(spec, ':') : NULL;
    const char *text = offset != NULL ? strchr(offset + 1, ':') : NULL;
    if (text != NULL) {
      text++;
      /* A failure shows as the case's expected error missing. */
      if (pwrite(fd, text, strlen(text), (off_t)strtoll(offset + 1, NULL, 10)) ==
          (ssize_t)strlen(text)) {
        (void)futimens(fd, rewrite_times);
      }
    }
  }
  return p;
}

long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
  va_end(ap);
#ifdef SYS_openat2
  if (number == SYS_openat2 && getenv("SHIM_NO_OPENAT2") != NULL) {
    errno = ENOSYS;
    return -1;
  }
#endif
  return REAL(syscall)(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* SHIM_SWAP_AT: one more call; at the K-th, DIR becomes a link to TARGET. */
static void count_call(void) {
  calls++;
  const char *spec = getenv("SHIM_SWAP_AT");
  if (spec == NULL) return;
  long k = strtol(spec, NULL, 10);
  if (calls != k) return;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", spec);
  char *dir = strchr(buf, ':');
  char *target = dir != NULL ? strchr(dir + 1, ':') : NULL;
  if (target == NULL) return;
  *dir++ = '\0';
  *target++ = '\0';
  char aside[1100];
  snprintf(aside, sizeof aside, "%s.aside", dir);
  if (REAL(rename)(dir, aside) == 0 && symlink(target, dir) == 0) log_call("swap", dir);
}

static int is_regular(int fd) {
  struct stat sb;
  return fd > 2 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
}

int open(const char *path, int flags, ...) {
  count_call();
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return REAL_LFS(open)(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
  count_call();
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return REAL_LFS(openat)(dirfd, path, flags, mode);
}

ssize_t read(int fd, void *buf, size_t n) {
  count_call();
  return REAL(read)(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) {
  count_call();
  return REAL_LFS(pread)(fd, buf, n, off);
}

int fstat(int fd, struct stat *sb) {
  count_call();
  int r = REAL_LFS(fstat)(fd, sb);
  maybe_truncate(fd, "fstat");
  return r;
}

int close(int fd) {
  count_call();
  return REAL(close)(fd);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  count_call();
  void *p = REAL_LFS(mmap)(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED) {
    maybe_truncate(fd, "mmap");
    maybe_arm_rewrite(fd);
  }
  return p;
}

ssize_t write(int fd, const void *buf, size_t n) {
  if (!is_regular(fd)) return REAL(write)(fd, buf, n);
  writes++;
  const char *sig = getenv("SHIM_SIGNAL_AT_WRITE");
  if (sig != NULL && strtol(sig, NULL, 10) == writes) {
    const char *colon = strchr(sig, ':');
    log_call("signal", colon != NULL ? colon + 1 : "");
    raise(colon != NULL ? (int)strtol(colon + 1, NULL, 10) : SIGINT);
  }
  long limit = env_long("SHIM_ENOSPC_AFTER", -1);
  if (limit >= 0) {
    if (written >= (unsigned long long)limit) {
      errno = ENOSPC;
      return -1;
    }
    if (written + n > (unsigned long long)limit) n = (size_t)((unsigned long long)limit - written);
  }
  ssize_t w = REAL(write)(fd, buf, n);
  if (w > 0) written += (unsigned long long)w;
  return w;
}

int rename(const char *from, const char *to) {
  renames++;
  if (env_long("SHIM_FAIL_RENAME_AT", 0) == renames) {
    log_call("fail-rename", to);
    errno = EIO;
    return -1;
  }
  int r = REAL(rename)(from, to);
  if (r == 0 && env_long("SHIM_STOP_AT_RENAME", 0) == renames) {
    log_call("stop", to);
    raise(SIGSTOP);
  }
  return r;
}

int flock(int fd, int op) {
  const char *note = getenv("SHIM_FLOCK_NOTE");
  if (note != NULL && (op & LOCK_EX)) {
    int f = REAL_LFS(open)(note, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (f >= 0) REAL(close)(f);
  }
  return REAL(flock)(fd, op);
}
