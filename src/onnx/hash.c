/* SPDX-License-Identifier: Apache-2.0 */
/* The hash of the loader's name indexes (load.h): SipHash-1-3 with a key
 * drawn once per process, so that names chosen offline cannot be made to
 * collide (issue 30: 32,768 names crafted for an unkeyed FNV-1a made one
 * probe window and a 295 KB model took 10 s to load). Expected probes per
 * lookup stay constant whatever the names; tests count them
 * (onnxshape__probes). */
#define _GNU_SOURCE /* syscall */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../core/le.h"
#include "hash.h"

_Thread_local uint64_t onnxshape__probes;
_Thread_local uint64_t onnxshape__name_bytes;

static uint64_t key[2];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/* 16 bytes from the kernel (getrandom, never blocking; else /dev/urandom);
 * where neither answers (a chroot without /dev, an old kernel), the clock,
 * the process id and addresses (which ASLR varies): weaker, never fixed. */
static void draw_key(void) {
  uint64_t k[2] = {0, 0};
  int got = 0;
#ifdef SYS_getrandom
  got = syscall(SYS_getrandom, k, sizeof k, 1 /* GRND_NONBLOCK */) == (long)sizeof k;
#endif
  if (!got) {
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      got = read(fd, k, sizeof k) == (ssize_t)sizeof k;
      close(fd);
    }
  }
  if (!got) {
    struct timespec ts = {0, 0};
    (void)clock_gettime(CLOCK_REALTIME, &ts);
    k[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    k[1] = (uint64_t)(uintptr_t)&ts ^ ((uint64_t)(uintptr_t)draw_key << 7);
  }
  key[0] = k[0];
  key[1] = k[1];
}

void onnxshape__hash_set_key(uint64_t k0, uint64_t k1) {
  (void)pthread_once(&key_once, draw_key);
  key[0] = k0;
  key[1] = k1;
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                         \
  do {                                                   \
    v0 += v1;                                            \
    v1 = ROTL(v1, 13);                                   \
    v1 ^= v0;                                            \
    v0 = ROTL(v0, 32);                                   \
    v2 += v3;                                            \
    v3 = ROTL(v3, 16);                                   \
    v3 ^= v2;                                            \
    v0 += v3;                                            \
    v3 = ROTL(v3, 21);                                   \
    v3 ^= v0;                                            \
    v2 += v1;                                            \
    v1 = ROTL(v1, 17);                                   \
    v1 ^= v2;                                            \
    v2 = ROTL(v2, 32);                                   \
  } while (0)

/* SipHash-1-3 (one compression round per word, three at the end) of the n
 * bytes at p under key k. */
static uint64_t siphash13(const unsigned char *p, size_t n, const uint64_t k[2]) {
  uint64_t v0 = 0x736f6d6570736575u ^ k[0], v1 = 0x646f72616e646f6du ^ k[1];
  uint64_t v2 = 0x6c7967656e657261u ^ k[0], v3 = 0x7465646279746573u ^ k[1];
  size_t whole = n - n % 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = onnxshape__load_le(p + i, 8);
    v3 ^= m;
    SIPROUND;
    v0 ^= m;
  }
  uint64_t last = (uint64_t)n << 56;
  for (size_t i = whole; i < n; i++) last |= (uint64_t)p[i] << (8 * (i - whole));
  v3 ^= last;
  SIPROUND;
  v0 ^= last;
  v2 ^= 0xff;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t onnxshape__bytes_hash(const void *p, size_t n) {
  (void)pthread_once(&key_once, draw_key);
  return siphash13(p, n, key);
}

/* A name's hash under key k, its two halves folded together (counted in
 * onnxshape__name_bytes). */
static uint64_t name_hash_under(const char *name, const uint64_t k[2]) {
  size_t n = strlen(name);
  onnxshape__name_bytes += n;
  uint64_t h = siphash13((const unsigned char *)name, n, k);
  return h ^ (h >> 32);
}

size_t onnxshape__name_hash(const char *name) {
  (void)pthread_once(&key_once, draw_key);
  return (size_t)name_hash_under(name, key);
}

/* The key of onnxshape__name_hash_fixed: any fixed value does; this one is
 * the one tests/analysis/work_tool.c's --fixed-key sets, so the work
 * ledger recorded under it stays as it was. */
static const uint64_t fixed_key[2] = {UINT64_C(0x0123456789abcdef), UINT64_C(0xfedcba9876543210)};

uint64_t onnxshape__name_hash_fixed(const char *name) { return name_hash_under(name, fixed_key); }
