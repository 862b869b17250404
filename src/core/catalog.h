/* SPDX-License-Identifier: Apache-2.0 */
/* The facts every table of the library is built from, each said once:
 * the element types, which types exist at which operator version, and the
 * since_versions of every operator onnxshape knows. types.c, versions.c,
 * the kernels' accepting paths and the loader expand these lists; the ACSL
 * specification (include/onnxshape_spec.h) states the same facts
 * independently, and the proofs and tests/test_core.c hold the two
 * together. */
#ifndef ONNXSHAPE_CATALOG_H
#define ONNXSHAPE_CATALOG_H

/* TYPE-TABLE: X(number, name, bits per element in ONNX storage); 0 bits for
 * string, whose elements have no fixed size. */
#define ONNXSHAPE__TYPES(X)                                                              \
  X(1, "float", 32) X(2, "uint8", 8) X(3, "int8", 8) X(4, "uint16", 16) X(5, "int16", 16) \
  X(6, "int32", 32) X(7, "int64", 64) X(8, "string", 0) X(9, "bool", 8)                  \
  X(10, "float16", 16) X(11, "double", 64) X(12, "uint32", 32) X(13, "uint64", 64)       \
  X(14, "complex64", 64) X(15, "complex128", 128) X(16, "bfloat16", 16)                  \
  X(17, "float8e4m3fn", 8) X(18, "float8e4m3fnuz", 8) X(19, "float8e5m2", 8)             \
  X(20, "float8e5m2fnuz", 8) X(21, "uint4", 4) X(22, "int4", 4) X(23, "float4e2m1", 4)   \
  X(24, "float8e8m0", 8) X(25, "uint2", 2) X(26, "int2", 2)

/* TYPE-SET: the element types an operator version v accepts are 1 to
 * ONNXSHAPE__LAST_TYPE(v): bfloat16 came with opset 13, the float8 types with
 * 19, uint4 and int4 with 21, float4e2m1 with 23, float8e8m0 with 24, uint2
 * and int2 with 25. */
#define ONNXSHAPE__LAST_TYPE(v)                                                          \
  ((v) >= 25 ? (int32_t)26 : (v) >= 24 ? (int32_t)24 : (v) >= 23 ? (int32_t)23            \
   : (v) >= 21 ? (int32_t)22 : (v) >= 19 ? (int32_t)20 : (v) >= 13 ? (int32_t)16 : (int32_t)15)
/* TYPE-SET-RESHAPE1 (and Constant-1): float, float16 and double only, as a
 * test and as a bit mask (bit t for type t). */
#define ONNXSHAPE__IS_FLOAT_TYPE(t) ((t) == 1 || (t) == 10 || (t) == 11)
#define ONNXSHAPE__FLOAT_TYPES (((uint32_t)1u << 1u) | ((uint32_t)1u << 10u) | ((uint32_t)1u << 11u))
/* The type set 1 .. last as a bit mask (bit t for type t); last is 0 to 31,
 * a constant or a variable (unsigned arithmetic, for MISRA's 10.1). */
#define ONNXSHAPE__TYPES_UP_TO(last) ((uint32_t)(((uint64_t)2u << (uint32_t)(last)) - 2u))

/* OPSET-VERSIONS: the since_versions of each operator, oldest first. */
#define ONNXSHAPE__SHAPE_VERSIONS(X) X(1) X(13) X(15) X(19) X(21) X(23) X(24) X(25)
#define ONNXSHAPE__RESHAPE_VERSIONS(X) X(1) X(5) X(13) X(14) X(19) X(21) X(23) X(24) X(25)
#define ONNXSHAPE__SIZE_VERSIONS(X) X(1) X(13) X(19) X(21) X(23) X(24) X(25)
#define ONNXSHAPE__CONSTANT_VERSIONS(X) X(1) X(9) X(11) X(12) X(13) X(19) X(21) X(23) X(24) X(25)
#define ONNXSHAPE__IDENTITY_VERSIONS(X) X(1) X(13) X(14) X(16) X(19) X(21) X(23) X(24) X(25)

/* The operators' names (one home: the version tables and onnxshape_op_name
 * use them; the kernels' messages say "Shape", "Reshape" and "Size"). */
#define ONNXSHAPE__SHAPE_NAME "Shape"
#define ONNXSHAPE__RESHAPE_NAME "Reshape"
#define ONNXSHAPE__SIZE_NAME "Size"

/* The versions where attributes and inputs appear. */
#define ONNXSHAPE__SHAPE_ATTRS_SINCE 15     /* SHAPE-ATTRS-VERSION: start, end */
#define ONNXSHAPE__ALLOWZERO_SINCE 14       /* RESHAPE-ALLOWZERO-VERSION */
#define ONNXSHAPE__SHAPE_INPUT_SINCE 5      /* RESHAPE-INPUTS: the `shape` input */

#endif
