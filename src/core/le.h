/* SPDX-License-Identifier: Apache-2.0 */
/* Byte order of tensor payload (STORAGE-LE-HOST). ONNX storage is little-endian
 * on every host: raw_data, external data and the typed fields once stored,
 * and so every onnxshape_tensor's data. Every read and write of an element
 * of payload, in the library and the command, goes through this pair: the
 * loader (typed fields to storage, Constant's attributes), the runner
 * (Reshape's shape input, Shape's and Size's outputs), static inference
 * (known values), the fast decoder's fixed-width fields and the printing of
 * values. On a little-endian host a load or store of 2, 4 or 8 bytes
 * compiles to one move (GCC and clang merge the byte pattern).
 *
 * Not included by the kernels (src/ops): they never read payload, only copy
 * its bytes. */
#ifndef ONNXSHAPE_LE_H
#define ONNXSHAPE_LE_H

#include <stdint.h>

/* The unsigned value of the 8 little-endian bytes at p, written out: GCC
 * and clang merge this pattern into one load (and a byte swap on a
 * big-endian host), where the loop below stays a loop of byte loads inside
 * another loop (SipHash's, hash.c: 48 instructions a word, not 1). */
static inline uint64_t onnxshape__load_le64(const unsigned char *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
         (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
         (uint64_t)p[7] << 56;
}

/* The unsigned value of the `bytes` (1 to 8) little-endian bytes at p. */
static inline uint64_t onnxshape__load_le(const unsigned char *p, unsigned bytes) {
  if (bytes == 8u) return onnxshape__load_le64(p);
  uint64_t v = 0;
  for (unsigned i = 0u; i < bytes; i++) {
    unsigned shift = 8u * i;
    v |= (uint64_t)p[i] << shift;
  }
  return v;
}

/* Writes the low `bytes` (1 to 8) bytes of v at p, least significant first. */
static inline void onnxshape__store_le(unsigned char *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0u; i < bytes; i++) {
    unsigned shift = 8u * i;
    p[i] = (unsigned char)(v >> shift);
  }
}

#endif
