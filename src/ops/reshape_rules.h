/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape's rules, each with its message and requirement identifier, in the
 * order of docs/semantics.md (reshape_rules.c): the one implementation that
 * the kernels' entry points (reshape.c), their proved accepting path
 * (reshape_fast.h) and static inference (src/runtime/infer.c) use. */
#ifndef ONNXSHAPE_RESHAPE_RULES_H
#define ONNXSHAPE_RESHAPE_RULES_H

#include "../core/catalog_fns.h"

#define NO_INDEX SIZE_MAX

/*@ // The index known_prod skips: the inferred one, or none (-1).
    logic integer skip(integer minus_one) = minus_one == NO_INDEX ? -1 : minus_one;

    // What a successful plan gives for c elements: minus_one is where the -1
    // is (NO_INDEX when there is none) and v the dim it stands for.
    // RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT
    predicate planned{L}(int64_t *s, integer n, int64_t *d, integer az, integer minus_one,
                         integer c, integer v) =
      minus_one == NO_INDEX ?
        !has_minus_one(s, n) && known_prod(s, d, az, -1, n) == c :
        minus_one < n && s[minus_one] == -1 && known_prod(s, d, az, minus_one, n) != 0 &&
        c % known_prod(s, d, az, minus_one, n) == 0 && v == c / known_prod(s, d, az, minus_one, n);

*/

/* The allowzero attribute: defined from Reshape-14, 0 or 1; *allowzero the
 * value in effect (0 when it is not set). */
/*@ requires diag_ok(diag);
    requires attrs == \null || \valid_read(attrs);
    requires \valid(allowzero) && \separated(allowzero, diag);
    assigns *allowzero, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // RESHAPE-ALLOWZERO-VERSION, RESHAPE-ALLOWZERO-VALUES
    ensures \result == (allowzero_invalid(version, attrs) ? ONNXSHAPE_ERR_INVALID_ATTRIBUTE :
                        ONNXSHAPE_OK);
    ensures \result == ONNXSHAPE_OK ==>
            (*allowzero == 0 || *allowzero == 1) && *allowzero == allowzero_of(attrs) &&
            diag_kept{Pre,Post}(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
onnxshape_status onnxshape__reshape_allowzero(int version, const onnxshape_reshape_attrs *attrs,
                                             int *allowzero, onnxshape_diag *diag);

/* Every check of Reshape's rules, without writing any output: on success
 * *count is the element count, *minus_one the index of the -1 (NO_INDEX when
 * there is none) and *value the dim it stands for. have_out says whether the
 * caller has somewhere to write the dims (checked in the documented order). */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    requires attrs == \null || \valid_read(attrs);
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires \valid(count) && \valid(minus_one) && \valid(value) && diag_ok(diag);
    requires (\separated(count, value) && \separated(count, in_dims + (0 .. in_rank - 1)) &&
             \separated(count, shape + (0 .. shape_len - 1)) && \separated(count, attrs) &&
             \separated(count, diag) && \separated(count, minus_one));
    requires \separated(value, in_dims + (0 .. in_rank - 1)) &&
             \separated(value, shape + (0 .. shape_len - 1)) && \separated(value, attrs) &&
             \separated(value, diag) && \separated(value, minus_one);
    requires \separated(minus_one, attrs) && \separated(minus_one, diag) &&
             \separated(minus_one, shape + (0 .. shape_len - 1)) &&
             \separated(minus_one, in_dims + (0 .. in_rank - 1));
    assigns *count, *minus_one, *value, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER: every rule in semantics.md's order.
    ensures \result == plan_status{Pre}(version, type, in_dims, in_rank, shape, shape_len, attrs,
                                        have_out != 0 ? 1 : 0);
    // RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
    ensures \result == ONNXSHAPE_OK ==>
            (shape_len == 0 || shape != \null) && (in_rank == 0 || in_dims != \null) &&
            all_nonneg(in_dims, in_rank);
    ensures \result == ONNXSHAPE_OK ==>
            *count == \old(elem_count(in_dims, in_rank)) && 0 <= *count <= INT64_MAX;
    ensures \result == ONNXSHAPE_OK ==>
            targets_ok(shape, shape_len, in_rank, allowzero_of(attrs)) &&
            (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1);
    ensures \result == ONNXSHAPE_OK ==>
            planned{Pre}(shape, shape_len, in_dims, allowzero_of(attrs), *minus_one, *count, *value);
    // ERROR-MESSAGE
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
onnxshape_status onnxshape__reshape_plan(int version, int32_t type, const int64_t *in_dims,
                                        size_t in_rank, const int64_t *shape, size_t shape_len,
                                        const onnxshape_reshape_attrs *attrs, int have_out,
                                        int64_t *count, size_t *minus_one, int64_t *value,
                                        onnxshape_diag *diag);

/*@ // The status of onnxshape__reshape_check_known: the entry checks (when
    // the type is known), allowzero, then the rules on the target's values.
    logic integer known_status{L}(integer version, integer type, int64_t *s, integer n,
                                  integer r, onnxshape_reshape_attrs *a) =
      type != 0 && entry_status(ONNXSHAPE_OP_RESHAPE, version, type) != ONNXSHAPE_OK ?
        entry_status(ONNXSHAPE_OP_RESHAPE, version, type) :
      allowzero_invalid(version, a) ? ONNXSHAPE_ERR_INVALID_ATTRIBUTE :
      target_status(s, n, r, allowzero_of(a));
*/

/* The rules that involve the target's values alone, for a target known only
 * in part (static inference): version and type (type 0: not known, not
 * checked), allowzero, then each value from left to right (below -1, a
 * second -1, a 0 past the data's rank) and allowzero=1 with a 0 and a -1,
 * with the kernels' statuses and messages. A value that is not known is
 * given as 1, which none of these rules rejects; in_rank is SIZE_MAX when the
 * data's rank is not known. */
/*@ requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires attrs == \null || \valid_read(attrs);
    requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-ZERO-COPY-RANGE
    // RESHAPE-ALLOWZERO-INFERRED
    ensures \result == known_status(version, type, shape, shape_len, in_rank, attrs);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
onnxshape_status onnxshape__reshape_check_known(int version, int32_t type, const int64_t *shape,
                                               size_t shape_len, size_t in_rank,
                                               const onnxshape_reshape_attrs *attrs,
                                               onnxshape_diag *diag);

#endif
