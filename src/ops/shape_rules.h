/* SPDX-License-Identifier: Apache-2.0 */
/* Shape's clamp of start and end (SHAPE-CLAMP): the one rule, for the
 * kernel (shape.c, where it is proved) and for static analysis
 * (src/runtime/analysis.c), which slices symbolic dims the kernel's way. */
#ifndef ONNXSHAPE_SHAPE_RULES_H
#define ONNXSHAPE_SHAPE_RULES_H

#include <stdint.h>

/* Adds r to a negative axis, then clamps to [0, r]. Written so that no
 * intermediate overflows, even for INT64_MIN and INT64_MAX. */
/*@ requires 0 <= r;
    // SHAPE-CLAMP
    assigns \nothing;
    ensures \result == clamp_axis(axis, r) && 0 <= \result <= r;
*/
static inline int64_t onnxshape__clamp_axis(int64_t axis, int64_t r) {
  if (axis < 0) {
    return axis < -r ? 0 : axis + r;
  }
  return axis > r ? r : axis;
}

#endif
