/* SPDX-License-Identifier: Apache-2.0 */
/* ANALYSIS-OPS: the operators static analysis evaluates on small integer
 * tensors, or enters (If, Loop, Scan), besides the kernels, Constant and
 * Identity, with their since_versions up to opset 25 (the ONNX operator
 * documentation, onnx.ai/onnx/operators). The one table of them: the loader
 * names nodes with it, src/runtime/analysis.c evaluates them. */
#ifndef ONNXSHAPE_AOPS_H
#define ONNXSHAPE_AOPS_H

#include <stdint.h>

/* X(ID, "Name", since_version...) */
#define ONNXSHAPE__ANALYSIS_OPS(X)                                \
  X(CAST, "Cast", 1, 6, 9, 13, 19, 21, 23, 24, 25)               \
  X(GATHER, "Gather", 1, 11, 13)                                 \
  X(SLICE, "Slice", 1, 10, 11, 13)                               \
  X(CONCAT, "Concat", 1, 4, 11, 13)                              \
  X(UNSQUEEZE, "Unsqueeze", 1, 11, 13, 21, 23, 24, 25)           \
  X(SQUEEZE, "Squeeze", 1, 11, 13, 21, 23, 24, 25)               \
  X(ADD, "Add", 1, 6, 7, 13, 14)                                 \
  X(SUB, "Sub", 1, 6, 7, 13, 14)                                 \
  X(MUL, "Mul", 1, 6, 7, 13, 14)                                 \
  X(DIV, "Div", 1, 6, 7, 13, 14)                                 \
  X(EQUAL, "Equal", 1, 7, 11, 13, 19)                            \
  X(NOT, "Not", 1)                                               \
  X(WHERE, "Where", 9, 16)                                       \
  X(CONSTANT_OF_SHAPE, "ConstantOfShape", 9, 20, 21, 23, 24, 25) \
  X(RANGE, "Range", 11)                                          \
  X(REDUCE_PROD, "ReduceProd", 1, 11, 13, 18)                    \
  X(MIN, "Min", 1, 6, 8, 12, 13)                                 \
  X(MAX, "Max", 1, 6, 8, 12, 13)                                 \
  X(IF, "If", 1, 11, 13, 16, 19, 21, 23, 24, 25)                 \
  X(LOOP, "Loop", 1, 11, 13, 16, 19, 21, 23, 24, 25)             \
  X(SCAN, "Scan", 8, 9, 11, 16, 19, 21, 23, 24, 25)

#define ONNXSHAPE__AOP_ENUM(id, name, ...) AOP_##id,
typedef enum aop { ONNXSHAPE__ANALYSIS_OPS(ONNXSHAPE__AOP_ENUM) AOP_COUNT } aop;
#undef ONNXSHAPE__AOP_ENUM

/* The analysis operator called `name` (default domain): 1 and *op, *version
 * (its version at `opset`, 0 when it does not exist yet at that opset), or 0
 * when `name` is none of them. (src/onnx/aops.c) */
int onnxshape__aop_find(const char *name, int64_t opset, aop *op, int *version);
/* Its name. */
const char *onnxshape__aop_name(aop op);

#endif
