/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file onnxshape.h
 * @brief The one public header of onnxshape: the ONNX operators Shape,
 *        Reshape and Size, in every operator version and for every element
 *        type, as kernels that never allocate.
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
#ifndef ONNXSHAPE_H
#define ONNXSHAPE_H

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
#define ONNXSHAPE_VERSION_MINOR 1
#define ONNXSHAPE_VERSION_PATCH 0
#define ONNXSHAPE_VERSION_STRING "0.1.0"

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
#define ONNXSHAPE_X_ENUM(name, value, text) ONNXSHAPE_##name = value,
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
 * @c message, truncated to fit.
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

/* ------------------------------------------------------------------------ */
/* Formal specification.
 *
 * The kernel declarations below carry ACSL contracts (the comments that begin
 * with an at sign). Compilers read them as comments; `make prove` has Frama-C
 * WP prove every one of them against the code, together with the absence of
 * run-time errors (docs/proofs.md). This block defines the mathematics the
 * contracts use; ACSL integers are unbounded, so a product here never wraps.
 * Comments in capitals are the requirement identifiers of
 * docs/requirements.md that a definition or clause states. */
/*@
  // ---- Element counts ----------------------------------------------------

  // dims_prod(d, n): the product of d[0 .. n-1]; 1 for n = 0.
  axiomatic DimsProd {
    logic integer dims_prod{L}(int64_t *d, integer n) reads d[0 .. n - 1];
    axiom dims_prod_empty{L}:
      \forall int64_t *d, integer n; n <= 0 ==> dims_prod(d, n) == 1;
    axiom dims_prod_step{L}:
      \forall int64_t *d, integer n;
        n > 0 ==> dims_prod(d, n) == dims_prod(d, n - 1) * d[n - 1];
  }
  // A product past INT64_MAX stays past it when multiplied by a factor >= 1.
  lemma prod_past_max: \forall integer a, b; a > INT64_MAX && b >= 1 ==> a * b > INT64_MAX;

  predicate all_nonneg{L}(int64_t *d, integer n) = \forall integer k; 0 <= k < n ==> d[k] >= 0;
  predicate has_zero{L}(int64_t *d, integer n) = \exists integer k; 0 <= k < n && d[k] == 0;

  // DIMS-COUNT, SIZE-ZERO-FIRST: the element count of dims d[0 .. r-1]: 0
  // when a dim is 0 (whatever the others), else the product of the dims.
  axiomatic ElemCount {
    logic integer elem_count{L}(int64_t *d, integer r) reads d[0 .. r - 1];
    axiom elem_count_zero{L}:
      \forall int64_t *d, integer r; has_zero(d, r) ==> elem_count(d, r) == 0;
    axiom elem_count_prod{L}:
      \forall int64_t *d, integer r; !has_zero(d, r) ==> elem_count(d, r) == dims_prod(d, r);
  }

  // TYPE-TABLE: bits per element of each TensorProto type (0: string).
  logic integer type_bits(integer t) =
    t == ONNXSHAPE_TYPE_FLOAT ? 32 : t == ONNXSHAPE_TYPE_UINT8 ? 8 : t == ONNXSHAPE_TYPE_INT8 ? 8 :
    t == ONNXSHAPE_TYPE_UINT16 ? 16 : t == ONNXSHAPE_TYPE_INT16 ? 16 :
    t == ONNXSHAPE_TYPE_INT32 ? 32 : t == ONNXSHAPE_TYPE_INT64 ? 64 :
    t == ONNXSHAPE_TYPE_STRING ? 0 : t == ONNXSHAPE_TYPE_BOOL ? 8 :
    t == ONNXSHAPE_TYPE_FLOAT16 ? 16 : t == ONNXSHAPE_TYPE_DOUBLE ? 64 :
    t == ONNXSHAPE_TYPE_UINT32 ? 32 : t == ONNXSHAPE_TYPE_UINT64 ? 64 :
    t == ONNXSHAPE_TYPE_COMPLEX64 ? 64 : t == ONNXSHAPE_TYPE_COMPLEX128 ? 128 :
    t == ONNXSHAPE_TYPE_BFLOAT16 ? 16 : t == ONNXSHAPE_TYPE_FLOAT8E4M3FN ? 8 :
    t == ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ ? 8 : t == ONNXSHAPE_TYPE_FLOAT8E5M2 ? 8 :
    t == ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ ? 8 : t == ONNXSHAPE_TYPE_UINT4 ? 4 :
    t == ONNXSHAPE_TYPE_INT4 ? 4 : t == ONNXSHAPE_TYPE_FLOAT4E2M1 ? 4 :
    t == ONNXSHAPE_TYPE_FLOAT8E8M0 ? 8 : t == ONNXSHAPE_TYPE_UINT2 ? 2 : 2;
  predicate is_type(integer t) = 1 <= t <= ONNXSHAPE_TYPE_LAST;

  // STORAGE-BYTES: bytes of n elements of a type of b bits per element
  // (b = 0: strings, one onnxshape_string each); sub-byte types pack, and a
  // partial last byte counts whole.
  logic integer storage_bytes(integer b, integer n) =
    b == 0 ? n * sizeof(onnxshape_string) : (n * b + 7) / 8;

  // A diagnostic is either absent or a whole, writable onnxshape_diag.
  predicate diag_ok(onnxshape_diag *diag) = diag == \null || \valid(diag);
*/

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
    ensures !is_type(type) ==> \result == ONNXSHAPE_ERR_UNKNOWN_TYPE;
    ensures is_type(type) && (bytes == \null || count < 0) ==>
            \result == ONNXSHAPE_ERR_INVALID_ARGUMENT;
    // STORAGE-BYTES
    ensures \result == ONNXSHAPE_OK ==> *bytes == storage_bytes(type_bits(type), count);
    ensures \result == ONNXSHAPE_ERR_OVERFLOW ==> storage_bytes(type_bits(type), count) > SIZE_MAX;
    ensures is_type(type) && bytes != \null && count >= 0 &&
            storage_bytes(type_bits(type), count) <= SIZE_MAX ==> \result == ONNXSHAPE_OK;
    ensures \result != ONNXSHAPE_OK && bytes != \null ==> *bytes == \old(*bytes);
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ||
            \result == ONNXSHAPE_ERR_INVALID_ARGUMENT || \result == ONNXSHAPE_ERR_OVERFLOW;
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_TYPE <==> !is_type(type);
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==> bytes == \null || count < 0;
*/
ONNXSHAPE_API onnxshape_status onnxshape_type_storage_bytes(int32_t type, int64_t count, size_t *bytes);
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

/*@
  // ---- Operator versions and element types ------------------------------

  // OPSET-VERSIONS: the since_versions of each operator.
  predicate is_version(integer op, integer v) =
    (op == ONNXSHAPE_OP_SHAPE &&
       (v == 1 || v == 13 || v == 15 || v == 19 || v == 21 || v == 23 || v == 24 || v == 25)) ||
    (op == ONNXSHAPE_OP_RESHAPE &&
       (v == 1 || v == 5 || v == 13 || v == 14 || v == 19 || v == 21 || v == 23 || v == 24 ||
        v == 25)) ||
    (op == ONNXSHAPE_OP_SIZE &&
       (v == 1 || v == 13 || v == 19 || v == 21 || v == 23 || v == 24 || v == 25));

  // TYPE-SET: a version accepts the types 1 .. last_type(version);
  // TYPE-SET-RESHAPE1: Reshape-1 accepts float (1), float16 (10), double (11).
  logic integer last_type(integer v) =
    v >= 25 ? 26 : v >= 24 ? 24 : v >= 23 ? 23 : v >= 21 ? 22 : v >= 19 ? 20 :
    v >= 13 ? 16 : 15;
  predicate type_allowed(integer op, integer v, integer t) =
    op == ONNXSHAPE_OP_RESHAPE && v == 1 ? t == 1 || t == 10 || t == 11
                                         : 1 <= t <= last_type(v);
*/

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
    // OPSET-VERSIONS, TYPE-SET, TYPE-SET-RESHAPE1
    ensures \result == ONNXSHAPE_OK <==> is_version(op, version) && type_allowed(op, version, type);
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_UNKNOWN_OPERATOR ||
            \result == ONNXSHAPE_ERR_UNKNOWN_VERSION || \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ||
            \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED;
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
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT <==>
            count == \null || (dims == \null && rank > 0);
    // DIMS-COUNT, SIZE-ZERO-FIRST
    ensures \result == ONNXSHAPE_OK ==>
            all_nonneg(dims, rank) && *count == \old(elem_count(dims, rank));
    ensures \result == ONNXSHAPE_ERR_NEGATIVE_DIM ==> !all_nonneg(dims, rank);
    // SIZE-OVERFLOW
    ensures \result == ONNXSHAPE_ERR_OVERFLOW ==>
            all_nonneg(dims, rank) && \old(elem_count(dims, rank)) > INT64_MAX;
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ||
            \result == ONNXSHAPE_ERR_NEGATIVE_DIM || \result == ONNXSHAPE_ERR_OVERFLOW;
    ensures \result != ONNXSHAPE_OK && count != \null ==> *count == \old(*count);
*/
ONNXSHAPE_API onnxshape_status onnxshape_dims_count(const int64_t *dims, size_t rank, int64_t *count);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Tensors
 * @{ */

/**
 * A tensor as the kernels see it: borrowed dims and data, row-major,
 * little-endian, packed for sub-byte types, an array of ::onnxshape_string
 * for strings.
 */
typedef struct onnxshape_tensor {
  int32_t type;          /**< element type (::onnxshape_type) */
  size_t rank;           /**< number of dims; 0 for a scalar */
  const int64_t *dims;   /**< rank entries, each >= 0 (may be NULL if rank is 0) */
  const void *data;      /**< storage; may be NULL only if it needs 0 bytes */
  size_t data_bytes;     /**< bytes readable at data */
} onnxshape_tensor;
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Shape
 * Output: a 1-D int64 tensor holding dims[s:e], where s and e are start and
 * end after adding the rank to negative values and clamping to [0, rank];
 * empty when s >= e.
 * @{ */

/** Attributes of Shape. Versions 1 and 13 accept none. */
typedef struct onnxshape_shape_attrs {
  int has_start;  /**< 1 if the start attribute is set (Shape-15 and later) */
  int64_t start;  /**< default 0 */
  int has_end;    /**< 1 if the end attribute is set (Shape-15 and later) */
  int64_t end;    /**< default: the rank */
} onnxshape_shape_attrs;

/*@
  // ---- Shape ---------------------------------------------------------------

  // SHAPE-CLAMP: a negative axis counts from the back, then it is clamped
  // to [0, r].
  logic integer clamp_axis(integer a, integer r) =
    a < 0 ? (a + r < 0 ? 0 : a + r) : (a > r ? r : a);
  // SHAPE-DEFAULTS: start defaults to 0 and end to the rank.
  logic integer shape_start{L}(onnxshape_shape_attrs *a, integer r) =
    clamp_axis(a != \null && a->has_start ? a->start : 0, r);
  logic integer shape_end{L}(onnxshape_shape_attrs *a, integer r) =
    clamp_axis(a != \null && a->has_end ? a->end : r, r);
  // SHAPE-OUTPUT, SHAPE-EMPTY: the output holds dims[start .. end-1], and
  // nothing when start >= end.
  logic integer shape_len{L}(onnxshape_shape_attrs *a, integer r) =
    shape_start(a, r) < shape_end(a, r) ? shape_end(a, r) - shape_start(a, r) : 0;
  // SHAPE-ATTRS-VERSION: start and end exist from Shape-15 on.
  predicate shape_attrs_set{L}(onnxshape_shape_attrs *a) =
    a != \null && (a->has_start != 0 || a->has_end != 0);
*/

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
    // SHAPE-OUTPUT, SHAPE-CLAMP, SHAPE-DEFAULTS, SHAPE-EMPTY, SHAPE-SCALAR
    ensures \result == ONNXSHAPE_OK ==>
            is_version(ONNXSHAPE_OP_SHAPE, version) &&
            type_allowed(ONNXSHAPE_OP_SHAPE, version, type) &&
            *length == shape_len(attrs, rank);
    // SHAPE-ATTRS-VERSION
    ensures \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE ==> version < 15 && shape_attrs_set(attrs);
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==> length == \null || rank > INT64_MAX;
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_VERSION ==> !is_version(ONNXSHAPE_OP_SHAPE, version);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ==> !is_type(type);
    ensures \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ==> !type_allowed(ONNXSHAPE_OP_SHAPE,
            version, type);
    ensures \result != ONNXSHAPE_OK && length != \null ==> *length == \old(*length);
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
    // SHAPE-OUTPUT, SHAPE-CLAMP, SHAPE-DEFAULTS, SHAPE-EMPTY, SHAPE-SCALAR
    ensures \result == ONNXSHAPE_OK ==>
            is_version(ONNXSHAPE_OP_SHAPE, version) &&
            type_allowed(ONNXSHAPE_OP_SHAPE, version, data->type) &&
            all_nonneg(data->dims, data->rank);
    ensures \result == ONNXSHAPE_OK ==> *length == shape_len(attrs, data->rank);
    ensures \result == ONNXSHAPE_OK ==>
            \forall integer k; 0 <= k < *length ==>
              out[k] == data->dims[shape_start(attrs, data->rank) + k];
    // SHAPE-ATTRS-VERSION
    ensures \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE ==> version < 15 && shape_attrs_set(attrs);
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            data == \null || length == \null || (data->dims == \null && data->rank > 0) ||
            data->rank > INT64_MAX;
    ensures \result == ONNXSHAPE_ERR_NEGATIVE_DIM ==> !all_nonneg(data->dims, data->rank);
    // KERNEL-CAPACITY
    ensures \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL ==>
            shape_len(attrs, data->rank) > 0 &&
            (out == \null || shape_len(attrs, data->rank) > out_capacity);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_VERSION ==> !is_version(ONNXSHAPE_OP_SHAPE, version);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ==> !is_type(data->type);
    ensures \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ==> !type_allowed(ONNXSHAPE_OP_SHAPE,
            version, data->type);
    // KERNEL-UNTOUCHED-ON-ERROR
    ensures \result != ONNXSHAPE_OK && out != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out[k] == \old(out[k]);
    ensures \result != ONNXSHAPE_OK && length != \null ==> *length == \old(*length);
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
    // OPSET-VERSIONS TYPE-SET SIZE-OUTPUT
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_OK <==>
            is_version(ONNXSHAPE_OP_SIZE, version) &&
            type_allowed(ONNXSHAPE_OP_SIZE, version, type);
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
    // SIZE-OUTPUT, SIZE-ZERO-FIRST, DIMS-COUNT
    ensures \result == ONNXSHAPE_OK ==>
            is_version(ONNXSHAPE_OP_SIZE, version) &&
            type_allowed(ONNXSHAPE_OP_SIZE, version, data->type) &&
            all_nonneg(data->dims, data->rank) && *out == \old(elem_count(data->dims, data->rank));
    // SIZE-OVERFLOW
    ensures \result == ONNXSHAPE_ERR_OVERFLOW ==>
            all_nonneg(data->dims, data->rank) &&
            \old(elem_count(data->dims, data->rank)) > INT64_MAX;
    ensures \result == ONNXSHAPE_ERR_NEGATIVE_DIM ==> !all_nonneg(data->dims, data->rank);
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            data == \null || out == \null || (data->dims == \null && data->rank > 0);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_VERSION ==> !is_version(ONNXSHAPE_OP_SIZE, version);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ==> !is_type(data->type);
    ensures \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ==> !type_allowed(ONNXSHAPE_OP_SIZE,
            version, data->type);
    ensures \result != ONNXSHAPE_OK && out != \null ==> *out == \old(*out);
*/
ONNXSHAPE_API onnxshape_status onnxshape_size_run(int version, const onnxshape_tensor *data, int64_t *out,
                                    onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Reshape
 * @{ */

/** Attributes of Reshape. */
typedef struct onnxshape_reshape_attrs {
  int has_allowzero; /**< 1 if allowzero is set (Reshape-14 and later) */
  int64_t allowzero; /**< 0 (default) or 1 */
} onnxshape_reshape_attrs;

/*@
  // ---- Reshape -------------------------------------------------------------

  // RESHAPE-ALLOWZERO-VALUES: the allowzero in effect (default 0).
  logic integer allowzero_of{L}(onnxshape_reshape_attrs *a) =
    a != \null && a->has_allowzero ? a->allowzero : 0;
  // RESHAPE-ZERO-COPY, RESHAPE-ZERO-LITERAL, RESHAPE-LITERAL: what shape[i]
  // stands for before the -1 is inferred.
  logic integer target_dim{L}(int64_t *s, int64_t *d, integer az, integer i) =
    s[i] == 0 && az == 0 ? d[i] : s[i];
  // P: the product of the target dims of s[0 .. n-1] other than index x.
  axiomatic KnownProd {
    logic integer known_prod{L}(int64_t *s, int64_t *d, integer az, integer x, integer n)
      reads s[0 .. n - 1], d[0 .. n - 1];
    axiom known_prod_empty{L}:
      \forall int64_t *s, *d, integer az, x, n; n <= 0 ==> known_prod(s, d, az, x, n) == 1;
    axiom known_prod_step{L}:
      \forall int64_t *s, *d, integer az, x, n; n > 0 ==>
        known_prod(s, d, az, x, n) ==
        known_prod(s, d, az, x, n - 1) * (n - 1 == x ? 1 : target_dim(s, d, az, n - 1));
  }
  predicate below_minus_one{L}(int64_t *s, integer n) = \exists integer k; 0 <= k < n && s[k] < -1;
  predicate has_minus_one{L}(int64_t *s, integer n) = \exists integer k; 0 <= k < n && s[k] == -1;
  predicate two_minus_one{L}(int64_t *s, integer n) =
    \exists integer i, j; 0 <= i < j < n && s[i] == -1 && s[j] == -1;
  predicate zero_past_rank{L}(int64_t *s, integer n, integer rank) =
    \exists integer k; rank <= k < n && s[k] == 0;
  predicate has_zero_target{L}(int64_t *s, integer n) = \exists integer k; 0 <= k < n && s[k] == 0;

  // The value-by-value rules: RESHAPE-BELOW-MINUS-ONE, RESHAPE-ONE-INFERRED,
  // RESHAPE-ZERO-COPY-RANGE (without allowzero) and RESHAPE-ALLOWZERO-INFERRED.
  predicate targets_ok{L}(int64_t *s, integer n, integer rank, integer az) =
    !below_minus_one(s, n) && !two_minus_one(s, n) &&
    (az == 0 ==> !zero_past_rank(s, n, rank)) &&
    !(az == 1 && has_zero_target(s, n) && has_minus_one(s, n));

  // The output dims o of a successful Reshape of c elements:
  // RESHAPE-ZERO-COPY, RESHAPE-ZERO-LITERAL, RESHAPE-LITERAL: every value but
  // -1 becomes its target dim;
  // RESHAPE-INFER, RESHAPE-INFER-ZERO, RESHAPE-INFER-DIVISIBLE: the -1
  // becomes c / P, where P != 0 divides c;
  // RESHAPE-COUNT, RESHAPE-SCALAR: without a -1, P is c (for an empty target,
  // P = 1: a scalar).
  // The inputs s and d are read at label I (the call), the output o at O.
  predicate reshape_dims{I,O}(int64_t *s, integer n, int64_t *d, integer az, int64_t *o,
                              integer c) =
    (\forall integer k; 0 <= k < n && \at(s[k], I) != -1 ==>
       \at(o[k], O) == \at(target_dim(s, d, az, k), I)) &&
    (\forall integer k; 0 <= k < n && \at(s[k], I) == -1 ==>
       \at(known_prod(s, d, az, k, n), I) != 0 && c % \at(known_prod(s, d, az, k, n), I) == 0 &&
       \at(o[k], O) == c / \at(known_prod(s, d, az, k, n), I)) &&
    (\at(!has_minus_one(s, n), I) ==> \at(known_prod(s, d, az, -1, n), I) == c);

  // A successful Reshape of data dims d[0 .. r-1] to target s[0 .. n-1]
  // with allowzero az: the data count fits (DIMS-COUNT), every target rule
  // holds, and o holds the output dims.
  predicate reshape_accepts{I,O}(int64_t *s, integer n, int64_t *d, integer r, integer az,
                                 int64_t *o) =
    \at(all_nonneg(d, r), I) && \at(elem_count(d, r), I) <= INT64_MAX &&
    \at(targets_ok(s, n, r, az), I) &&
    reshape_dims{I,O}(s, n, d, az, o, \at(elem_count(d, r), I));

  // Each error status st of Reshape's rules is returned only when its rule
  // is broken.
  predicate reshape_rejects{L}(integer st, int64_t *s, integer n, int64_t *d, integer r,
                               integer az) =
    (st == ONNXSHAPE_ERR_NEGATIVE_DIM ==> !all_nonneg(d, r)) &&
    (st == ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE ==> below_minus_one(s, n)) &&
    (st == ONNXSHAPE_ERR_MULTIPLE_INFERRED ==> two_minus_one(s, n)) &&
    (st == ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE ==> az == 0 && zero_past_rank(s, n, r)) &&
    (st == ONNXSHAPE_ERR_ZERO_WITH_INFERRED ==>
       az == 1 && has_zero_target(s, n) && has_minus_one(s, n)) &&
    (st == ONNXSHAPE_ERR_INFERRED_FROM_ZERO ==>
       \exists integer k; 0 <= k < n && s[k] == -1 && known_prod(s, d, az, k, n) == 0) &&
    (st == ONNXSHAPE_ERR_NOT_DIVISIBLE ==>
       \exists integer k; 0 <= k < n && s[k] == -1 && known_prod(s, d, az, k, n) != 0 &&
         elem_count(d, r) % known_prod(s, d, az, k, n) != 0) &&
    (st == ONNXSHAPE_ERR_COUNT_MISMATCH ==>
       !has_minus_one(s, n) && known_prod(s, d, az, -1, n) != elem_count(d, r));

  // RESHAPE-OVERFLOW: the data count overflows, or the product of the target
  // dims does where no output could satisfy RESHAPE-COUNT or
  // RESHAPE-INFER-DIVISIBLE.
  predicate reshape_overflows{L}(int64_t *s, integer n, int64_t *d, integer r, integer az) =
    elem_count(d, r) > INT64_MAX ||
    (elem_count(d, r) != 0 || !has_minus_one(s, n)) &&
    \exists integer x; (x == -1 || (0 <= x < n && s[x] == -1)) &&
      known_prod(s, d, az, x, n) > INT64_MAX;
  // RESHAPE-ALLOWZERO-VERSION, RESHAPE-ALLOWZERO-VALUES, OPSET-VERSIONS,
  // TYPE-SET: the statuses of the checks made before any rule, each returned
  // only when its check fails.
  predicate reshape_entry{L}(integer st, integer version, integer type,
                             onnxshape_reshape_attrs *attrs) =
    (st == ONNXSHAPE_ERR_UNKNOWN_VERSION ==> !is_version(ONNXSHAPE_OP_RESHAPE, version)) &&
    (st == ONNXSHAPE_ERR_UNKNOWN_TYPE ==> !is_type(type)) &&
    (st == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ==> !type_allowed(ONNXSHAPE_OP_RESHAPE, version, type)) &&
    (st == ONNXSHAPE_ERR_INVALID_ATTRIBUTE ==> attrs != \null && attrs->has_allowzero &&
       (version < 14 || (attrs->allowzero != 0 && attrs->allowzero != 1)));

  // STORAGE-BYTES: the bytes the dims of tensor t need.
  logic integer data_need{L}(onnxshape_tensor *t) =
    storage_bytes(type_bits(t->type), elem_count(t->dims, t->rank));

  // The rules of a Reshape run on tensor data (inputs read at the call, Pre;
  // out_dims at the return, Post): on success the version, type, allowzero
  // and capacity were valid and every rule holds (reshape_accepts); each
  // rule's error only when that rule is broken (reshape_rejects, reshape_entry);
  // OVERFLOW only when a product or the byte count is too large
  // (RESHAPE-OVERFLOW, STORAGE-BYTES); DATA_SIZE only when the data holds
  // fewer bytes than its dims need (STORAGE-BYTES).
  predicate reshape_run_rules{Pre,Post}(integer st, integer version, onnxshape_tensor *data,
                                        int64_t *shape, integer shape_len,
                                        onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                        integer out_capacity) =
    (st == ONNXSHAPE_OK ==>
       \at(is_version(ONNXSHAPE_OP_RESHAPE, version) &&
           type_allowed(ONNXSHAPE_OP_RESHAPE, version, data->type) &&
           (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1), Pre) &&
       shape_len <= out_capacity &&
       reshape_accepts{Pre,Post}(shape, shape_len, \at(data->dims, Pre), \at(data->rank, Pre),
                                 \at(allowzero_of(attrs), Pre), out_dims)) &&
    \at(reshape_rejects(st, shape, shape_len, data->dims, data->rank, allowzero_of(attrs)), Pre) &&
    (st == ONNXSHAPE_ERR_OVERFLOW ==>
       \at(reshape_overflows(shape, shape_len, data->dims, data->rank, allowzero_of(attrs)) ||
           data_need(data) > SIZE_MAX, Pre)) &&
    (st == ONNXSHAPE_ERR_DATA_SIZE ==>
       \at(data_need(data) > 0 &&
           (data->data == \null || data_need(data) > data->data_bytes), Pre)) &&
    \at(reshape_entry(st, version, data->type, attrs), Pre);

  // The memory of the Reshape run kernels: each pointer null or valid, and
  // the outputs (out_dims, out) separated from the inputs and each other.
  predicate reshape_run_memory{L}(onnxshape_tensor *data, int64_t *shape, integer shape_len,
                                  onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                  integer out_capacity, onnxshape_tensor *out,
                                  onnxshape_diag *diag) =
    (data == \null || \valid_read(data)) &&
    (data != \null && data->rank > 0 && data->dims != \null ==>
       \valid_read(data->dims + (0 .. data->rank - 1))) &&
    (attrs == \null || \valid_read(attrs)) &&
    (out_dims == \null || \valid(out_dims + (0 .. out_capacity - 1))) &&
    (shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1))) &&
    shape_len < SIZE_MAX && diag_ok(diag) &&
    (out_dims != \null ==>
       \separated(out_dims + (0 .. out_capacity - 1), shape + (0 .. shape_len - 1)) &&
       \separated(out_dims + (0 .. out_capacity - 1), attrs) &&
       \separated(out_dims + (0 .. out_capacity - 1), diag)) &&
    (out_dims != \null && data != \null ==>
       \separated(out_dims + (0 .. out_capacity - 1), data) &&
       (data->rank == 0 || data->dims == \null ||
        \separated(out_dims + (0 .. out_capacity - 1), data->dims + (0 .. data->rank - 1)))) &&
    (out == \null || \valid(out)) &&
    (out != \null ==>
       \separated(out, data) && \separated(out, attrs) && \separated(out, diag) &&
       \separated(out, shape + (0 .. shape_len - 1))) &&
    (out != \null && out_dims != \null ==> \separated(out, out_dims + (0 .. out_capacity - 1))) &&
    (out != \null && data != \null && data->rank > 0 && data->dims != \null ==>
       \separated(out, data->dims + (0 .. data->rank - 1)));
*/

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
    ensures \result == ONNXSHAPE_OK ==>
            is_version(ONNXSHAPE_OP_RESHAPE, version) &&
            type_allowed(ONNXSHAPE_OP_RESHAPE, version, type) &&
            (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1) && shape_len <= out_capacity;
    ensures \result == ONNXSHAPE_OK ==>
            reshape_accepts{Pre,Post}(shape, shape_len, in_dims, in_rank,
                                      allowzero_of(attrs), out_dims);
    ensures reshape_rejects{Pre}(\result, shape, shape_len, in_dims, in_rank, allowzero_of(attrs));
    ensures \result == ONNXSHAPE_ERR_OVERFLOW ==>
            reshape_overflows{Pre}(shape, shape_len, in_dims, in_rank, allowzero_of(attrs));
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            (shape_len > 0 && (shape == \null || out_dims == \null)) ||
            (in_rank > 0 && in_dims == \null);
    // KERNEL-CAPACITY
    ensures \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL ==> out_capacity < shape_len;
    ensures reshape_entry(\result, version, type, attrs);
    // KERNEL-UNTOUCHED-ON-ERROR
    ensures \result != ONNXSHAPE_OK && out_dims != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
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
    // RESHAPE-SHAPE-INPUT; RESHAPE-INPUTS: only versions 5 and later have the input
    ensures \result == ONNXSHAPE_OK <==>
            is_version(ONNXSHAPE_OP_RESHAPE, version) && version >= 5 &&
            type == ONNXSHAPE_TYPE_INT64 && rank == 1;
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
    // Every rule of Reshape, each error only when its rule is broken.
    ensures reshape_run_rules{Pre,Post}(\result, version, data, shape, shape_len, attrs,
                                        out_dims, out_capacity);
    // RESHAPE-DATA-UNCHANGED, RESHAPE-VIEW: the same bytes under the new dims.
    ensures \result == ONNXSHAPE_OK ==>
            out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
            out->data == data->data && out->data_bytes == \old(data_need(data)) &&
            out->data_bytes <= data->data_bytes;
    // KERNEL-CAPACITY
    ensures \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL ==> out_capacity < shape_len;
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            data == \null || out == \null ||
            (shape_len > 0 && (shape == \null || out_dims == \null)) ||
            (data->rank > 0 && data->dims == \null);
    // KERNEL-UNTOUCHED-ON-ERROR
    ensures \result != ONNXSHAPE_OK && out_dims != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
    ensures \result != ONNXSHAPE_OK && out != \null ==> *out == \old(*out);
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
    // Every rule of Reshape, each error only when its rule is broken.
    ensures reshape_run_rules{Pre,Post}(\result, version, data, shape, shape_len, attrs,
                                        out_dims, out_capacity);
    // RESHAPE-DATA-UNCHANGED, RESHAPE-COPY: the bytes, moved unchanged
    // (dst may overlap the data, as with memmove).
    ensures \result == ONNXSHAPE_OK ==>
            out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
            out->data == dst && out->data_bytes == \old(data_need(data)) &&
              out->data_bytes <= dst_capacity;
    ensures \result == ONNXSHAPE_OK ==>
            \forall integer k; 0 <= k < out->data_bytes ==>
              ((char *)dst)[k] == \at(((char *)data->data)[k], Pre);
    // KERNEL-CAPACITY
    ensures \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL ==>
            out_capacity < shape_len || (\old(data_need(data)) > 0 && (dst == \null ||
              \old(data_need(data)) > dst_capacity));
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            data == \null || out == \null ||
            (shape_len > 0 && (shape == \null || out_dims == \null)) ||
            (data->rank > 0 && data->dims == \null);
    // KERNEL-UNTOUCHED-ON-ERROR
    ensures \result != ONNXSHAPE_OK && out_dims != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
    ensures \result != ONNXSHAPE_OK && out != \null ==> *out == \old(*out);
    ensures \result != ONNXSHAPE_OK && dst != \null ==>
            \forall integer k; 0 <= k < dst_capacity ==> ((char *)dst)[k] == \old(((char *)dst)[k]);
*/
ONNXSHAPE_API onnxshape_status onnxshape_reshape_run_copy(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity, void *dst,
                                            size_t dst_capacity, onnxshape_tensor *out,
                                            onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Tensor files (TensorProto)
 * These functions allocate; the kernels above never do.
 * @{ */

/** A tensor with its own storage, decoded from a TensorProto. */
typedef struct onnxshape_owned_tensor onnxshape_owned_tensor;

/**
 * Read a serialized TensorProto file. Every storage form is accepted:
 * raw_data, the typed fields (float_data, double_data, int32_data, int64_data,
 * uint64_data, string_data) and external data (location/offset/length/
 * checksum, each at most once, opened beneath the directory of @p path: no
 * absolute location, `..` or symbolic link; mapped with mmap).
 * Validated before use: known data_type, no negative dims, an element count
 * that fits int64, a payload exactly matching the dims, strings never in
 * raw_data, each typed value in its type's range.
 *
 * @p path must be a regular file (a FIFO or device is refused at once,
 * without blocking). A file under 64 KiB is read into memory; a larger one is
 * mapped and its raw_data used in place, so its data stays backed by the
 * file: see onnxshape_owned_tensor_check_file(). Decoding takes at most 15
 * times the file's size plus 56 MiB of memory (ONNXSHAPE_ERR_OUT_OF_MEMORY
 * past that, with a message naming the limit).
 * @param[out] out the tensor; free it with onnxshape_owned_tensor_free()
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO (cannot open or read, not a regular
 *         file, changed while read); ONNXSHAPE_ERR_MALFORMED (not a
 *         TensorProto); ONNXSHAPE_ERR_INVALID_TENSOR; ONNXSHAPE_ERR_OVERFLOW;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY; ONNXSHAPE_ERR_INVALID_ARGUMENT.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_read_file(const char *path,
                                                         onnxshape_owned_tensor **out,
                                                         onnxshape_diag *diag);

/** As onnxshape_tensor_read_file(), from @p len bytes in memory. External data
 *  resolves inside @p base_dir, or is rejected when @p base_dir is NULL. */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_parse(const void *bytes, size_t len,
                                                     const char *base_dir,
                                                     onnxshape_owned_tensor **out,
                                                     onnxshape_diag *diag);

/** @return the tensor for the kernels (valid until the owner is freed). */
ONNXSHAPE_API const onnxshape_tensor *onnxshape_owned_tensor_get(const onnxshape_owned_tensor *t);

/** @return the TensorProto's name ("" when it has none). */
ONNXSHAPE_API const char *onnxshape_owned_tensor_name(const onnxshape_owned_tensor *t);

/** Free @p t and everything it owns. NULL is allowed. */
ONNXSHAPE_API void onnxshape_owned_tensor_free(onnxshape_owned_tensor *t);

/**
 * Check that the file @p t maps (a large raw_data used in place, or external
 * data) still has the size and modification time it had when it was
 * mapped. A tensor that maps no file always passes.
 *
 * Mapped data belongs to a file another process can change: if the file
 * shrinks, reading the mapped bytes raises SIGBUS. onnxshape installs no
 * signal handler (the onnxshape command does, around its own reads; see
 * docs/cli.md, "Safety of files and output"); a caller that cannot exclude
 * such changes checks here, after using the data, whether what it read was
 * the file's content.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO naming the file when it changed;
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT.
 */
ONNXSHAPE_API onnxshape_status onnxshape_owned_tensor_check_file(const onnxshape_owned_tensor *t,
                                                                onnxshape_diag *diag);

/**
 * Write @p t as a serialized TensorProto named @p name: raw_data for every
 * type but string, string_data for strings. The file is written to a
 * temporary file with a unique name in the same directory and renamed, so it
 * is never seen half-written (a process killed meanwhile leaves the
 * temporary `.onnxshape-XXXXXX` behind; `onnxshape run -o` removes its own
 * on SIGINT and SIGTERM). Data that lies in a mapped file (a tensor read
 * with onnxshape_tensor_read_file()) is copied from the file, not through
 * the mapping; a file that changed meanwhile is ONNXSHAPE_ERR_IO.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_UNKNOWN_TYPE;
 *         ONNXSHAPE_ERR_DATA_SIZE; ONNXSHAPE_ERR_OVERFLOW; ONNXSHAPE_ERR_IO;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_file(const char *path, const char *name,
                                                          const onnxshape_tensor *t,
                                                          onnxshape_diag *diag);

/**
 * As onnxshape_tensor_write_file(), into the open file @p fd (at its current
 * position; the caller creates, names, syncs and closes it): for callers
 * that write several files all or nothing, as `onnxshape run -o` does.
 * @param[in] shown the file's name for messages, or NULL
 * @return as onnxshape_tensor_write_file().
 */
ONNXSHAPE_API onnxshape_status onnxshape_tensor_write_fd(int fd, const char *shown, const char *name,
                                                        const onnxshape_tensor *t,
                                                        onnxshape_diag *diag);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name Models
 * @{ */

/** A loaded and checked ONNX model (ModelProto). */
typedef struct onnxshape_model onnxshape_model;

/**
 * Read and check an ONNX model: the default-domain opset (1 to
 * ONNXSHAPE_MAX_OPSET), initializers, graph inputs and outputs, and every node
 * in file order. @p path must be a regular file; it is read into memory
 * whole, and external data opens beneath its directory (see
 * onnxshape_tensor_read_file()). Decoding and loading take at most 15 times
 * the file's size plus 56 MiB of memory. Supported operators: Shape, Reshape, Size (all versions),
 * Constant and Identity. Rejected, with a message naming the node and rule:
 * a node input not produced earlier, an unknown operator or domain, an
 * attribute not defined for the resolved version, a missing required
 * attribute, a wrong attribute type, a wrong input or output count, a name
 * produced twice.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_IO; ONNXSHAPE_ERR_MALFORMED;
 *         ONNXSHAPE_ERR_INVALID_MODEL; ONNXSHAPE_ERR_UNSUPPORTED_OPSET;
 *         ONNXSHAPE_ERR_UNKNOWN_OPERATOR; ONNXSHAPE_ERR_INVALID_ATTRIBUTE;
 *         ONNXSHAPE_ERR_INVALID_TENSOR (an initializer or Constant value);
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY (also past the memory limit).
 * An initializer that gives a graph input its default value must have the
 * input's declared type, rank and numeric dims (ONNXSHAPE_ERR_INVALID_MODEL).
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_read_file(const char *path, onnxshape_model **out,
                                                        onnxshape_diag *diag);

/**
 * As onnxshape_model_read_file(), from @p len bytes in memory. External data
 * resolves inside @p base_dir, or is rejected when @p base_dir is NULL. The
 * model does not keep @p bytes.
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_parse(const void *bytes, size_t len,
                                                    const char *base_dir, onnxshape_model **out,
                                                    onnxshape_diag *diag);

/** Free @p model. NULL is allowed. Results of onnxshape_model_run() that
 *  borrow from the model must be freed first. */
ONNXSHAPE_API void onnxshape_model_free(onnxshape_model *model);

/** As onnxshape_owned_tensor_check_file(), for every external-data file the
 *  model maps. */
ONNXSHAPE_API onnxshape_status onnxshape_model_check_files(const onnxshape_model *model,
                                                          onnxshape_diag *diag);

/** Number of graph inputs (including those with an initializer). */
ONNXSHAPE_API size_t onnxshape_model_input_count(const onnxshape_model *model);
/** Name of graph input @p i, or NULL when out of range. */
ONNXSHAPE_API const char *onnxshape_model_input_name(const onnxshape_model *model, size_t i);
/** 1 if graph input @p i has an initializer (a default value), else 0. */
ONNXSHAPE_API int onnxshape_model_input_has_default(const onnxshape_model *model, size_t i);
/** Number of graph outputs. */
ONNXSHAPE_API size_t onnxshape_model_output_count(const onnxshape_model *model);
/** Name of graph output @p i, or NULL when out of range. */
ONNXSHAPE_API const char *onnxshape_model_output_name(const onnxshape_model *model, size_t i);
/** The model's default-domain opset. */
ONNXSHAPE_API int64_t onnxshape_model_opset(const onnxshape_model *model);

/** A graph input binding. */
typedef struct onnxshape_binding {
  const char *name;               /**< graph input name */
  const onnxshape_tensor *tensor; /**< borrowed for the lifetime of the result */
} onnxshape_binding;

/** The outputs of one run. */
typedef struct onnxshape_result onnxshape_result;

/**
 * Run the model's nodes in order. Every graph input without an initializer
 * must be bound; a binding overrides an initializer. Reshape and Identity
 * outputs are views of their inputs (nothing is copied), so a result borrows
 * from the model and the bound tensors: keep them alive until it is freed.
 * @return ONNXSHAPE_OK; ONNXSHAPE_ERR_INVALID_ARGUMENT (also an input bound
 *         twice); ONNXSHAPE_ERR_NOT_FOUND (binding to no graph input, or an
 *         input left unbound); for a bound tensor that does not fit its
 *         input's declaration ONNXSHAPE_ERR_TYPE_NOT_ALLOWED (type),
 *         ONNXSHAPE_ERR_INVALID_RANK (rank) or ONNXSHAPE_ERR_INVALID_MODEL (a
 *         numeric dim); any kernel status, with a message naming the node;
 *         ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_run(const onnxshape_model *model,
                                                  const onnxshape_binding *inputs,
                                                  size_t n_inputs, onnxshape_result **out,
                                                  onnxshape_diag *diag);

/** Number of outputs (the model's graph outputs, in order). */
ONNXSHAPE_API size_t onnxshape_result_count(const onnxshape_result *result);
/** Output @p i's name, or NULL. */
ONNXSHAPE_API const char *onnxshape_result_name(const onnxshape_result *result, size_t i);
/** Output @p i, or NULL. */
ONNXSHAPE_API const onnxshape_tensor *onnxshape_result_tensor(const onnxshape_result *result,
                                                             size_t i);
/** Free @p result. NULL is allowed. */
ONNXSHAPE_API void onnxshape_result_free(onnxshape_result *result);

/** What is known about one value without input data. */
typedef struct onnxshape_value_info {
  const char *name;
  int32_t type;              /**< element type, or 0 when unknown */
  int rank_known;            /**< 1 when rank is known */
  size_t rank;
  const int64_t *dims;       /**< rank entries; -1 where the dim is not a known number */
  const char *const *params; /**< rank entries: the symbol of a symbolic dim, else NULL */
  const onnxshape_tensor *value; /**< the value itself when known (constants), else NULL */
} onnxshape_value_info;

/** The values of a model, as onnxshape_model_infer() determined them. */
typedef struct onnxshape_inference onnxshape_inference;

/**
 * Determine the type and dims of every value without input data, from the
 * declared input shapes, initializers and Constant nodes. Symbolic dims
 * (dim_param, such as `N`) stay symbolic where the rules keep them: copied by
 * Identity, by Shape's slice (as dims) and by a Reshape 0 without allowzero.
 * @return ONNXSHAPE_OK, or the error of a node that cannot succeed whatever
 *         the data (for example a constant Reshape target with two -1).
 */
ONNXSHAPE_API onnxshape_status onnxshape_model_infer(const onnxshape_model *model,
                                                    onnxshape_inference **out,
                                                    onnxshape_diag *diag);
/** Number of values: graph inputs, initializers, then node outputs in order. */
ONNXSHAPE_API size_t onnxshape_inference_count(const onnxshape_inference *inf);
/** Value @p i, or NULL. */
ONNXSHAPE_API const onnxshape_value_info *onnxshape_inference_get(const onnxshape_inference *inf,
                                                                 size_t i);
/** Free @p inf. NULL is allowed. */
ONNXSHAPE_API void onnxshape_inference_free(onnxshape_inference *inf);
/** @} */

/* ------------------------------------------------------------------------ */
/** @name SONNX profile check
 * The ONNX safety-related profile (SONNX) forbids relying on attribute
 * defaults and using sparse tensors, and requires every operator's inputs to
 * lie in its valid domain. These functions report, for a model, each place
 * that breaks one of those rules and that can be found without input data.
 * @{ */

/** The kind of a finding. */
typedef enum onnxshape_profile_rule {
  ONNXSHAPE_PROFILE_DEFAULT = 1, /**< an attribute is left to its default */
  ONNXSHAPE_PROFILE_SPARSE = 2,  /**< a sparse tensor is used */
  ONNXSHAPE_PROFILE_DOMAIN = 3   /**< a node's inputs or attributes are outside its valid
                                      domain, known without running (e.g. a constant Reshape
                                      target with two -1) */
} onnxshape_profile_rule;

/** The findings of one check. */
typedef struct onnxshape_profile_report onnxshape_profile_report;

/**
 * Check the ONNX model in @p len bytes against the SONNX profile. Sparse
 * tensors are looked for in the whole ModelProto (initializers, node
 * attributes, graph inputs, outputs and value_info). When there are none,
 * the model is loaded as onnxshape_model_parse() does (an invalid model is an
 * error, not a finding), every Shape-15+ node without `start` or `end` and
 * every Reshape-14+ node without `allowzero` is a DEFAULT finding, and
 * static inference (onnxshape_model_infer()) reports, as DOMAIN findings,
 * every node that cannot succeed whatever the input data.
 * @param[in]  base_dir  where external data resolves, or NULL (none allowed)
 * @param[out] out       the report (free with onnxshape_profile_free()),
 *                       also when it holds no finding
 * @return ONNXSHAPE_OK (the report may hold findings); ONNXSHAPE_ERR_MALFORMED,
 *         ONNXSHAPE_ERR_INVALID_MODEL and the other statuses of
 *         onnxshape_model_parse() when the model cannot be loaded;
 *         ONNXSHAPE_ERR_INVALID_ARGUMENT; ONNXSHAPE_ERR_OUT_OF_MEMORY.
 */
ONNXSHAPE_API onnxshape_status onnxshape_profile_check_sonnx(const void *bytes, size_t len,
                                                            const char *base_dir,
                                                            onnxshape_profile_report **out,
                                                            onnxshape_diag *diag);
/** As onnxshape_profile_check_sonnx(), for the model file @p path (external
 *  data resolves in its directory). Also ONNXSHAPE_ERR_IO. */
ONNXSHAPE_API onnxshape_status onnxshape_profile_check_sonnx_file(const char *path,
                                                                 onnxshape_profile_report **out,
                                                                 onnxshape_diag *diag);
/** Number of findings; 0 means the model conforms (as far as can be known
 *  without input data). */
ONNXSHAPE_API size_t onnxshape_profile_count(const onnxshape_profile_report *r);
/** The rule finding @p i breaks, or 0 when out of range. */
ONNXSHAPE_API onnxshape_profile_rule onnxshape_profile_rule_of(const onnxshape_profile_report *r,
                                                              size_t i);
/** Finding @p i, a sentence naming the node (or initializer, or graph value)
 *  and the rule; NULL when out of range. Valid until the report is freed. */
ONNXSHAPE_API const char *onnxshape_profile_message(const onnxshape_profile_report *r, size_t i);
/** Free @p r. NULL is allowed. */
ONNXSHAPE_API void onnxshape_profile_free(onnxshape_profile_report *r);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* ONNXSHAPE_H */
