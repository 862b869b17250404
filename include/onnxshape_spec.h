/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file onnxshape_spec.h
 * @brief The ACSL specification behind the contracts of include/onnxshape.h:
 *        the mathematics of element counts, storage, operator versions and
 *        every rule of Shape, Reshape and Size. Included by onnxshape.h only
 *        under Frama-C (`__FRAMAC__`); compilers never read it.
 *
 * ACSL integers are unbounded, so a product here never wraps. Each piece
 * names, in a comment in capitals, the requirement identifiers of
 * docs/requirements.md it states; `make prove` (docs/proofs.md) proves every
 * contract that uses it against the code.
 */
#ifndef ONNXSHAPE_SPEC_H
#define ONNXSHAPE_SPEC_H

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
  // all_nonneg as a boolean term, for the status functions to branch on.
  axiomatic NonnegDecided {
    logic boolean nonneg{L}(int64_t *d, integer n) reads d[0 .. n - 1];
    axiom nonneg_def{L}:
      \forall int64_t *d, integer n; nonneg(d, n) == \true <==> all_nonneg(d, n);
  }
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
  logic boolean is_type(integer t) = 1 <= t && t <= ONNXSHAPE_TYPE_LAST;

  // STORAGE-BYTES: bytes of n elements of a type of b bits per element
  // (b = 0: strings, one onnxshape_string each); sub-byte types pack, and a
  // partial last byte counts whole.
  logic integer storage_bytes(integer b, integer n) =
    b == 0 ? n * sizeof(onnxshape_string) : (n * b + 7) / 8;

  // A diagnostic is either absent or a whole, writable onnxshape_diag.
  predicate diag_ok(onnxshape_diag *diag) = diag == \null || \valid(diag);
  // ERROR-MESSAGE: after a successful call the message is empty; after a
  // failed one it holds the reason (a non-empty string).
  predicate diag_cleared{L}(onnxshape_diag *diag) = diag == \null || diag->message[0] == 0;
  predicate diag_failed{L}(onnxshape_diag *diag) = diag == \null || diag->message[0] != 0;
*/
/*@
  // ---- Operator versions and element types ------------------------------

  // OPSET-VERSIONS: the since_versions of each operator. (The facts the
  // status functions below branch on are boolean terms: ACSL's conditional
  // takes a term, not a predicate.)
  logic boolean is_version(integer op, integer v) =
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
  logic boolean type_allowed(integer op, integer v, integer t) =
    op == ONNXSHAPE_OP_RESHAPE && v == 1 ? (t == 1 || t == 10 || t == 11)
                                         : (1 <= t && t <= last_type(v));

  // ERROR-ORDER: the status of the version and type checks every kernel
  // makes first: the version, then whether the type exists, then whether
  // the version accepts it.
  logic integer entry_status(integer op, integer v, integer t) =
    !is_version(op, v) ? ONNXSHAPE_ERR_UNKNOWN_VERSION :
    !is_type(t) ? ONNXSHAPE_ERR_UNKNOWN_TYPE :
    !type_allowed(op, v, t) ? ONNXSHAPE_ERR_TYPE_NOT_ALLOWED : ONNXSHAPE_OK;

  // ERROR-ORDER: the status of onnxshape_check_type: the operator, then the
  // entry checks.
  logic boolean is_op(integer op) =
    op == ONNXSHAPE_OP_SHAPE || op == ONNXSHAPE_OP_RESHAPE || op == ONNXSHAPE_OP_SIZE;
  logic integer check_status(integer op, integer v, integer t) =
    !is_op(op) ? ONNXSHAPE_ERR_UNKNOWN_OPERATOR : entry_status(op, v, t);
*/
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
  logic boolean shape_attrs_set{L}(onnxshape_shape_attrs *a) =
    a != \null && (a->has_start != 0 || a->has_end != 0);

  // ERROR-ORDER: the status of Shape on a type and rank (after its own
  // argument checks): the entry checks, a rank no int64 holds, start and end
  // before Shape-15.
  logic integer shape_status{L}(integer v, integer t, integer r, onnxshape_shape_attrs *a) =
    entry_status(ONNXSHAPE_OP_SHAPE, v, t) != ONNXSHAPE_OK ? entry_status(ONNXSHAPE_OP_SHAPE, v, t) :
    r > INT64_MAX ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    v < 15 && shape_attrs_set(a) ? ONNXSHAPE_ERR_INVALID_ATTRIBUTE : ONNXSHAPE_OK;

  // ERROR-ORDER: the status of onnxshape_shape_run: its arguments, then
  // shape_status, the dims (DIMS-COUNT) and the output's capacity
  // (KERNEL-CAPACITY).
  logic integer shape_run_status{L}(integer v, onnxshape_tensor *data, onnxshape_shape_attrs *a,
                                    int64_t *out, integer cap, size_t *length) =
    data == \null || length == \null || (data->dims == \null && data->rank > 0) ?
      ONNXSHAPE_ERR_INVALID_ARGUMENT :
    shape_status(v, data->type, data->rank, a) != ONNXSHAPE_OK ?
      shape_status(v, data->type, data->rank, a) :
    !nonneg(data->dims, data->rank) ? ONNXSHAPE_ERR_NEGATIVE_DIM :
    shape_len(a, data->rank) > 0 && (out == \null || shape_len(a, data->rank) > cap) ?
      ONNXSHAPE_ERR_BUFFER_TOO_SMALL : ONNXSHAPE_OK;

  // ---- Size ------------------------------------------------------------------

  // ERROR-ORDER: the status of onnxshape_size_run: its arguments, the entry
  // checks, the dims and their count (DIMS-COUNT, SIZE-OVERFLOW).
  logic integer size_run_status{L}(integer v, onnxshape_tensor *data, int64_t *out) =
    data == \null || out == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    entry_status(ONNXSHAPE_OP_SIZE, v, data->type) != ONNXSHAPE_OK ?
      entry_status(ONNXSHAPE_OP_SIZE, v, data->type) :
    data->rank > 0 && data->dims == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    !nonneg(data->dims, data->rank) ? ONNXSHAPE_ERR_NEGATIVE_DIM :
    elem_count(data->dims, data->rank) > INT64_MAX ? ONNXSHAPE_ERR_OVERFLOW : ONNXSHAPE_OK;
*/
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
  // Skipping an index not reached yet changes nothing: if it holds for a
  // prefix of n - 1 values, it holds for n (the induction step the accepting
  // path's loop needs, proved here in a small context). Stated with n - 1
  // and n, as known_prod_step is, so that the provers need few instances of
  // that axiom (892,310 Z3 steps in make prove; with i and i + 1, 14,963,723).
  lemma known_prod_skip_beyond_step{L}:
    \forall int64_t *s, *d, integer az, n; n > 0 ==>
      (\forall integer x; x >= n - 1 ==>
         known_prod(s, d, az, x, n - 1) == known_prod(s, d, az, -1, n - 1)) ==>
      (\forall integer x; x >= n ==> known_prod(s, d, az, x, n) == known_prod(s, d, az, -1, n));
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

  // STORAGE-BYTES: the bytes the dims of tensor t need.
  logic integer data_need{L}(onnxshape_tensor *t) =
    storage_bytes(type_bits(t->type), elem_count(t->dims, t->rank));

  // ---- The exact status of each Reshape call --------------------------------

  // RESHAPE-ALLOWZERO-VERSION, RESHAPE-ALLOWZERO-VALUES: allowzero set where
  // it is not defined, or to a value other than 0 and 1.
  logic boolean allowzero_invalid{L}(integer version, onnxshape_reshape_attrs *a) =
    a != \null && a->has_allowzero != 0 &&
    (version < 14 || (a->allowzero != 0 && a->allowzero != 1));

  // Where the first -1 of s[0 .. n-1] is, or -1 when there is none.
  logic integer minus_at{L}(int64_t *s, integer n) =
    n <= 0 ? -1 : minus_at(s, n - 1) != -1 ? minus_at(s, n - 1) : s[n - 1] == -1 ? n - 1 : -1;
  // Whether s[0 .. n-1] holds a 0.
  logic boolean any_zero{L}(int64_t *s, integer n) =
    n <= 0 ? \false : (any_zero(s, n - 1) || s[n - 1] == 0);

  // RESHAPE-BELOW-MINUS-ONE, RESHAPE-ONE-INFERRED, RESHAPE-ZERO-COPY-RANGE:
  // the status of target value s[i] on its own (given the values before it).
  logic integer value_status{L}(int64_t *s, integer i, integer r, integer az) =
    s[i] < -1 ? ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE :
    s[i] == -1 && minus_at(s, i) != -1 ? ONNXSHAPE_ERR_MULTIPLE_INFERRED :
    s[i] == 0 && az == 0 && i >= r ? ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE : ONNXSHAPE_OK;
  // The index of the first value of s[0 .. n-1] that breaks a rule of its
  // own, or n when none does (well defined: the least such index).
  axiomatic FirstBad {
    logic integer first_bad{L}(int64_t *s, integer n, integer r, integer az) reads s[0 .. n - 1];
    axiom first_bad_def{L}:
      \forall int64_t *s, integer n, r, az; n >= 0 ==>
        0 <= first_bad(s, n, r, az) <= n &&
        (first_bad(s, n, r, az) < n ==>
           value_status(s, first_bad(s, n, r, az), r, az) != ONNXSHAPE_OK) &&
        \forall integer j; 0 <= j < first_bad(s, n, r, az) ==>
          value_status(s, j, r, az) == ONNXSHAPE_OK;
  }

  // ERROR-ORDER: the status of the rules on the target's values alone: the
  // first value that breaks one, left to right, then allowzero=1 with both a
  // 0 and a -1 (RESHAPE-ALLOWZERO-INFERRED).
  logic integer target_status{L}(int64_t *s, integer n, integer r, integer az) =
    first_bad(s, n, r, az) < n ? value_status(s, first_bad(s, n, r, az), r, az) :
    az == 1 && any_zero(s, n) && minus_at(s, n) != -1 ? ONNXSHAPE_ERR_ZERO_WITH_INFERRED :
    ONNXSHAPE_OK;

  // RESHAPE-OVERFLOW, RESHAPE-INFER-ZERO, RESHAPE-INFER-DIVISIBLE,
  // RESHAPE-COUNT: the status of the products, once the target has at most
  // one -1: P (the product of the other target dims) overflows, is 0, does
  // not divide the count, or (without a -1) differs from it. With no
  // elements, an overflowing P still gives the -1 the value 0, as
  // semantics.md rules.
  logic integer product_status{L}(int64_t *s, integer n, int64_t *d, integer r, integer az) =
    \let x = minus_at(s, n); \let p = known_prod(s, d, az, x, n); \let c = elem_count(d, r);
    x != -1 ?
      (p > INT64_MAX ? (c == 0 ? ONNXSHAPE_OK : ONNXSHAPE_ERR_OVERFLOW) :
       p == 0 ? ONNXSHAPE_ERR_INFERRED_FROM_ZERO :
       c % p != 0 ? ONNXSHAPE_ERR_NOT_DIVISIBLE : ONNXSHAPE_OK) :
      (p > INT64_MAX ? ONNXSHAPE_ERR_OVERFLOW :
       p != c ? ONNXSHAPE_ERR_COUNT_MISMATCH : ONNXSHAPE_OK);

  // ERROR-ORDER: the status of Reshape's rules on data dims d[0 .. r-1] and
  // target s[0 .. n-1]: the first rule broken, in semantics.md's order.
  logic integer rule_status{L}(int64_t *s, integer n, int64_t *d, integer r, integer az) =
    !nonneg(d, r) ? ONNXSHAPE_ERR_NEGATIVE_DIM :
    elem_count(d, r) > INT64_MAX ? ONNXSHAPE_ERR_OVERFLOW :
    target_status(s, n, r, az) != ONNXSHAPE_OK ? target_status(s, n, r, az) :
    product_status(s, n, d, r, az);

  // ERROR-ORDER: the status of Reshape's checks before the caller's output
  // capacity: the entry checks, the buffers (have_out: out_dims given),
  // allowzero, the data's dims, every rule.
  logic integer plan_status{L}(integer version, integer type, int64_t *d, integer r, int64_t *s,
                               integer n, onnxshape_reshape_attrs *a, integer have_out) =
    entry_status(ONNXSHAPE_OP_RESHAPE, version, type) != ONNXSHAPE_OK ?
      entry_status(ONNXSHAPE_OP_RESHAPE, version, type) :
    n > 0 && (s == \null || have_out == 0) ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    allowzero_invalid(version, a) ? ONNXSHAPE_ERR_INVALID_ATTRIBUTE :
    r > 0 && d == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    rule_status(s, n, d, r, allowzero_of(a));

  // ERROR-ORDER: the status of onnxshape_reshape_infer: plan_status, then the
  // capacity of out_dims (KERNEL-CAPACITY).
  logic integer reshape_status{L}(integer version, integer type, int64_t *d, integer r,
                                  int64_t *s, integer n, onnxshape_reshape_attrs *a,
                                  int64_t *out_dims, integer cap) =
    plan_status(version, type, d, r, s, n, a, out_dims == \null ? 0 : 1) != ONNXSHAPE_OK ?
      plan_status(version, type, d, r, s, n, a, out_dims == \null ? 0 : 1) :
    cap < n ? ONNXSHAPE_ERR_BUFFER_TOO_SMALL : ONNXSHAPE_OK;

  // ERROR-ORDER: the status of onnxshape_reshape_run_view (copying == 0) and
  // onnxshape_reshape_run_copy (copying == 1): the arguments, then everything
  // onnxshape_reshape_infer checks, then the bytes (STORAGE-BYTES) of the
  // data and, when copying, of the destination.
  logic integer reshape_run_status{L}(integer version, onnxshape_tensor *data, int64_t *s,
                                      integer n, onnxshape_reshape_attrs *a, int64_t *out_dims,
                                      integer cap, onnxshape_tensor *out, integer copying,
                                      char *dst, integer dst_cap) =
    data == \null || out == \null ? ONNXSHAPE_ERR_INVALID_ARGUMENT :
    reshape_status(version, data->type, data->dims, data->rank, s, n, a, out_dims, cap) !=
        ONNXSHAPE_OK ?
      reshape_status(version, data->type, data->dims, data->rank, s, n, a, out_dims, cap) :
    data_need(data) > SIZE_MAX ? ONNXSHAPE_ERR_OVERFLOW :
    data_need(data) > 0 && (data->data == \null || data_need(data) > data->data_bytes) ?
      ONNXSHAPE_ERR_DATA_SIZE :
    copying != 0 && data_need(data) > 0 && (dst == \null || data_need(data) > dst_cap) ?
      ONNXSHAPE_ERR_BUFFER_TOO_SMALL : ONNXSHAPE_OK;

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

#endif
