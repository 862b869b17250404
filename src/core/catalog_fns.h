/* SPDX-License-Identifier: Apache-2.0 */
/* The catalog's facts (catalog.h) as small functions that an accepting path
 * inlines, and the entry check of every kernel built on them: included only
 * where they are used (the kernels' files and accept.c), and WP proves each
 * included copy. Inlined because a kernel's whole accepting call is a few
 * nanoseconds: two out-of-line calls here cost Shape and Size 1-2 ns
 * (docs/performance.md, "Design step before/after"). */
#ifndef ONNXSHAPE_CATALOG_FNS_H
#define ONNXSHAPE_CATALOG_FNS_H

#include "internal.h"

#define ONNXSHAPE__LAST_CASE(v) \
  case (v):                     \
    return ONNXSHAPE__LAST_TYPE(v);
#define ONNXSHAPE__RESHAPE_LAST_CASE(v) \
  case (v):                             \
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

/* Whether (op, version) exists and accepts element type `type`. */
/*@ assigns \nothing;
    // OPSET-VERSIONS, TYPE-SET, TYPE-SET-RESHAPE1
    ensures \result != 0 <==> is_version(op, version) && type_allowed(op, version, type);
*/
static ONNXSHAPE_INLINE int onnxshape__accepts(onnxshape_op op, int version, int32_t type) {
  int32_t last = onnxshape__last_type(op, version);
  if (last != 0) {
    return type >= 1 && type <= last;
  }
  return op == ONNXSHAPE_OP_RESHAPE && version == 1 && ONNXSHAPE__IS_FLOAT_TYPE(type);
}

/* Validates version and type for a kernel entry (OPSET-VERSIONS, TYPE-SET,
 * TYPE-SET-RESHAPE1): the usual call is one switch; a refusal goes to the
 * out-of-line onnxshape__reject for its status and message. */
/*@ requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER
    ensures \result == check_status(op, version, type);
    // ERROR-MESSAGE
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
static ONNXSHAPE_INLINE onnxshape_status onnxshape__enter(onnxshape_op op, int version,
                                                          int32_t type, onnxshape_diag *diag) {
  if (onnxshape__accepts(op, version, type) != 0) {
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
  return onnxshape__reject(op, version, type, diag);
}

#define ONNXSHAPE__BYTES_CASE(number, name, bits) \
  case (number):                                  \
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
