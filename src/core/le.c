/* SPDX-License-Identifier: Apache-2.0 */
/* The public form of the byte-order helpers (le.h): for callers that read
 * or fill tensor data themselves, and for the command. */
#include "le.h"

#include "onnxshape_kernels.h"

uint64_t onnxshape_load_le(const void *p, unsigned bytes) {
  return onnxshape__load_le(p, bytes > 8u ? 8u : bytes);
}

void onnxshape_store_le(void *p, uint64_t v, unsigned bytes) {
  onnxshape__store_le(p, v, bytes > 8u ? 8u : bytes);
}
