/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape's rules (reshape.c, each with its message and requirement
 * identifier, in the order of docs/semantics.md): their logic, for the
 * kernel's entry points, their proved accepting path (reshape_fast.h) and
 * static inference (src/runtime/infer.c, analysis.c), and the two rules that
 * static inference calls on its own. */
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
 * data's rank is not known. On success diag (when given) is left empty, as
 * the kernels' entry points leave it (DIAG-STATE): a message of an earlier
 * failure never survives, whether or not the type is known. */
/*@ requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires attrs == \null || \valid_read(attrs);
    requires diag_ok(diag);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-ZERO-COPY-RANGE
    // RESHAPE-ALLOWZERO-INFERRED
    ensures \result == known_status(version, type, shape, shape_len, in_rank, attrs);
    // DIAG-STATE: empty after success (no message of an earlier call
    // survives), a message after failure.
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
onnxshape_status onnxshape__reshape_check_known(int version, int32_t type, const int64_t *shape,
                                               size_t shape_len, size_t in_rank,
                                               const onnxshape_reshape_attrs *attrs,
                                               onnxshape_diag *diag);

#endif
