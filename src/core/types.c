/* SPDX-License-Identifier: Apache-2.0 */
#include "internal.h"

/* Indexed by TensorProto.DataType (catalog.h); entry 0 (UNDEFINED) is not a
 * type. */
#define TYPE_ENTRY(number, name, bits) {(number), (name), (bits)},
static const onnxshape_type_info type_table[ONNXSHAPE_TYPE_LAST + 1] = {
    {0, "undefined", 0},
    ONNXSHAPE__TYPES(TYPE_ENTRY)
};
#undef TYPE_ENTRY

const onnxshape_type_info *onnxshape_type_get(int32_t type) {
  if (type < 1 || type > ONNXSHAPE_TYPE_LAST) {
    return NULL;
  }
  /* For the proof only (docs/proofs.md, "Proofs with margin"): the entry's
   * fields, each a goal of its own, so that the postcondition finds them. */
  //@ assert entry_type: type_table[type].type == type;
  //@ assert entry_bits: type_table[type].bits == type_bits(type);
  return &type_table[type];
}

const char *onnxshape_type_name(int32_t type) {
  const onnxshape_type_info *t = onnxshape_type_get(type);
  return t != NULL ? t->name : "unknown";
}

onnxshape_status onnxshape_type_storage_bytes(int32_t type, int64_t count, size_t *bytes) {
  const onnxshape_type_info *t = onnxshape_type_get(type);
  if (t == NULL) {
    return ONNXSHAPE_ERR_UNKNOWN_TYPE;
  }
  if (bytes == NULL || count < 0) {
    return ONNXSHAPE_ERR_INVALID_ARGUMENT;
  }
  uint64_t n = (uint64_t)count;
  uint64_t b;
  if (t->bits == 0u) {
    if (n > SIZE_MAX / sizeof(onnxshape_string)) {
      //@ assert n * sizeof(onnxshape_string) > SIZE_MAX;
      return ONNXSHAPE_ERR_OVERFLOW;
    }
    *bytes = (size_t)n * sizeof(onnxshape_string);
    return ONNXSHAPE_OK;
  }
  if (t->bits < 8u) {
    /* Sub-byte: 8 / bits elements share a byte; a partial last byte counts
     * whole. Dividing first keeps the arithmetic far from overflow. */
    //@ assert t->bits == 2 || t->bits == 4;
    if (t->bits == 4u) {
      b = n / 2u + (n % 2u != 0u ? 1u : 0u); /* constant divisors: shifts, not divisions */
    } else {
      b = n / 4u + (n % 4u != 0u ? 1u : 0u);
    }
    //@ assert packed: b == (n * t->bits + 7) / 8;
  } else {
    //@ assert t->bits == 8 || t->bits == 16 || t->bits == 32 || t->bits == 64 || t->bits == 128;
    uint64_t size = t->bits / 8u;
    //@ assert size <= 16;
    /* Up to 2^60 elements no product can overflow. The limits are constants
     * (no 64-bit division at run time; see internal.h). */
    if (n > UINT64_MAX / 16u &&
        n > (size == 1u   ? UINT64_MAX
             : size == 2u ? UINT64_MAX / 2u
             : size == 4u ? UINT64_MAX / 4u
             : size == 8u ? UINT64_MAX / 8u
                          : UINT64_MAX / 16u)) {
      //@ assert n * size > UINT64_MAX;
      //@ assert (n * t->bits + 7) / 8 > SIZE_MAX;
      return ONNXSHAPE_ERR_OVERFLOW;
    }
    b = n * size;
    //@ assert bits: n * t->bits == 8 * b;
    //@ assert whole: b == (n * t->bits + 7) / 8;
  }
  if (b > SIZE_MAX) {
    return ONNXSHAPE_ERR_OVERFLOW;
  }
  *bytes = (size_t)b;
  return ONNXSHAPE_OK;
}
