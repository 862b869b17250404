/* SPDX-License-Identifier: Apache-2.0 */
/* The catalog's facts (catalog.h) as small functions that an accepting path
 * inlines: included only where they are used (accept.c, reshape.c), so that
 * WP proves each copy once. */
#ifndef ONNXSHAPE_CATALOG_FNS_H
#define ONNXSHAPE_CATALOG_FNS_H

#include "internal.h"

#define ONNXSHAPE__LAST_CASE(v) \
  case v:                       \
    return ONNXSHAPE__LAST_TYPE(v);
#define ONNXSHAPE__RESHAPE_LAST_CASE(v) \
  case v:                               \
    return (v) == 1 ? 0 : ONNXSHAPE__LAST_TYPE(v);

/* The last element type of (op, version) when its type set is 1 .. last
 * (TYPE-SET); 0 when version is no version of op (OPSET-VERSIONS), or when
 * its set is not a range (Reshape-1, TYPE-SET-RESHAPE1). */
/*@ assigns \nothing;
    ensures \result == 0 || (is_version(op, version) && \result == last_type(version) &&
                             !(op == ONNXSHAPE_OP_RESHAPE && version == 1));
    ensures is_version(op, version) && !(op == ONNXSHAPE_OP_RESHAPE && version == 1) ==>
            \result == last_type(version);
*/
static ONNXSHAPE_INLINE int32_t onnxshape__last_type(onnxshape_op op, int version) {
  switch (op) {
    case ONNXSHAPE_OP_SHAPE:
      switch (version) {
        ONNXSHAPE__SHAPE_VERSIONS(ONNXSHAPE__LAST_CASE)
        default:
          return 0;
      }
    case ONNXSHAPE_OP_RESHAPE:
      switch (version) {
        ONNXSHAPE__RESHAPE_VERSIONS(ONNXSHAPE__RESHAPE_LAST_CASE)
        default:
          return 0;
      }
    case ONNXSHAPE_OP_SIZE:
      switch (version) {
        ONNXSHAPE__SIZE_VERSIONS(ONNXSHAPE__LAST_CASE)
        default:
          return 0;
      }
    default:
      return 0;
  }
}

#define ONNXSHAPE__BYTES_CASE(number, name, bits) \
  case number:                                    \
    return (bits) >= 8 ? (size_t)(bits) / 8u : 0u;

/* Bytes per element of the types of whole bytes (STORAGE-BYTES), or 0 for
 * strings, the sub-byte types and numbers that are no type. */
/*@ assigns \nothing;
    ensures \result == 0 || (is_type(type) && 1 <= \result <= 16 &&
                             type_bits(type) == 8 * \result);
    ensures is_type(type) && type_bits(type) >= 8 ==> type_bits(type) == 8 * \result;
*/
static ONNXSHAPE_INLINE size_t onnxshape__elem_bytes(int32_t type) {
  switch (type) {
    ONNXSHAPE__TYPES(ONNXSHAPE__BYTES_CASE)
    default:
      return 0;
  }
}

#endif
