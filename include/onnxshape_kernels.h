/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file onnxshape_kernels.h
 * @brief The kernels of onnxshape: the ONNX operators Shape, Reshape and
 *        Size, in every operator version and for every element type, as
 *        functions that never allocate, with the statuses, diagnostics,
 *        element types, versions and dims arithmetic they use.
 *
 * This is all the kernels-only package (libonnxshape-kernels.a,
 * `onnxshape::kernels`, `pkg-config onnxshape-kernels`) installs and
 * needs: no allocation, no protobuf-c, no POSIX. The whole library's header,
 * onnxshape.h, includes it and adds tensor and model files, static analysis
 * and the SONNX profile check. The ACSL logic of the contracts below is in
 * onnxshape_spec.h, read by Frama-C only.
 *
 * Conventions, for every function below:
 * - Every fallible function returns an ::onnxshape_status and writes its
 *   results through out-parameters. Out-parameters are written only on
 *   success unless the comment says otherwise.
 * - The caller owns all memory. Output buffers come with their capacity; a
 *   kernel never reads or writes outside the buffers it is given and never
 *   allocates.
 * - @p diag may be NULL. When it is not, a failing call writes a message into
 *   diag->message naming the operator, its version, the node (diag->node, if
 *   the caller set it) and the rule that failed, for example
 *   `Reshape-14 (node 'n0'): shape[1] = -2; a dimension cannot be below -1`.
 *   A successful call leaves diag->message as an empty string.
 * - `version` arguments are an operator's since_version (for Reshape: 1, 5,
 *   13, 14, 19, 21, 23, 24 or 25); use onnxshape_resolve_version() to turn a
 *   model's imported opset into one.
 * - Element types are ONNX TensorProto.DataType numbers (::onnxshape_type).
 *
 * The semantics are those of the project rulebook (docs/semantics.md); every
 * error named below corresponds to one of its rules.
 */
#ifndef ONNXSHAPE_KERNELS_H
#define ONNXSHAPE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols the shared library exports; everything else is hidden. */
#if defined(ONNXSHAPE_BUILDING) && defined(__GNUC__)
#define ONNXSHAPE_API __attribute__((visibility("default")))
#else
#define ONNXSHAPE_API
#endif

#define ONNXSHAPE_VERSION_MAJOR 0
#define ONNXSHAPE_VERSION_MINOR 2
#define ONNXSHAPE_VERSION_PATCH 0
#define ONNXSHAPE_VERSION_STRING "0.2.0"

/** The newest default-domain opset this build knows. */
#define ONNXSHAPE_MAX_OPSET 28

/* ------------------------------------------------------------------------ */
/** @name Status codes
 * The numeric values are pinned: they never change between releases, and new
 * codes are only ever appended.
 * @{ */

/** X(NAME, value, description): the one list every status comes from. */
#define ONNXSHAPE_STATUS_LIST(X)                                                              \
  X(OK, 0, "success")                                                                         \
  X(ERR_INVALID_ARGUMENT, 1, "invalid argument (null pointer or parameter out of range)")     \
  X(ERR_UNKNOWN_TYPE, 2, "unknown element type")                                              \
  X(ERR_TYPE_NOT_ALLOWED, 3, "element type not allowed for this operator version")            \
  X(ERR_UNKNOWN_OPERATOR, 4, "unknown operator")                                              \
  X(ERR_UNSUPPORTED_OPSET, 5, "opset not supported")                                          \
  X(ERR_UNKNOWN_VERSION, 6, "not a version of this operator")                                 \
  X(ERR_INVALID_ATTRIBUTE, 7, "invalid attribute")                                            \
  X(ERR_NEGATIVE_DIM, 8, "a tensor dimension is negative")                                    \
  X(ERR_OVERFLOW, 9, "a product of dimensions or a byte count overflows")                     \
  X(ERR_DIM_BELOW_MINUS_ONE, 10, "a target dimension is below -1")                            \
  X(ERR_MULTIPLE_INFERRED, 11, "more than one target dimension is -1")                        \
  X(ERR_ZERO_OUT_OF_RANGE, 12, "a 0 in the target copies a dimension the input does not have") \
  X(ERR_ZERO_WITH_INFERRED, 13, "allowzero=1 with both 0 and -1 in the target")               \
  X(ERR_INFERRED_FROM_ZERO, 14, "-1 cannot be inferred: the other dimensions multiply to 0")  \
  X(ERR_NOT_DIVISIBLE, 15, "-1 cannot be inferred: element count not divisible")              \
  X(ERR_COUNT_MISMATCH, 16, "element counts of input and output differ")                      \
  X(ERR_INVALID_RANK, 17, "a tensor has the wrong rank")                                      \
  X(ERR_BUFFER_TOO_SMALL, 18, "an output buffer is too small")                                \
  X(ERR_DATA_SIZE, 19, "a data buffer does not hold the bytes its dims need")                 \
  X(ERR_MALFORMED, 20, "malformed protobuf")                                                  \
  X(ERR_INVALID_TENSOR, 21, "invalid tensor")                                                 \
  X(ERR_INVALID_MODEL, 22, "invalid model")                                                   \
  X(ERR_IO, 23, "input/output error")                                                         \
  X(ERR_OUT_OF_MEMORY, 24, "out of memory")                                                   \
  X(ERR_NOT_FOUND, 25, "not found")

typedef enum onnxshape_status {
#define ONNXSHAPE_X_ENUM(name, value, text) ONNXSHAPE_##name = (value),
  ONNXSHAPE_STATUS_LIST(ONNXSHAPE_X_ENUM)
#undef ONNXSHAPE_X_ENUM
} onnxshape_status;

/** @return the constant's name, e.g. "ONNXSHAPE_ERR_OVERFLOW"; for a value
 *  outside the list, "ONNXSHAPE_UNKNOWN_STATUS". Never NULL. */
ONNXSHAPE_API const char *onnxshape_status_name(onnxshape_status status);

/** @return a one-line English description of @p status. Never NULL. */
ONNXSHAPE_API const char *onnxshape_status_text(onnxshape_status status);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Diagnostics
 * @{ */

/** Size of the message buffer in ::onnxshape_diag, terminator included. */
#define ONNXSHAPE_DIAG_SIZE 320

/**
 * A caller-provided diagnostic. Set @c node to the ONNX node name (or NULL)
 * before a call; a failing call writes a NUL-terminated message into
 * @c message, truncated to fit. In a kernels-only build with messages
 * compiled out (CMake -DONNXSHAPE_MESSAGES=OFF, docs/embedded.md) the
 * message is "error <status number>", e.g. "error 10".
 */
typedef struct onnxshape_diag {
  const char *node;                  /**< [in] node name to quote, or NULL */
  char message[ONNXSHAPE_DIAG_SIZE]; /**< [out] what failed, and why */
} onnxshape_diag;

/** Set @p diag to no node and an empty message. @p diag may be NULL. */
ONNXSHAPE_API void onnxshape_diag_init(onnxshape_diag *diag);

/**
 * Escape @p len bytes of text that came from a file or a user (a tensor or
 * node name, a path) for display on one line, as every message of the
 * library is escaped: a backslash as `\\`, newline, tab and carriage return
 * as `\n`, `\t`, `\r`, and every other control character, every character
 * that changes how text displays (C1 controls, U+2028, U+2029, bidirectional
 * controls) and every byte that is not part of well-formed UTF-8 as `\xNN`
 * per byte. Other UTF-8 is kept as it is.
 * @param[out] dst  where the escaped text goes, NUL-terminated; may be NULL
 *                  when @p cap is 0
 * @param[in]  cap  bytes @p dst holds; escapes are never cut, so when the
 *                  text does not fit, dst holds the escapes that do
 * @return the length of the whole escaped text (excluding the NUL): a
 *         result >= @p cap means it did not fit.
 */
ONNXSHAPE_API size_t onnxshape_escape(char *dst, size_t cap, const char *src, size_t len);

/**
 * The well-formed UTF-8 character at the start of the @p len bytes at @p s:
 * its length in bytes (1 to 4), its code point in *cp.
 * @return 0 when the bytes do not start with one: a byte that is not UTF-8,
 *         a cut, overlong or surrogate sequence, a value past U+10FFFF, or
 *         @p len 0 (or NULL arguments).
 */
ONNXSHAPE_API size_t onnxshape_utf8_decode(const char *s, size_t len, uint32_t *cp);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Element types (TensorProto.DataType)
 * @{ */

typedef enum onnxshape_type {
  ONNXSHAPE_TYPE_UNDEFINED = 0,
  ONNXSHAPE_TYPE_FLOAT = 1,
  ONNXSHAPE_TYPE_UINT8 = 2,
  ONNXSHAPE_TYPE_INT8 = 3,
  ONNXSHAPE_TYPE_UINT16 = 4,
  ONNXSHAPE_TYPE_INT16 = 5,
  ONNXSHAPE_TYPE_INT32 = 6,
  ONNXSHAPE_TYPE_INT64 = 7,
  ONNXSHAPE_TYPE_STRING = 8,
  ONNXSHAPE_TYPE_BOOL = 9,
  ONNXSHAPE_TYPE_FLOAT16 = 10,
  ONNXSHAPE_TYPE_DOUBLE = 11,
  ONNXSHAPE_TYPE_UINT32 = 12,
  ONNXSHAPE_TYPE_UINT64 = 13,
  ONNXSHAPE_TYPE_COMPLEX64 = 14,
  ONNXSHAPE_TYPE_COMPLEX128 = 15,
  ONNXSHAPE_TYPE_BFLOAT16 = 16,
  ONNXSHAPE_TYPE_FLOAT8E4M3FN = 17,
  ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ = 18,
  ONNXSHAPE_TYPE_FLOAT8E5M2 = 19,
  ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ = 20,
  ONNXSHAPE_TYPE_UINT4 = 21,
  ONNXSHAPE_TYPE_INT4 = 22,
  ONNXSHAPE_TYPE_FLOAT4E2M1 = 23,
  ONNXSHAPE_TYPE_FLOAT8E8M0 = 24,
  ONNXSHAPE_TYPE_UINT2 = 25,
  ONNXSHAPE_TYPE_INT2 = 26
} onnxshape_type;

/** The highest known type number. */
#define ONNXSHAPE_TYPE_LAST 26

/**
 * One element of a string tensor in memory. A string tensor's data is an
 * array of these. onnxshape never owns, frees or copies the bytes @c data
 * points to: they belong to whoever built the input tensor, and a Reshape
 * output (view or copy) points at the same bytes.
 */
typedef struct onnxshape_string {
  const char *data; /**< the bytes (not NUL-terminated; may be NULL if length is 0) */
  size_t length;    /**< number of bytes */
} onnxshape_string;

typedef struct onnxshape_type_info {
  int32_t type;     /**< TensorProto.DataType number */
  const char *name; /**< ONNX name in lower case, e.g. "float8e4m3fn" */
  /** Bits per element in ONNX storage: 64 for int64, 4 for int4, 2 for int2,
   *  8 for bool; 0 for string, whose elements have no fixed size. */
  uint32_t bits;
} onnxshape_type_info;
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Tensors and attributes
 * @{ */

/**
 * A tensor as the kernels see it: borrowed dims and data, row-major,
 * packed for sub-byte types, an array of ::onnxshape_string for strings.
 * The data is ONNX's storage, which is little-endian on every host,
 * big-endian ones included (read and write elements with
 * onnxshape_load_le() and onnxshape_store_le()). The kernels never read
 * element values, only copy bytes, so they put no alignment requirement on
 * data: mapped files hand it over at any address.
 */
typedef struct onnxshape_tensor {
  int32_t type;          /**< element type (::onnxshape_type) */
  size_t rank;           /**< number of dims; 0 for a scalar */
  const int64_t *dims;   /**< rank entries, each >= 0 (may be NULL if rank is 0) */
  const void *data;      /**< storage; may be NULL only if it needs 0 bytes */
  size_t data_bytes;     /**< bytes readable at data */
} onnxshape_tensor;

/**
 * The unsigned value of the @p bytes (1 to 8; more count as 8)
 * little-endian bytes at @p p: an element of tensor data on any host. For
 * a signed element, convert the result to the signed type of that width,
 * e.g. `(int64_t)onnxshape_load_le(p + 8 * i, 8)`. No alignment needed.
 */
/*@ requires \valid_read((const unsigned char *)p + (0 .. (bytes > 8 ? 8 : bytes) - 1));
    assigns \nothing;
*/
ONNXSHAPE_API uint64_t onnxshape_load_le(const void *p, unsigned bytes);

/**
 * Write the low @p bytes (1 to 8; more count as 8) bytes of @p v at @p p,
 * least significant first: an element of tensor data on any host.
 */
/*@ requires \valid((unsigned char *)p + (0 .. (bytes > 8 ? 8 : bytes) - 1));
    assigns ((unsigned char *)p)[0 .. (bytes > 8 ? 8 : bytes) - 1];
*/
ONNXSHAPE_API void onnxshape_store_le(void *p, uint64_t v, unsigned bytes);

/** Attributes of Shape. Versions 1 and 13 accept none. */
typedef struct onnxshape_shape_attrs {
  int has_start;  /**< 1 if the start attribute is set (Shape-15 and later) */
  int64_t start;  /**< default 0 */
  int has_end;    /**< 1 if the end attribute is set (Shape-15 and later) */
  int64_t end;    /**< default: the rank */
} onnxshape_shape_attrs;

/** Attributes of Reshape. */
typedef struct onnxshape_reshape_attrs {
  int has_allowzero; /**< 1 if allowzero is set (Reshape-14 and later) */
  int64_t allowzero; /**< 0 (default) or 1 */
} onnxshape_reshape_attrs;
/** @} */


/* ------------------------------------------------------------------------ */
/** @name Operators and versions
 * @{ */

typedef enum onnxshape_op {
  ONNXSHAPE_OP_SHAPE = 1,
  ONNXSHAPE_OP_RESHAPE = 2,
  ONNXSHAPE_OP_SIZE = 3
} onnxshape_op;

/** Attribute types, numbered as ONNX's AttributeProto.AttributeType. */
typedef enum onnxshape_attr_type {
  ONNXSHAPE_ATTR_INT = 2,
  ONNXSHAPE_ATTR_INTS = 7
} onnxshape_attr_type;

/** One attribute of one operator version. */
typedef struct onnxshape_attr_spec {
  const char *name;
  onnxshape_attr_type type;
  int required;          /**< 1 if a model must set it */
  int has_default;       /**< 1 if default_value applies when absent */
  int64_t default_value; /**< meaningful only when has_default */
} onnxshape_attr_spec;

/** One (operator, since_version) and what it accepts. */
typedef struct onnxshape_op_version {
  onnxshape_op op;
  const char *op_name;   /**< "Shape", "Reshape" or "Size" */
  int since_version;
  uint32_t type_mask;    /**< bit t set when element type t is allowed for the data input */
  size_t num_inputs;     /**< exact number of inputs */
  size_t num_attrs;
  const onnxshape_attr_spec *attrs;
} onnxshape_op_version;
/** @} */

/* The ACSL specification that the contracts below use (the logic of element
 * counts, storage, versions and every rule), read by Frama-C only:
 * compilers never see it. docs/proofs.md explains the contracts. */
#ifdef __FRAMAC__
#include "onnxshape_spec.h"
#endif

/* ------------------------------------------------------------------------ */
/** @name Element types: lookups
 * @{ */

/** @return the table entry of @p type, or NULL if @p type is not 1..26. */
/*@ assigns \nothing;
    ensures !is_type(type) ==> \result == \null;
    // TYPE-TABLE
    ensures is_type(type) ==> \valid_read(\result) && \result->type == type &&
            \result->bits == type_bits(type);
*/
ONNXSHAPE_API const onnxshape_type_info *onnxshape_type_get(int32_t type);

/** @return the ONNX name of @p type, or "unknown" if it is not 1..26. */
/*@ assigns \result \from type; */
ONNXSHAPE_API const char *onnxshape_type_name(int32_t type);

/**
 * Storage bytes of @p count elements of @p type in the memory layout the
 * kernels use: packed for sub-byte types (two 4-bit or four 2-bit elements a
 * byte, a partial last byte counted whole), and count * sizeof(onnxshape_string)
 * for strings.
 * @param[in]  type  element type
 * @param[in]  count element count (>= 0)
 * @param[out] bytes the byte count
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_UNKNOWN_TYPE; ONNXSHAPE_ERR_INVALID_ARGUMENT
 *         (count < 0 or bytes NULL); ONNXSHAPE_ERR_OVERFLOW (does not fit in
 *         size_t).
 */
/*@ requires bytes == \null || \valid(bytes);
    assigns *bytes;
    // ERROR-ORDER: the type, the arguments, then the size.
    behavior unknown_type:
      assumes !is_type(type);
      assigns \nothing;
      ensures TYPE_TABLE: \result == ONNXSHAPE_ERR_UNKNOWN_TYPE;
    behavior invalid_argument:
      assumes is_type(type) && (bytes == \null || count < 0);
      assigns \nothing;
      ensures KERNEL_CAPACITY: \result == ONNXSHAPE_ERR_INVALID_ARGUMENT;
    behavior overflow:
      assumes is_type(type) && bytes != \null && count >= 0;
      assumes storage_bytes(type_bits(type), count) > SIZE_MAX;
      assigns \nothing;
      ensures STORAGE_BYTES: \result == ONNXSHAPE_ERR_OVERFLOW;
    behavior counted:
      assumes is_type(type) && bytes != \null && count >= 0;
      assumes storage_bytes(type_bits(type), count) <= SIZE_MAX;
      ensures STORAGE_BYTES: \result == ONNXSHAPE_OK &&
                             *bytes == storage_bytes(type_bits(type), count);
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_type_storage_bytes(int32_t type, int64_t count, size_t *bytes);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Operators and versions: lookups
 * @{ */

/** @return the name of @p op ("Shape", ...), or "unknown". */
ONNXSHAPE_API const char *onnxshape_op_name(onnxshape_op op);

/**
 * Look an operator up by its ONNX name.
 * @return ONNXSHAPE_OK, or ONNXSHAPE_ERR_UNKNOWN_OPERATOR (also for NULL).
 */
ONNXSHAPE_API onnxshape_status onnxshape_op_from_name(const char *name, onnxshape_op *op);

/** @return the table entry for (op, since_version), or NULL when @p version is
 *  not a since_version of @p op. */
/*@ assigns \nothing;
    // OPSET-VERSIONS
    ensures \result != \null <==> is_version(op, version);
    ensures \result != \null ==>
            \valid_read(\result) && \result->op == op && \result->since_version == version;
*/
ONNXSHAPE_API const onnxshape_op_version *onnxshape_op_version_get(onnxshape_op op, int version);

/**
 * All versions of @p op, oldest first.
 * @param[out] count number of entries (0 for an unknown op)
 * @return the first entry, or NULL for an unknown op.
 */
ONNXSHAPE_API const onnxshape_op_version *onnxshape_op_versions(onnxshape_op op, size_t *count);

/**
 * The version of @p op that runs in a model importing default-domain
 * @p opset: the newest since_version <= opset.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_UNKNOWN_OPERATOR;
 *         ONNXSHAPE_ERR_UNSUPPORTED_OPSET when opset is not 1..ONNXSHAPE_MAX_OPSET;
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT when @p version is NULL.
 */
ONNXSHAPE_API onnxshape_status onnxshape_resolve_version(onnxshape_op op, int64_t opset, int *version,
                                           onnxshape_diag *diag);

/**
 * Whether element type @p type may be the data input of (op, version).
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_UNKNOWN_OPERATOR; ONNXSHAPE_ERR_UNKNOWN_VERSION;
 *         ONNXSHAPE_ERR_UNKNOWN_TYPE; ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, with a
 *         message naming type, operator and version.
 */
/*@ requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the operator, its version, the
    // type's existence, the type set.
    ensures ERROR_ORDER: \result == check_status(op, version, type);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes check_status(op, version, type) == ONNXSHAPE_OK;
      ensures OPSET_VERSIONS: TYPE_SET: TYPE_SET_RESHAPE1: \result == ONNXSHAPE_OK;
    behavior rejected:
      assumes check_status(op, version, type) != ONNXSHAPE_OK;
      ensures OPSET_VERSIONS: TYPE_TABLE: TYPE_SET: \result != ONNXSHAPE_OK;
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_check_type(onnxshape_op op, int version, int32_t type,
                                      onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Dimensions
 * @{ */

/**
 * Element count of a tensor with @p rank dims: 1 for rank 0; 0 as soon as any
 * dim is 0 (checked before multiplying, so `[2^32, 2^32, 0]` gives 0).
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT (dims NULL with rank > 0,
 *         or count NULL); ONNXSHAPE_ERR_NEGATIVE_DIM; ONNXSHAPE_ERR_OVERFLOW
 *         (the product exceeds INT64_MAX).
 */
/*@ requires rank == 0 || dims == \null || \valid_read(dims + (0 .. rank - 1));
    requires count == \null || (\valid(count) && \separated(count, dims + (0 .. rank - 1)));
    assigns *count;
    // ERROR-ORDER: the arguments, then negative dims, then the count.
    behavior invalid_argument:
      assumes count == \null || (dims == \null && rank > 0);
      assigns \nothing;
      ensures KERNEL_CAPACITY: \result == ONNXSHAPE_ERR_INVALID_ARGUMENT;
    behavior negative_dim:
      assumes count != \null && (dims != \null || rank == 0) && !all_nonneg(dims, rank);
      ensures DIMS_COUNT: \result == ONNXSHAPE_ERR_NEGATIVE_DIM && *count == \old(*count);
    behavior overflow:
      assumes count != \null && (dims != \null || rank == 0) && all_nonneg(dims, rank);
      assumes elem_count(dims, rank) > INT64_MAX;
      ensures SIZE_OVERFLOW: \result == ONNXSHAPE_ERR_OVERFLOW && *count == \old(*count);
    behavior counted:
      assumes count != \null && (dims != \null || rank == 0) && all_nonneg(dims, rank);
      assumes elem_count(dims, rank) <= INT64_MAX;
      ensures DIMS_COUNT: SIZE_ZERO_FIRST: \result == ONNXSHAPE_OK &&
              *count == \old(elem_count(dims, rank));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_dims_count(const int64_t *dims, size_t rank, int64_t *count);
/** @} */


/* ------------------------------------------------------------------------ */
/** @name Shape
 * Output: a 1-D int64 tensor holding dims[s:e], where s and e are start and
 * end after adding the rank to negative values and clamping to [0, rank];
 * empty when s >= e.
 * @{ */



/**
 * Length of Shape's 1-D output (its only dim).
 * @param[in]  version 1, 13, 15, 19, 21, 23, 24 or 25
 * @param[in]  type    element type of the data input
 * @param[in]  rank    rank of the data input
 * @param[in]  attrs   attributes, or NULL for none
 * @param[out] length  number of output values
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_UNKNOWN_VERSION;
 *         ONNXSHAPE_ERR_UNKNOWN_TYPE; ONNXSHAPE_ERR_TYPE_NOT_ALLOWED;
 *         ONNXSHAPE_ERR_INVALID_ATTRIBUTE (start/end before version 15).
 */
/*@ requires attrs == \null || \valid_read(attrs);
    requires length == \null || \valid(length);
    requires diag_ok(diag);
    requires length != \null ==> (\separated(length, attrs) && \separated(length, diag));
    assigns *length, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first check it fails, or OK.
    ensures ERROR_ORDER: \result == \old((length == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
                                     shape_status(version, type, rank, attrs)));
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    // SHAPE-ATTRS-VERSION: start or end before Shape-15 is refused.
    ensures SHAPE_ATTRS_VERSION: version < 15 && shape_attrs_set(attrs) ==>
            \result != ONNXSHAPE_OK;
    behavior accepted:
      assumes length != \null && shape_status(version, type, rank, attrs) == ONNXSHAPE_OK;
      ensures SHAPE_OUTPUT: SHAPE_CLAMP: SHAPE_DEFAULTS: SHAPE_EMPTY: SHAPE_SCALAR:
              \result == ONNXSHAPE_OK && *length == shape_len(attrs, rank);
    behavior rejected:
      assumes length == \null || shape_status(version, type, rank, attrs) != ONNXSHAPE_OK;
      assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK;
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_shape_infer(int version, int32_t type, size_t rank,
                                       const onnxshape_shape_attrs *attrs, size_t *length,
                                       onnxshape_diag *diag);

/**
 * Run Shape: write the selected dims of @p data into @p out.
 * Only data->type, data->rank and data->dims are read; data->data may be NULL.
 * @param[out] out          at least *length values (see onnxshape_shape_infer)
 * @param[in]  out_capacity number of int64 values @p out can hold
 * @param[out] length       number of values written
 * @return as onnxshape_shape_infer, plus ONNXSHAPE_ERR_NEGATIVE_DIM and
 *         ONNXSHAPE_ERR_BUFFER_TOO_SMALL (nothing written).
 */
/*@ requires data == \null || \valid_read(data);
    requires data != \null && data->rank > 0 && data->dims != \null ==>
             \valid_read(data->dims + (0 .. data->rank - 1));
    requires attrs == \null || \valid_read(attrs);
    requires out == \null || \valid(out + (0 .. out_capacity - 1));
    requires length == \null || \valid(length);
    requires diag_ok(diag);
    requires data != \null && data->rank > 0 && data->dims != \null && out != \null ==>
             \separated(out + (0 .. out_capacity - 1), data->dims + (0 .. data->rank - 1));
    requires out != \null ==> (\separated(out + (0 .. out_capacity - 1), data) &&
             \separated(out + (0 .. out_capacity - 1), attrs) &&
             \separated(out + (0 .. out_capacity - 1), length) &&
             \separated(out + (0 .. out_capacity - 1), diag));
    requires length != \null ==> (\separated(length, data) && \separated(length, attrs) &&
             \separated(length, diag));
    requires length != \null && data != \null && data->rank > 0 && data->dims != \null ==>
             \separated(length, data->dims + (0 .. data->rank - 1));
    assigns out[0 .. out_capacity - 1], *length, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first check it fails, or OK.
    ensures ERROR_ORDER: \result == \old(shape_run_status(version, data, attrs, out, out_capacity,
                                                     length));
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes shape_run_status(version, data, attrs, out, out_capacity, length) == ONNXSHAPE_OK;
      ensures SHAPE_OUTPUT: SHAPE_CLAMP: SHAPE_DEFAULTS: SHAPE_EMPTY: SHAPE_SCALAR:
              \result == ONNXSHAPE_OK && *length == shape_len(attrs, data->rank);
      ensures SHAPE_OUTPUT: SHAPE_CLAMP: SHAPE_DEFAULTS:
              \forall integer k; 0 <= k < *length ==>
                out[k] == data->dims[shape_start(attrs, data->rank) + k];
      // Only the output's values are written.
      ensures KERNEL_RESULT_ONLY: \forall integer k; *length <= k < out_capacity ==>
              out[k] == \old(out[k]);
    behavior rejected:
      assumes shape_run_status(version, data, attrs, out, out_capacity, length) != ONNXSHAPE_OK;
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK &&
              (out != \null ==> \forall integer k; 0 <= k < out_capacity ==>
                 out[k] == \old(out[k])) &&
              (length != \null ==> *length == \old(*length));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_shape_run(int version, const onnxshape_tensor *data,
                                     const onnxshape_shape_attrs *attrs, int64_t *out,
                                     size_t out_capacity, size_t *length, onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Size
 * Output: a 0-D int64 tensor (dims []) holding the element count.
 * @{ */

/**
 * Check that Size can run on a tensor of @p type; the output dims are always [].
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_UNKNOWN_VERSION; ONNXSHAPE_ERR_UNKNOWN_TYPE;
 *         ONNXSHAPE_ERR_TYPE_NOT_ALLOWED.
 */
/*@ requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first check it fails, or OK.
    ensures ERROR_ORDER: \result == entry_status(ONNXSHAPE_OP_SIZE, version, type);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes entry_status(ONNXSHAPE_OP_SIZE, version, type) == ONNXSHAPE_OK;
      ensures OPSET_VERSIONS: TYPE_SET: SIZE_OUTPUT: \result == ONNXSHAPE_OK;
    behavior rejected:
      assumes entry_status(ONNXSHAPE_OP_SIZE, version, type) != ONNXSHAPE_OK;
      ensures \result != ONNXSHAPE_OK;
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_size_infer(int version, int32_t type, onnxshape_diag *diag);

/**
 * Run Size. Only data->type, data->rank and data->dims are read.
 * @param[out] out the element count
 * @return as onnxshape_size_infer, plus ONNXSHAPE_ERR_INVALID_ARGUMENT,
 *         ONNXSHAPE_ERR_NEGATIVE_DIM and ONNXSHAPE_ERR_OVERFLOW.
 */
/*@ requires data == \null || \valid_read(data);
    requires data != \null && data->rank > 0 && data->dims != \null ==>
             \valid_read(data->dims + (0 .. data->rank - 1));
    requires out == \null || \valid(out);
    requires diag_ok(diag);
    requires out != \null ==> (\separated(out, data) && \separated(out, diag));
    requires data != \null && out != \null && data->rank > 0 && data->dims != \null ==>
             \separated(out, data->dims + (0 .. data->rank - 1));
    assigns *out, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first check it fails, or OK.
    ensures ERROR_ORDER: \result == \old(size_run_status(version, data, out));
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes size_run_status(version, data, out) == ONNXSHAPE_OK;
      ensures SIZE_OUTPUT: SIZE_ZERO_FIRST: DIMS_COUNT:
              \result == ONNXSHAPE_OK && *out == \old(elem_count(data->dims, data->rank));
    behavior rejected:
      assumes size_run_status(version, data, out) != ONNXSHAPE_OK;
      // SIZE-OVERFLOW: no wrapped count
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK &&
              (out != \null ==> *out == \old(*out));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_size_run(int version, const onnxshape_tensor *data, int64_t *out,
                                    onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Reshape
 * @{ */



/**
 * Resolve Reshape's output dims.
 *
 * For Reshape-5 and later, @p shape holds the values of the `shape` input
 * (1-D int64; the caller checks the input's type and rank, see
 * onnxshape_reshape_check_shape_input()). For Reshape-1 it holds the values of
 * the required `shape` attribute.
 *
 * @param[in]  version       1, 5, 13, 14, 19, 21, 23, 24 or 25
 * @param[in]  type          element type of the data input
 * @param[in]  in_dims       dims of the data input (in_rank entries, each >= 0)
 * @param[in]  in_rank       rank of the data input
 * @param[in]  shape         target values (shape_len entries)
 * @param[in]  shape_len     number of target values; 0 means a scalar
 * @param[in]  attrs         attributes, or NULL for none
 * @param[out] out_dims      resolved dims (shape_len entries)
 * @param[in]  out_capacity  entries @p out_dims can hold
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_UNKNOWN_VERSION;
 *         ONNXSHAPE_ERR_UNKNOWN_TYPE; ONNXSHAPE_ERR_TYPE_NOT_ALLOWED;
 *         ONNXSHAPE_ERR_INVALID_ATTRIBUTE (allowzero before version 14, or not 0/1);
 *         ONNXSHAPE_ERR_NEGATIVE_DIM; ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE;
 *         ONNXSHAPE_ERR_MULTIPLE_INFERRED; ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE;
 *         ONNXSHAPE_ERR_ZERO_WITH_INFERRED; ONNXSHAPE_ERR_INFERRED_FROM_ZERO;
 *         ONNXSHAPE_ERR_NOT_DIVISIBLE; ONNXSHAPE_ERR_COUNT_MISMATCH;
 *         ONNXSHAPE_ERR_OVERFLOW; ONNXSHAPE_ERR_BUFFER_TOO_SMALL (out_capacity < shape_len).
 */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    requires attrs == \null || \valid_read(attrs);
    requires out_dims == \null || \valid(out_dims + (0 .. out_capacity - 1));
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < SIZE_MAX;
    requires diag_ok(diag);
    requires out_dims != \null ==>
             (\separated(out_dims + (0 .. out_capacity - 1), shape + (0 .. shape_len - 1)) &&
               \separated(out_dims + (0 .. out_capacity - 1), attrs) &&
               \separated(out_dims + (0 .. out_capacity - 1), diag));
    requires out_dims != \null ==> \separated(out_dims + (0 .. out_capacity - 1),
                                               in_dims + (0 .. in_rank - 1));
    assigns out_dims[0 .. out_capacity - 1], diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first rule it breaks, in
    // semantics.md's order, or OK.
    ensures ERROR_ORDER: \result == reshape_status{Pre}(version, type, in_dims, in_rank, shape,
                                                        shape_len, attrs, out_dims, out_capacity);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    // RESHAPE-ALLOWZERO-VERSION: allowzero before Reshape-14 is refused.
    ensures RESHAPE_ALLOWZERO_VERSION: RESHAPE_ALLOWZERO_VALUES:
            allowzero_invalid(version, attrs) ==> \result != ONNXSHAPE_OK;
    behavior accepted:
      assumes reshape_status(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims,
                             out_capacity) == ONNXSHAPE_OK;
      ensures RESHAPE_INFER: RESHAPE_ZERO_COPY: RESHAPE_LITERAL: RESHAPE_COUNT: RESHAPE_SCALAR:
              \result == ONNXSHAPE_OK &&
              reshape_accepts{Pre,Post}(shape, shape_len, in_dims, in_rank,
                                        allowzero_of(attrs), out_dims);
      // Only the output's dims are written.
      ensures KERNEL_RESULT_ONLY: \forall integer k; shape_len <= k < out_capacity ==>
              out_dims[k] == \old(out_dims[k]);
    behavior rejected:
      assumes reshape_status(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims,
                             out_capacity) != ONNXSHAPE_OK;
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK &&
              (out_dims != \null ==> \forall integer k; 0 <= k < out_capacity ==>
                 out_dims[k] == \old(out_dims[k]));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_reshape_infer(int version, int32_t type, const int64_t *in_dims,
                                         size_t in_rank, const int64_t *shape, size_t shape_len,
                                         const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                         size_t out_capacity, onnxshape_diag *diag);

/**
 * Check the `shape` input of Reshape-5 and later: int64 and 1-D.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_TYPE_NOT_ALLOWED; ONNXSHAPE_ERR_INVALID_RANK;
 *         ONNXSHAPE_ERR_UNKNOWN_VERSION (also for Reshape-1, which has no such input).
 */
/*@ requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first check it fails, or OK.
    ensures ERROR_ORDER: \result ==
            (!(is_version(ONNXSHAPE_OP_RESHAPE, version) && version >= 5) ?
               ONNXSHAPE_ERR_UNKNOWN_VERSION :
             type != ONNXSHAPE_TYPE_INT64 ? ONNXSHAPE_ERR_TYPE_NOT_ALLOWED :
             rank != 1 ? ONNXSHAPE_ERR_INVALID_RANK : ONNXSHAPE_OK);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes is_version(ONNXSHAPE_OP_RESHAPE, version) && version >= 5 &&
              type == ONNXSHAPE_TYPE_INT64 && rank == 1;
      // RESHAPE-INPUTS: only versions 5 and later have the input
      ensures RESHAPE_SHAPE_INPUT: RESHAPE_INPUTS: \result == ONNXSHAPE_OK;
    behavior rejected:
      assumes !(is_version(ONNXSHAPE_OP_RESHAPE, version) && version >= 5 &&
                type == ONNXSHAPE_TYPE_INT64 && rank == 1);
      ensures RESHAPE_SHAPE_INPUT: RESHAPE_INPUTS: \result != ONNXSHAPE_OK;
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_reshape_check_shape_input(int version, int32_t type, size_t rank,
                                                     onnxshape_diag *diag);

/**
 * Run Reshape as a zero-copy view: @p out gets @p data's data pointer and
 * byte count and the resolved dims, which are written to @p out_dims (so
 * out->dims == out_dims). Nothing is copied; @p out borrows @p data's memory.
 * @return as onnxshape_reshape_infer, plus ONNXSHAPE_ERR_DATA_SIZE when
 *         data->data_bytes is smaller than the input's dims need.
 */
/*@
    requires reshape_run_memory(data, shape, shape_len, attrs, out_dims, out_capacity, out, diag);
    assigns out_dims[0 .. out_capacity - 1], *out, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first rule it breaks, in
    // semantics.md's order, or OK.
    ensures ERROR_ORDER: \result == reshape_run_status{Pre}(version, data, shape, shape_len, attrs,
                                     out_dims, out_capacity, out, 0, \null, 0);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes reshape_run_status(version, data, shape, shape_len, attrs, out_dims, out_capacity,
                                 out, 0, \null, 0) == ONNXSHAPE_OK;
      ensures RESHAPE_INFER: RESHAPE_ZERO_COPY: RESHAPE_LITERAL: RESHAPE_COUNT: RESHAPE_SCALAR:
              \result == ONNXSHAPE_OK &&
              reshape_accepts{Pre,Post}(shape, shape_len, \at(data->dims, Pre),
                                        \at(data->rank, Pre), \at(allowzero_of(attrs), Pre),
                                        out_dims);
      // RESHAPE-DATA-UNCHANGED: the same bytes under the new dims.
      ensures RESHAPE_VIEW: RESHAPE_DATA_UNCHANGED:
              out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
              out->data == data->data && out->data_bytes == \old(data_need(data)) &&
              out->data_bytes <= data->data_bytes;
      ensures KERNEL_RESULT_ONLY: \forall integer k; shape_len <= k < out_capacity ==>
              out_dims[k] == \old(out_dims[k]);
    behavior rejected:
      assumes reshape_run_status(version, data, shape, shape_len, attrs, out_dims, out_capacity,
                                 out, 0, \null, 0) != ONNXSHAPE_OK;
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK &&
              (out_dims != \null ==> \forall integer k; 0 <= k < out_capacity ==>
                 out_dims[k] == \old(out_dims[k])) &&
              (out != \null ==> *out == \old(*out));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_reshape_run_view(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity,
                                            onnxshape_tensor *out, onnxshape_diag *diag);

/**
 * Run Reshape as a copy into @p dst: the storage bytes of @p data (packed
 * sub-byte elements and string (pointer, length) pairs alike) are copied
 * unchanged, since Reshape keeps row-major order. @p out describes the result
 * (out->data == dst). String bytes are not duplicated (see ::onnxshape_string).
 * @p dst may overlap data->data (the bytes are moved as by memmove).
 * @param[out] dst          destination storage
 * @param[in]  dst_capacity bytes @p dst can hold; query the need with
 *                          onnxshape_type_storage_bytes()
 * @return as onnxshape_reshape_run_view, plus ONNXSHAPE_ERR_BUFFER_TOO_SMALL
 *         when dst_capacity is too small (like every error, it leaves
 *         out_dims, out and dst untouched).
 */
/*@
    requires reshape_run_memory(data, shape, shape_len, attrs, out_dims, out_capacity, out, diag);
    requires dst == \null || \valid((char *)dst + (0 .. dst_capacity - 1));
    requires data != \null && data->data != \null ==>
             \valid_read((char *)data->data + (0 .. data->data_bytes - 1));
    requires data != \null && data->data != \null ==>
             \separated((char *)data->data + (0 .. data->data_bytes - 1), diag);
    requires dst != \null ==>
             \separated((char *)dst + (0 .. dst_capacity - 1),
               out_dims + (0 .. out_capacity - 1)) &&
             \separated((char *)dst + (0 .. dst_capacity - 1), out) &&
             \separated((char *)dst + (0 .. dst_capacity - 1), data) &&
             \separated((char *)dst + (0 .. dst_capacity - 1), attrs) &&
             \separated((char *)dst + (0 .. dst_capacity - 1), diag) &&
             \separated((char *)dst + (0 .. dst_capacity - 1), shape + (0 .. shape_len - 1));
    requires dst != \null && data != \null && data->rank > 0 && data->dims != \null ==>
             \separated((char *)dst + (0 .. dst_capacity - 1), data->dims + (0 .. data->rank - 1));
    assigns out_dims[0 .. out_capacity - 1], *out, ((char *)dst)[0 .. dst_capacity - 1],
            diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // Every input has exactly one status: the first rule it breaks, in
    // semantics.md's order, or OK.
    ensures ERROR_ORDER: \result == reshape_run_status{Pre}(version, data, shape, shape_len, attrs,
                                     out_dims, out_capacity, out, 1, (char *)dst, dst_capacity);
    ensures DIAG_STATE: \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures DIAG_STATE: \result != ONNXSHAPE_OK ==> diag_failed(diag);
    behavior accepted:
      assumes reshape_run_status(version, data, shape, shape_len, attrs, out_dims, out_capacity,
                                 out, 1, (char *)dst, dst_capacity) == ONNXSHAPE_OK;
      ensures RESHAPE_INFER: RESHAPE_ZERO_COPY: RESHAPE_LITERAL: RESHAPE_COUNT: RESHAPE_SCALAR:
              \result == ONNXSHAPE_OK &&
              reshape_accepts{Pre,Post}(shape, shape_len, \at(data->dims, Pre),
                                        \at(data->rank, Pre), \at(allowzero_of(attrs), Pre),
                                        out_dims);
      // RESHAPE-DATA-UNCHANGED: the bytes, moved unchanged (dst may overlap
      // the data, as with memmove).
      ensures RESHAPE_COPY: RESHAPE_DATA_UNCHANGED:
              out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
              out->data == dst && out->data_bytes == \old(data_need(data)) &&
              out->data_bytes <= dst_capacity;
      ensures RESHAPE_COPY: RESHAPE_DATA_UNCHANGED:
              \forall integer k; 0 <= k < out->data_bytes ==>
                ((char *)dst)[k] == \at(((char *)data->data)[k], Pre);
      ensures KERNEL_RESULT_ONLY: \forall integer k; shape_len <= k < out_capacity ==>
              out_dims[k] == \old(out_dims[k]);
      ensures KERNEL_RESULT_ONLY: dst != \null ==>
              \forall integer k; out->data_bytes <= k < dst_capacity ==>
                ((char *)dst)[k] == \old(((char *)dst)[k]);
    behavior rejected:
      assumes reshape_run_status(version, data, shape, shape_len, attrs, out_dims, out_capacity,
                                 out, 1, (char *)dst, dst_capacity) != ONNXSHAPE_OK;
      ensures KERNEL_UNTOUCHED_ON_ERROR: \result != ONNXSHAPE_OK &&
              (out_dims != \null ==> \forall integer k; 0 <= k < out_capacity ==>
                 out_dims[k] == \old(out_dims[k])) &&
              (out != \null ==> *out == \old(*out)) &&
              (dst != \null ==> \forall integer k; 0 <= k < dst_capacity ==>
                 ((char *)dst)[k] == \old(((char *)dst)[k]));
    complete behaviors;
    disjoint behaviors;
*/
ONNXSHAPE_API onnxshape_status onnxshape_reshape_run_copy(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity, void *dst,
                                            size_t dst_capacity, onnxshape_tensor *out,
                                            onnxshape_diag *diag);
/** @} */


#ifdef __cplusplus
}
#endif

#endif /* ONNXSHAPE_KERNELS_H */
