/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by src/core and src/ops; not part of the public API. */
#ifndef ONNXSHAPE_INTERNAL_H
#define ONNXSHAPE_INTERNAL_H

#include "catalog.h"
#include "onnxshape_kernels.h"

#if defined(__GNUC__)
#define ONNXSHAPE_NOINLINE __attribute__((noinline))
/* Forced inlining where the compiler optimizes; at -O0 (the coverage
 * build) each function stays one copy, so its branches are counted once. */
#if defined(__OPTIMIZE__)
#define ONNXSHAPE_INLINE inline __attribute__((always_inline))
#else
#define ONNXSHAPE_INLINE inline
#endif
#else
#define ONNXSHAPE_NOINLINE
#define ONNXSHAPE_INLINE inline
#endif

/* How the rules that several entry points of one operator share (Reshape's
 * plan) are compiled. Without messages, into each entry point: the rules'
 * frame and the entry point's become one, which is what keeps the deepest
 * stack of a Cortex-M4 under 192 bytes (docs/embedded.md); each entry point
 * a program links has its own copy.
 * With messages, once, out of line: the entry point words a failure after
 * the rules have returned, so the formatter's frames sit on the entry
 * point's alone, and the flash holds one copy. GCC's noipa also keeps it
 * from specialising the function for one caller, which costs flash. */
#if defined(ONNXSHAPE_NO_MESSAGES) && !defined(__FRAMAC__)
#define ONNXSHAPE__RULES_LINK static ONNXSHAPE_INLINE
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__FRAMAC__) && __GNUC__ >= 8
#define ONNXSHAPE__RULES_LINK __attribute__((noipa)) static
#else
#define ONNXSHAPE__RULES_LINK ONNXSHAPE_NOINLINE static
#endif

/*@ // A call that succeeds keeps the diagnostic as it found it (the kernel's
    // entry cleared it), so that ERROR-MESSAGE holds at the kernel's return.
    predicate diag_kept{L1,L2}(onnxshape_diag *diag) =
      diag == \null || \at(diag->message[0], L1) == \at(diag->message[0], L2);
*/

/* Clears diag->message (a successful call leaves it empty). */
/*@ requires diag_ok(diag);
    assigns diag->message[0];
    ensures diag != \null ==> diag->message[0] == 0;
*/
static inline void onnxshape__diag_clear(onnxshape_diag *diag) {
  if (diag != NULL) diag->message[0] = '\0';
}

/* ---- Diagnostics ----------------------------------------------------------
 * Messages are formatted by the library's own small formatter (diag.c), not
 * the printf family: the same text on every C library, no varargs, and each
 * argument says what it is. A format holds `{}` where the next argument goes:
 *
 *   onnxshape__fail(diag, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE, "Reshape", 14,
 *                   "shape[{}] = {}; a dimension cannot be below -1",
 *                   ONNXSHAPE__ARGS(ARG_UINT(i), ARG_INT(x)));
 *
 * and ONNXSHAPE__NO_ARGS when there are none. Text that came from a file or
 * a caller is escaped (control characters, backslashes and bytes that are
 * not UTF-8 as C-style escapes), and a name (ARG_NAME) longer than 64 bytes
 * is shortened in the middle, so that a message always keeps its rule. */
typedef enum onnxshape__arg_kind {
  ONNXSHAPE__ARG_INT,  /* int64_t, in decimal */
  ONNXSHAPE__ARG_UINT, /* uint64_t (size_t too), in decimal */
  ONNXSHAPE__ARG_STR,  /* a string, escaped */
  ONNXSHAPE__ARG_NAME, /* a name, escaped and shortened in the middle */
  ONNXSHAPE__ARG_TEXT, /* text that is already a message (escaped), verbatim */
  ONNXSHAPE__ARG_TYPES /* a type mask (bit t for type t) as "float, uint8, ..." */
} onnxshape__arg_kind;

/* An argument's value, as its kind says. */
typedef union onnxshape__argval {
  int64_t i;
  uint64_t u;
  const char *s; /* NULL prints as "(null)" */
} onnxshape__argval;

typedef struct onnxshape__arg {
  onnxshape__arg_kind kind;
  onnxshape__argval v;
} onnxshape__arg;

#define ARG_INT(x) ((onnxshape__arg){ONNXSHAPE__ARG_INT, {.i = (int64_t)(x)}})
#define ARG_UINT(x) ((onnxshape__arg){ONNXSHAPE__ARG_UINT, {.u = (uint64_t)(x)}})
#define ARG_STR(x) ((onnxshape__arg){ONNXSHAPE__ARG_STR, {.s = (x)}})
#define ARG_NAME(x) ((onnxshape__arg){ONNXSHAPE__ARG_NAME, {.s = (x)}})
#define ARG_TEXT(x) ((onnxshape__arg){ONNXSHAPE__ARG_TEXT, {.s = (x)}})
#define ARG_TYPES(mask) ((onnxshape__arg){ONNXSHAPE__ARG_TYPES, {.u = (uint64_t)(mask)}})
/* The arguments of a message: an array and its length (two parameters).
 * The length is counted by the preprocessor (at most 10 arguments), not
 * with sizeof, so no compound literal is evaluated twice. */
#define ONNXSHAPE__ARGS(...) (const onnxshape__arg[]){__VA_ARGS__}, ONNXSHAPE__NARGS(__VA_ARGS__)
#define ONNXSHAPE__NARGS(...) ONNXSHAPE__NARGS_(__VA_ARGS__, 10u, 9u, 8u, 7u, 6u, 5u, 4u, 3u, 2u, 1u, 0u)
#define ONNXSHAPE__NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, n, ...) n
#define ONNXSHAPE__NO_ARGS NULL, 0u

/* Formats fmt with its arguments into buf (cap bytes, NUL-terminated,
 * truncated to fit; nothing when cap is 0); returns the length written. */
size_t onnxshape__format(char *buf, size_t cap, const char *fmt, const onnxshape__arg *args,
                         size_t n_args);

#if defined(ONNXSHAPE_NO_MESSAGES) && !defined(__FRAMAC__)
/* Messages compiled out (CMake -DONNXSHAPE_MESSAGES=OFF, for the kernels
 * alone): a failure writes "error <status number>" into diag, and neither
 * the format nor its arguments are compiled (op_name and version are
 * evaluated and discarded: they are often parameters). */
onnxshape_status onnxshape__failed(onnxshape_diag *diag, onnxshape_status status);
#define onnxshape__fail(diag, status, op_name, version, ...) \
  ((void)(op_name), (void)(version), onnxshape__failed((diag), (status)))
#elif !defined(__FRAMAC__)
/* Writes "<Op>-<version> (node '<node>'): <message>" into diag (when not
 * NULL) and returns status, so callers can `return onnxshape__fail(...)`.
 * op_name may be NULL for errors that belong to no operator. */
onnxshape_status onnxshape__fail(onnxshape_diag *diag, onnxshape_status status,
                                 const char *op_name, int version, const char *fmt,
                                 const onnxshape__arg *args, size_t n_args);
#else
/* For the proofs, message formatting is abstracted by this contract: it reads
 * its arguments (so the run-time-error proof covers the expressions that
 * compute them), writes only diag->message and returns the status it was
 * given. docs/proofs.md lists it among the assumptions. */
/*@ requires diag_ok(diag);
    requires n_args == 0 || \valid_read(args + (0 .. n_args - 1));
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == status;
    // ERROR-MESSAGE: the message is never empty (diag.c writes "error <status
    // number>" when the rest would be).
    ensures diag_failed(diag);
*/
onnxshape_status onnxshape__fail(onnxshape_diag *diag, onnxshape_status status,
                                 const char *op_name, int version, const char *fmt,
                                 const onnxshape__arg *args, size_t n_args);
#endif

/* An error that belongs to no operator: "<message>", or "node '<node>':
 * <message>" when diag names a node. */
#define onnxshape__error(diag, status, ...) onnxshape__fail((diag), (status), NULL, 0, __VA_ARGS__)

/* ---- the kernels' failures: recorded deep, worded at the entry -------------
 * A kernel's rules run several calls deep, and wording a message there would
 * put the formatter's frames on top of all of theirs (on a Cortex-M4 that
 * was the worst case of every entry point's stack). So the rules of the
 * kernels (src/ops, and onnxshape__count and onnxshape__reject) record a
 * failure instead, and the public entry point words it once the rules have
 * returned:
 *
 *   return onnxshape__defer(diag, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE, "Reshape", version,
 *                           "shape[{}] = {}; a dimension cannot be below -1",
 *                           VAL_UINT(i), VAL_INT(x));
 *   ...
 *   return onnxshape__finish(diag, st);   (in the entry point, on every failure)
 *
 * The format and its arguments are those of onnxshape__fail, at most three
 * (VAL_INT, VAL_UINT, VAL_STR, VAL_NAME, VAL_TYPES), passed by value so that
 * no argument array sits in a rule's frame. The record lives in
 * diag->message, marked by a first byte (ONNXSHAPE__PENDING, a control
 * character no worded message starts with), and holds pointers into the
 * caller's strings: the entry point words it before it returns, so they are
 * alive. onnxshape__finish leaves a worded message as it is, so finishing
 * twice, or a failure worded at once, is harmless. */
#define ONNXSHAPE__PENDING 0x01u
#define VAL_INT(x) ONNXSHAPE__ARG_INT, .i = (int64_t)(x)
#define VAL_UINT(x) ONNXSHAPE__ARG_UINT, .u = (uint64_t)(x)
#define VAL_STR(x) ONNXSHAPE__ARG_STR, .s = (x)
#define VAL_NAME(x) ONNXSHAPE__ARG_NAME, .s = (x)
#define VAL_TYPES(mask) ONNXSHAPE__ARG_TYPES, .u = (uint64_t)(mask)
/* The kinds of the three values, 4 bits each (ONNXSHAPE__NO_KIND: not used). */
#define ONNXSHAPE__KINDS(k0, k1, k2) \
  ((uint32_t)(k0) | ((uint32_t)(k1) << 4) | ((uint32_t)(k2) << 8))
#define ONNXSHAPE__NO_KIND 15
/* onnxshape__defer's arguments after the format, padded to three (kind,
 * value) pairs and one spare (ISO C wants an argument for every `...`); a
 * second macro picks them (the values' commas separate arguments only once
 * VAL_* has been expanded). */
#define onnxshape__defer(diag, status, op_name, version, ...)                              \
  ONNXSHAPE__DEFER_PICK((diag), (status), (op_name), (version), __VA_ARGS__,               \
                        ONNXSHAPE__NO_KIND, .u = 0u, ONNXSHAPE__NO_KIND, .u = 0u,          \
                        ONNXSHAPE__NO_KIND, .u = 0u, 0)

#if defined(ONNXSHAPE_NO_MESSAGES) && !defined(__FRAMAC__)
#define ONNXSHAPE__DEFER_PICK(diag, status, op_name, version, fmt, ...) \
  ((void)(op_name), (void)(version), onnxshape__failed((diag), (status)))
/* Without messages a failure is worded where it happens ("error N"). */
#define onnxshape__finish(diag, status) (status)
#elif !defined(__FRAMAC__)
#define ONNXSHAPE__DEFER_PICK(diag, status, op_name, version, fmt, k0, v0, k1, v1, k2, v2, ...) \
  onnxshape__record((diag), (status), ONNXSHAPE__KINDS(k0, k1, k2), (op_name), (version),     \
                    (fmt), (onnxshape__argval){v0}, (onnxshape__argval){v1},                   \
                    (onnxshape__argval){v2})
/* Records a failure in diag (when not NULL) and returns status (diag.c). */
onnxshape_status onnxshape__record(onnxshape_diag *diag, onnxshape_status status, uint32_t kinds,
                                   const char *op_name, int version, const char *fmt,
                                   onnxshape__argval a, onnxshape__argval b, onnxshape__argval c);
/* Words the failure recorded in diag, if there is one, as onnxshape__fail
 * would have; returns status. */
onnxshape_status onnxshape__finish(onnxshape_diag *diag, onnxshape_status status);
#else
/* For the proofs a recorded failure is onnxshape__fail's contract (it writes
 * only diag->message and leaves it not empty), and wording it is the
 * contract below: diag.c, like the formatter, is among the assumptions of
 * docs/proofs.md and is tested (tests/test_core.c). */
#define ONNXSHAPE__DEFER_PICK(diag, status, op_name, version, fmt, k0, v0, k1, v1, k2, v2, ...) \
  onnxshape__fail((diag), (status), (op_name), (version), (fmt),                                \
                  (const onnxshape__arg[]){{(k0), {v0}}, {(k1), {v1}}, {(k2), {v2}}}, 3u)
/*@ requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == status;
    // ERROR-MESSAGE: a success keeps the message as it was (cleared), a
    // failure leaves one that is not empty.
    ensures status == ONNXSHAPE_OK ==> diag_kept{Pre,Post}(diag);
    ensures status != ONNXSHAPE_OK ==> diag_failed(diag);
*/
onnxshape_status onnxshape__finish(onnxshape_diag *diag, onnxshape_status status);
#endif

/* ---- builds optimized for size ---------------------------------------------
 * Where the compiler optimizes for size (GCC and clang define
 * __OPTIMIZE_SIZE__ at -Os and -Oz; Frama-C does not, so the proofs read the
 * other branch), ONNXSHAPE__SIZE_BUILD is 1 and the kernels:
 * - divide 64-bit values with onnxshape__udiv64_soft (udiv.c: shifts and
 *   subtractions, about 40 bytes), not C's operators, which on a 32-bit core
 *   call libgcc's __udivmoddi4 (700 bytes of flash on Cortex-M4); the one
 *   64-bit division a rule needs is Reshape's -1;
 * - leave out the accepting fast path (reshape_fast.h, proved to accept only
 *   what the full rules accept, with the same results): one copy of the
 *   rules is about 800 bytes of flash less. */
#if defined(__OPTIMIZE_SIZE__) && !defined(__FRAMAC__)
#define ONNXSHAPE__SIZE_BUILD 1
#else
#define ONNXSHAPE__SIZE_BUILD 0
#endif

/* n / d with *rem = n % d, by long division, for d >= 1 (udiv.c; not under
 * WP: tests/test_core.c checks it against C's operators on edge and random
 * values, and the kernel tests run through it on Cortex-M4). */
uint64_t onnxshape__udiv64_soft(uint64_t n, uint64_t d, uint64_t *rem);

/* n / d, and *rem = n % d, for d >= 1. */
/*@ requires d >= 1;
    requires \valid(rem);
    assigns *rem;
    ensures \result == n / d && *rem == n % d;
*/
static inline uint64_t onnxshape__udiv64(uint64_t n, uint64_t d, uint64_t *rem) {
#if ONNXSHAPE__SIZE_BUILD
  return onnxshape__udiv64_soft(n, d, rem);
#else
  *rem = n % d;
  return n / d;
#endif
}

/* a * b for a, b >= 0; returns 0 and leaves *r unset when it exceeds INT64_MAX. */
/*@ requires a >= 0 && b >= 0;
    // DIMS-COUNT SIZE-OVERFLOW RESHAPE-OVERFLOW
    requires \valid(r);
    assigns *r;
    behavior fits:
      assumes a * b <= INT64_MAX;
      ensures \result == 1 && *r == a * b;
    behavior overflows:
      assumes a * b > INT64_MAX;
      assigns \nothing;
      ensures \result == 0;
    complete behaviors;
    disjoint behaviors;
*/
static inline int onnxshape__mul_nonneg(int64_t a, int64_t b, int64_t *r) {
  /* Both below 2^31 (the usual case): the product is below 2^62. */
  if (a <= INT32_MAX && b <= INT32_MAX) {
    //@ assert a * b <= (integer)INT32_MAX * INT32_MAX;
    *r = a * b;
    return 1;
  }
  /* Otherwise without a division (a 32-bit core would call its C library
   * for one): both at least 2^32 is at least 2^64; else the one below 2^32,
   * s, times the other, l, is hi * 2^32 + lo with hi = (l / 2^32) * s below
   * 2^63 and lo = (l % 2^32) * s below 2^64 (l / 2^32 is below 2^31). */
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  if (ua > UINT32_MAX && ub > UINT32_MAX) {
    //@ assert a * b >= (integer)UINT32_MAX * UINT32_MAX;
    return 0;
  }
  uint64_t s = ua <= UINT32_MAX ? ua : ub;
  uint64_t l = ua <= UINT32_MAX ? ub : ua;
  //@ assert s * l == a * b;
  //@ assert split: l == (l / 4294967296) * 4294967296 + l % 4294967296;
  uint64_t hi = (l / 4294967296u) * s;
  uint64_t lo = (l % 4294967296u) * s;
  //@ assert sum: s * l == hi * 4294967296 + lo;
  if (hi > (uint64_t)INT32_MAX || lo > (uint64_t)INT64_MAX) {
    return 0;
  }
  uint64_t p = hi * 4294967296u + lo;
  if (p > (uint64_t)INT64_MAX) {
    return 0;
  }
  *r = (int64_t)p;
  return 1;
}

/* *r = a * b for a, b >= 1 (long long, as int64_t on every platform this
 * builds for); returns nonzero, with *r unspecified, when the product does
 * not fit. With GCC and clang it is the compiler's checked multiply (one
 * instruction and a branch; Frama-C knows it through the contract in its
 * __fc_gcc_builtins.h); elsewhere a division guards the product. */
#if defined(__FRAMAC__)
#include "__fc_gcc_builtins.h"
#endif
#if defined(__GNUC__) || defined(__clang__)
#define onnxshape__mul_overflows(a, b, r) __builtin_smulll_overflow((a), (b), (r))
#else
#include <limits.h>
static inline int onnxshape__mul_overflows(long long a, long long b, long long *r) {
  if (a > LLONG_MAX / b) {
    return 1;
  }
  *r = a * b;
  return 0;
}
#endif

/* Why (op, version, type) is refused, as a status and a message naming the
 * operator and version: the slow path of onnxshape__enter (catalog_fns.h), out of line
 * (versions.c; its contract is checked on every input that matters by
 * test_version_contracts_exhaustive in tests/test_core.c). */
/*@ requires diag_ok(diag);
    requires check_status(op, version, type) != ONNXSHAPE_OK;
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == check_status(op, version, type);
    // ERROR-MESSAGE
    ensures diag_failed(diag);
*/
onnxshape_status onnxshape__reject(onnxshape_op op, int version, int32_t type,
                                   onnxshape_diag *diag);

/* Constant and Identity, which the loader and runner know besides the
 * kernels (versions.c): the element types (bit t for type t) a version
 * accepts. (The version that runs at an opset is the operator registry's,
 * src/core/operators.h.) */
typedef enum onnxshape__other_op { ONNXSHAPE__CONSTANT, ONNXSHAPE__IDENTITY } onnxshape__other_op;
uint32_t onnxshape__other_types(onnxshape__other_op op, int version);
/* Identity's one rule: ONNXSHAPE_OK when Identity-`version` takes an input
 * of element type `type`, else ERR_TYPE_NOT_ALLOWED ("input type T is not
 * allowed"); for the runner and static analysis alike. */
onnxshape_status onnxshape__identity_check(int version, int32_t type, onnxshape_diag *diag);

/* The element count of the 'data' input's dims, with messages naming the
 * operator and version (Size and Reshape: both count their input 'data').
 * DIMS-COUNT */
/*@ requires rank == 0 || dims == \null || \valid_read(dims + (0 .. rank - 1));
    requires \valid(count) && \separated(count, dims + (0 .. rank - 1));
    requires diag_ok(diag) && \separated(count, diag);
    assigns *count, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER
    ensures \result == (rank > 0 && dims == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
                        !nonneg(dims, rank) ? ONNXSHAPE_ERR_NEGATIVE_DIM :
                        \old(elem_count(dims, rank)) > INT64_MAX ? ONNXSHAPE_ERR_OVERFLOW :
                        ONNXSHAPE_OK);
    ensures \result == ONNXSHAPE_OK ==> all_nonneg(dims, rank) &&
            *count == \old(elem_count(dims, rank)) && 0 <= *count <= INT64_MAX;
    // ERROR-MESSAGE
    ensures \result == ONNXSHAPE_OK ==> diag_kept{Pre,Post}(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag) && *count == \old(*count);
*/
onnxshape_status onnxshape__count(const char *op_name, int version,
                                  const int64_t *dims, size_t rank, int64_t *count,
                                  onnxshape_diag *diag);

#endif
