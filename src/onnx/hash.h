/* SPDX-License-Identifier: Apache-2.0 */
/* The keyed hash of names (hash.c): SipHash-1-3 under a key each process
 * draws, for every table indexed by names a file chose that the loader
 * keeps (its name indexes); the analysis's symbols hash under a fixed key
 * (onnxshape__name_hash_fixed), their probes charged. */
#ifndef ONNXSHAPE_HASH_H
#define ONNXSHAPE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of a NUL-terminated name. */
size_t onnxshape__name_hash(const char *name);
/* The hash of a NUL-terminated name under a fixed key, the same in every
 * process and on every host (64 bits, not folded to size_t): for the
 * analysis's symbols (src/runtime/expr.c), whose table probes are charged
 * to the analysis's work (LIMIT-ANALYSIS-WORK). Under the process's random
 * key that work varied by a few units from run to run, and with it what a
 * model at the limit resolved; now what an analysis affords depends on the
 * model alone. Names made to collide under this key cost probes, each
 * charged: such a model reaches the limit sooner, and no later than any
 * other model of its size. */
uint64_t onnxshape__name_hash_fixed(const char *name);
/* The hash of n bytes. */
uint64_t onnxshape__bytes_hash(const void *p, size_t n);
/* For tests only: sets the key (before any model loads; not thread-safe). */
void onnxshape__hash_set_key(uint64_t k0, uint64_t k1);
/* Entries the loader's lookups of this thread have looked at (index
 * probes, opset imports): work counted, not timed (tests/test_loader.c). */
extern _Thread_local uint64_t onnxshape__probes;
/* Bytes of names this thread has hashed (onnxshape__name_hash) or compared
 * (onnxshape__same_name): work counted, not timed. */
extern _Thread_local uint64_t onnxshape__name_bytes;

#endif
