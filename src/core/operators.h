/* SPDX-License-Identifier: Apache-2.0 */
/* ANALYSIS-REGISTRY: every operator of the default domain (ai.onnx, also
 * spelled "") through opset 28, each with its since_versions (ONNX's
 * docs/Changelog.md; tests/analysis/onnx_ops_versions.json holds the same
 * list as researched, and tests/analysis/registry.py checks the two agree), the analysis
 * handler that infers its outputs, and what else the library does with it.
 * The one table of operators: the loader names nodes with it
 * (src/core/operators.c), static analysis calls the handlers through it
 * (src/runtime/registry.c), docs/operators.md is generated from it.
 *
 * X(ID, "Name", handler, flags, (since_version, ...)), sorted by name in
 * strcmp order. `handler` names onnxshape__an_op_<handler> (src/runtime);
 * `none`: not evaluated, the outputs are what the model declares. Adding an
 * operator: a row here, its handler, and its rows in the analysis tests. */
#ifndef ONNXSHAPE_OPERATORS_H
#define ONNXSHAPE_OPERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

/* Row flags. */
#define OPF_KERNEL 1u /* Shape, Reshape, Size: the kernels (onnxshape_op) */
#define OPF_STRICT 2u /* checked as strictly as the kernels, and run by `run`: the kernels,
                         Constant, Identity */
#define OPF_GRAPHS 4u /* holds graphs analysis enters (If, Loop, Scan, SequenceMap) */
#define OPF_DEPRECATED 8u /* its last since_version is ONNX's deprecation of it: from that
                             opset the operator is gone (Upsample 10, Scatter 11; onnx's
                             checker refuses it there) */

/* A catalog version list (catalog.h) as a row's since_versions. */
#define ONNXSHAPE__V_COMMA(v) v,
#define ONNXSHAPE__CATALOG(op) (ONNXSHAPE__##op##_VERSIONS(ONNXSHAPE__V_COMMA))

#define ONNXSHAPE__OPERATORS(X) \
  X(ABS, "Abs", unary, 0, (1, 6, 13)) \
  X(ACOS, "Acos", unary, 0, (7, 22)) \
  X(ACOSH, "Acosh", unary, 0, (9, 22)) \
  X(ADD, "Add", arith, 0, (1, 6, 7, 13, 14)) \
  X(AFFINE_GRID, "AffineGrid", affine_grid, 0, (20)) \
  X(AND, "And", compare, 0, (1, 7)) \
  X(ARG_MAX, "ArgMax", arg_reduce, 0, (1, 11, 12, 13)) \
  X(ARG_MIN, "ArgMin", arg_reduce, 0, (1, 11, 12, 13)) \
  X(ASIN, "Asin", unary, 0, (7, 22)) \
  X(ASINH, "Asinh", unary, 0, (9, 22)) \
  X(ATAN, "Atan", unary, 0, (7, 22)) \
  X(ATANH, "Atanh", unary, 0, (9, 22)) \
  X(ATTENTION, "Attention", attention, 0, (23, 24, 25)) \
  X(AVERAGE_POOL, "AveragePool", pool, 0, (1, 7, 10, 11, 19, 22)) \
  X(BATCH_NORMALIZATION, "BatchNormalization", batch_norm, 0, (1, 6, 7, 9, 14, 15)) \
  X(BERNOULLI, "Bernoulli", random_like, 0, (15, 22)) \
  X(BIT_CAST, "BitCast", bit_cast, 0, (26)) \
  X(BIT_SHIFT, "BitShift", broadcast, 0, (11)) \
  X(BITWISE_AND, "BitwiseAnd", broadcast, 0, (18)) \
  X(BITWISE_NOT, "BitwiseNot", unary, 0, (18)) \
  X(BITWISE_OR, "BitwiseOr", broadcast, 0, (18)) \
  X(BITWISE_XOR, "BitwiseXor", broadcast, 0, (18)) \
  X(BLACKMAN_WINDOW, "BlackmanWindow", window_function, 0, (17)) \
  X(CAST, "Cast", cast, 0, (1, 6, 9, 13, 19, 21, 23, 24, 25)) \
  X(CAST_LIKE, "CastLike", cast_like, 0, (15, 19, 21, 23, 24, 25)) \
  X(CAUSAL_CONV_WITH_STATE, "CausalConvWithState", causal_conv_with_state, 0, (27)) \
  X(CEIL, "Ceil", unary, 0, (1, 6, 13)) \
  X(CELU, "Celu", unary, 0, (12, 28)) \
  X(CENTER_CROP_PAD, "CenterCropPad", center_crop_pad, 0, (18)) \
  X(CLIP, "Clip", unary, 0, (1, 6, 11, 12, 13)) \
  X(COL2IM, "Col2Im", col2im, 0, (18)) \
  X(COMPRESS, "Compress", compress, 0, (9, 11)) \
  X(CONCAT, "Concat", concat, 0, (1, 4, 11, 13)) \
  X(CONCAT_FROM_SEQUENCE, "ConcatFromSequence", concat_from_sequence, 0, (11)) \
  X(CONSTANT, "Constant", constant, OPF_STRICT, ONNXSHAPE__CATALOG(CONSTANT)) \
  X(CONSTANT_OF_SHAPE, "ConstantOfShape", constant_of_shape, 0, (9, 20, 21, 23, 24, 25)) \
  X(CONV, "Conv", conv, 0, (1, 11, 22)) \
  X(CONV_INTEGER, "ConvInteger", conv_integer, 0, (10)) \
  X(CONV_TRANSPOSE, "ConvTranspose", conv_transpose, 0, (1, 11, 22)) \
  X(COS, "Cos", unary, 0, (7, 22)) \
  X(COSH, "Cosh", unary, 0, (9, 22)) \
  X(CUM_PROD, "CumProd", cumulative, 0, (26)) \
  X(CUM_SUM, "CumSum", cumulative, 0, (11, 14)) \
  X(DFT, "DFT", dft, 0, (17, 20)) \
  X(DEFORM_CONV, "DeformConv", conv, 0, (19, 22)) \
  X(DEPTH_TO_SPACE, "DepthToSpace", depth_space, 0, (1, 11, 13)) \
  X(DEQUANTIZE_LINEAR, "DequantizeLinear", dequantize, 0, (10, 13, 19, 21, 23, 24, 25)) \
  X(DET, "Det", det, 0, (11, 22)) \
  X(DIV, "Div", arith, 0, (1, 6, 7, 13, 14)) \
  X(DROPOUT, "Dropout", dropout, 0, (1, 6, 7, 10, 12, 13, 22)) \
  X(DYNAMIC_QUANTIZE_LINEAR, "DynamicQuantizeLinear", dynamic_quantize, 0, (11)) \
  X(EINSUM, "Einsum", einsum, 0, (12)) \
  X(ELU, "Elu", unary, 0, (1, 6, 22)) \
  X(EQUAL, "Equal", arith, 0, (1, 7, 11, 13, 19)) \
  X(ERF, "Erf", unary, 0, (9, 13)) \
  X(EXP, "Exp", unary, 0, (1, 6, 13)) \
  X(EXPAND, "Expand", expand, 0, (8, 13)) \
  X(EYE_LIKE, "EyeLike", eye_like, 0, (9, 22)) \
  X(FLATTEN, "Flatten", flatten, 0, (1, 9, 11, 13, 21, 23, 24, 25)) \
  X(FLOOR, "Floor", unary, 0, (1, 6, 13)) \
  X(GRU, "GRU", rnn, 0, (1, 3, 7, 14, 22)) \
  X(GATHER, "Gather", gather, 0, (1, 11, 13)) \
  X(GATHER_ELEMENTS, "GatherElements", gather_elements, 0, (11, 13)) \
  X(GATHER_ND, "GatherND", gather_nd, 0, (11, 12, 13)) \
  X(GELU, "Gelu", unary, 0, (20)) \
  X(GEMM, "Gemm", gemm, 0, (1, 6, 7, 9, 11, 13)) \
  X(GLOBAL_AVERAGE_POOL, "GlobalAveragePool", global_pool, 0, (1, 22)) \
  X(GLOBAL_LP_POOL, "GlobalLpPool", global_pool, 0, (1, 2, 22)) \
  X(GLOBAL_MAX_POOL, "GlobalMaxPool", global_pool, 0, (1, 22)) \
  X(GREATER, "Greater", compare, 0, (1, 7, 9, 13)) \
  X(GREATER_OR_EQUAL, "GreaterOrEqual", compare, 0, (12, 16)) \
  X(GRID_SAMPLE, "GridSample", grid_sample, 0, (16, 20, 22)) \
  X(GROUP_NORMALIZATION, "GroupNormalization", unary, 0, (18, 21)) \
  X(HAMMING_WINDOW, "HammingWindow", window_function, 0, (17)) \
  X(HANN_WINDOW, "HannWindow", window_function, 0, (17)) \
  X(HARD_SIGMOID, "HardSigmoid", unary, 0, (1, 6, 22)) \
  X(HARD_SWISH, "HardSwish", unary, 0, (14, 22)) \
  X(HARDMAX, "Hardmax", unary_axis, 0, (1, 11, 13)) \
  X(IDENTITY, "Identity", identity, OPF_STRICT, ONNXSHAPE__CATALOG(IDENTITY)) \
  X(IF, "If", branches, OPF_GRAPHS, (1, 11, 13, 16, 19, 21, 23, 24, 25)) \
  X(IMAGE_DECODER, "ImageDecoder", image_decoder, 0, (20)) \
  X(INSTANCE_NORMALIZATION, "InstanceNormalization", unary, 0, (1, 6, 22)) \
  X(IS_INF, "IsInf", is_class, 0, (10, 20)) \
  X(IS_NAN, "IsNaN", is_class, 0, (9, 13, 20)) \
  X(LRN, "LRN", unary, 0, (1, 13)) \
  X(LSTM, "LSTM", rnn, 0, (1, 7, 14, 22)) \
  X(LAYER_NORMALIZATION, "LayerNormalization", layer_norm, 0, (17)) \
  X(LEAKY_RELU, "LeakyRelu", unary, 0, (1, 6, 16)) \
  X(LESS, "Less", compare, 0, (1, 7, 9, 13)) \
  X(LESS_OR_EQUAL, "LessOrEqual", compare, 0, (12, 16)) \
  X(LINEAR_ATTENTION, "LinearAttention", linear_attention, 0, (27)) \
  X(LOG, "Log", unary, 0, (1, 6, 13)) \
  X(LOG_SOFTMAX, "LogSoftmax", unary_axis, 0, (1, 11, 13)) \
  X(LOOP, "Loop", loop, OPF_GRAPHS, (1, 11, 13, 16, 19, 21, 23, 24, 25)) \
  X(LP_NORMALIZATION, "LpNormalization", unary_axis, 0, (1, 22)) \
  X(LP_POOL, "LpPool", pool, 0, (1, 2, 11, 18, 22)) \
  X(MATMUL, "MatMul", matmul, 0, (1, 9, 13)) \
  X(MATMUL_INTEGER, "MatMulInteger", matmul, 0, (10)) \
  X(MAX, "Max", arith, 0, (1, 6, 8, 12, 13)) \
  X(MAX_POOL, "MaxPool", pool, 0, (1, 8, 10, 11, 12, 22)) \
  X(MAX_ROI_POOL, "MaxRoiPool", roi, 0, (1, 22)) \
  X(MAX_UNPOOL, "MaxUnpool", max_unpool, 0, (9, 11, 22)) \
  X(MEAN, "Mean", broadcast, 0, (1, 6, 8, 13)) \
  X(MEAN_VARIANCE_NORMALIZATION, "MeanVarianceNormalization", unary, 0, (9, 13)) \
  X(MEL_WEIGHT_MATRIX, "MelWeightMatrix", mel_weight_matrix, 0, (17)) \
  X(MIN, "Min", arith, 0, (1, 6, 8, 12, 13)) \
  X(MISH, "Mish", unary, 0, (18, 22)) \
  X(MOD, "Mod", broadcast, 0, (10, 13)) \
  X(MUL, "Mul", arith, 0, (1, 6, 7, 13, 14)) \
  X(MULTINOMIAL, "Multinomial", multinomial, 0, (7, 22)) \
  X(NEG, "Neg", unary, 0, (1, 6, 13)) \
  X(NEGATIVE_LOG_LIKELIHOOD_LOSS, "NegativeLogLikelihoodLoss", loss, 0, (12, 13, 22)) \
  X(NON_MAX_SUPPRESSION, "NonMaxSuppression", non_max_suppression, 0, (10, 11)) \
  X(NON_ZERO, "NonZero", non_zero, 0, (9, 13)) \
  X(NOT, "Not", not, 0, (1)) \
  X(ONE_HOT, "OneHot", one_hot, 0, (9, 11)) \
  X(OPTIONAL, "Optional", optional, 0, (15)) \
  X(OPTIONAL_GET_ELEMENT, "OptionalGetElement", get_element, 0, (15, 18)) \
  X(OPTIONAL_HAS_ELEMENT, "OptionalHasElement", has_element, 0, (15, 18)) \
  X(OR, "Or", compare, 0, (1, 7)) \
  X(PRELU, "PRelu", prelu, 0, (1, 6, 7, 9, 16)) \
  X(PAD, "Pad", pad, 0, (1, 2, 11, 13, 18, 19, 21, 23, 24, 25)) \
  X(POW, "Pow", broadcast, 0, (1, 7, 12, 13, 15)) \
  X(QLINEAR_CONV, "QLinearConv", qlinear_conv, 0, (10)) \
  X(QLINEAR_MATMUL, "QLinearMatMul", matmul, 0, (10, 21)) \
  X(QUANTIZE_LINEAR, "QuantizeLinear", quantize, 0, (10, 13, 19, 21, 23, 24, 25)) \
  X(RMS_NORMALIZATION, "RMSNormalization", unary, 0, (23)) \
  X(RNN, "RNN", rnn, 0, (1, 7, 14, 22)) \
  X(RANDOM_NORMAL, "RandomNormal", random, 0, (1, 22)) \
  X(RANDOM_NORMAL_LIKE, "RandomNormalLike", random_like, 0, (1, 22)) \
  X(RANDOM_UNIFORM, "RandomUniform", random, 0, (1, 22)) \
  X(RANDOM_UNIFORM_LIKE, "RandomUniformLike", random_like, 0, (1, 22)) \
  X(RANGE, "Range", range, 0, (11, 27)) \
  X(RECIPROCAL, "Reciprocal", unary, 0, (1, 6, 13)) \
  X(REDUCE_L1, "ReduceL1", reduce, 0, (1, 11, 13, 18)) \
  X(REDUCE_L2, "ReduceL2", reduce, 0, (1, 11, 13, 18)) \
  X(REDUCE_LOG_SUM, "ReduceLogSum", reduce, 0, (1, 11, 13, 18)) \
  X(REDUCE_LOG_SUM_EXP, "ReduceLogSumExp", reduce, 0, (1, 11, 13, 18)) \
  X(REDUCE_MAX, "ReduceMax", reduce, 0, (1, 11, 12, 13, 18, 20)) \
  X(REDUCE_MEAN, "ReduceMean", reduce, 0, (1, 11, 13, 18)) \
  X(REDUCE_MIN, "ReduceMin", reduce, 0, (1, 11, 12, 13, 18, 20)) \
  X(REDUCE_PROD, "ReduceProd", reduce_prod, 0, (1, 11, 13, 18)) \
  X(REDUCE_SUM, "ReduceSum", reduce, 0, (1, 11, 13)) \
  X(REDUCE_SUM_SQUARE, "ReduceSumSquare", reduce, 0, (1, 11, 13, 18)) \
  X(REGEX_FULL_MATCH, "RegexFullMatch", is_class, 0, (20)) \
  X(RELU, "Relu", unary, 0, (1, 6, 13, 14)) \
  X(RESHAPE, "Reshape", reshape, OPF_KERNEL | OPF_STRICT, ONNXSHAPE__CATALOG(RESHAPE)) \
  X(RESIZE, "Resize", resize, 0, (10, 11, 13, 18, 19)) \
  X(REVERSE_SEQUENCE, "ReverseSequence", reverse_sequence, 0, (10)) \
  X(ROI_ALIGN, "RoiAlign", roi, 0, (10, 16, 22)) \
  X(ROTARY_EMBEDDING, "RotaryEmbedding", unary, 0, (23)) \
  X(ROUND, "Round", unary, 0, (11, 22)) \
  X(STFT, "STFT", stft, 0, (17)) \
  X(SCAN, "Scan", scan, OPF_GRAPHS, (8, 9, 11, 16, 19, 21, 23, 24, 25)) \
  X(SCATTER, "Scatter", scatter, OPF_DEPRECATED, (9, 11)) \
  X(SCATTER_ELEMENTS, "ScatterElements", scatter, 0, (11, 13, 16, 18)) \
  X(SCATTER_ND, "ScatterND", scatter, 0, (11, 13, 16, 18)) \
  X(SELU, "Selu", unary, 0, (1, 6, 22)) \
  X(SEQUENCE_AT, "SequenceAt", sequence_at, 0, (11)) \
  X(SEQUENCE_CONSTRUCT, "SequenceConstruct", sequence_construct, 0, (11)) \
  X(SEQUENCE_EMPTY, "SequenceEmpty", sequence_empty, 0, (11)) \
  X(SEQUENCE_ERASE, "SequenceErase", sequence_erase, 0, (11)) \
  X(SEQUENCE_INSERT, "SequenceInsert", sequence_insert, 0, (11)) \
  X(SEQUENCE_LENGTH, "SequenceLength", sequence_length, 0, (11)) \
  X(SEQUENCE_MAP, "SequenceMap", sequence_map, OPF_GRAPHS, (17)) \
  X(SHAPE, "Shape", shape, OPF_KERNEL | OPF_STRICT, ONNXSHAPE__CATALOG(SHAPE)) \
  X(SHRINK, "Shrink", unary, 0, (9)) \
  X(SIGMOID, "Sigmoid", unary, 0, (1, 6, 13)) \
  X(SIGN, "Sign", unary, 0, (9, 13)) \
  X(SIN, "Sin", unary, 0, (7, 22)) \
  X(SINH, "Sinh", unary, 0, (9, 22)) \
  X(SIZE, "Size", size, OPF_KERNEL | OPF_STRICT, ONNXSHAPE__CATALOG(SIZE)) \
  X(SLICE, "Slice", slice, 0, (1, 10, 11, 13)) \
  X(SOFTMAX, "Softmax", unary_axis, 0, (1, 11, 13)) \
  X(SOFTMAX_CROSS_ENTROPY_LOSS, "SoftmaxCrossEntropyLoss", loss, 0, (12, 13)) \
  X(SOFTPLUS, "Softplus", unary, 0, (1, 22)) \
  X(SOFTSIGN, "Softsign", unary, 0, (1, 22)) \
  X(SPACE_TO_DEPTH, "SpaceToDepth", depth_space, 0, (1, 13)) \
  X(SPLIT, "Split", split, 0, (1, 2, 11, 13, 18)) \
  X(SPLIT_TO_SEQUENCE, "SplitToSequence", split_to_sequence, 0, (11, 24)) \
  X(SQRT, "Sqrt", unary, 0, (1, 6, 13)) \
  X(SQUEEZE, "Squeeze", squeeze, 0, (1, 11, 13, 21, 23, 24, 25)) \
  X(STRING_CONCAT, "StringConcat", broadcast, 0, (20)) \
  X(STRING_NORMALIZER, "StringNormalizer", string_normalizer, 0, (10)) \
  X(STRING_SPLIT, "StringSplit", string_split, 0, (20)) \
  X(SUB, "Sub", arith, 0, (1, 6, 7, 13, 14)) \
  X(SUM, "Sum", broadcast, 0, (1, 6, 8, 13)) \
  X(SWI_GLU, "SwiGLU", swiglu, 0, (28)) \
  X(SWISH, "Swish", unary, 0, (24)) \
  X(TAN, "Tan", unary, 0, (7, 22)) \
  X(TANH, "Tanh", unary, 0, (1, 6, 13)) \
  X(TENSOR_SCATTER, "TensorScatter", scatter, 0, (24)) \
  X(TF_IDF_VECTORIZER, "TfIdfVectorizer", tfidf, 0, (9)) \
  X(THRESHOLDED_RELU, "ThresholdedRelu", unary, 0, (10, 22)) \
  X(TILE, "Tile", tile, 0, (1, 6, 13)) \
  X(TOP_K, "TopK", top_k, 0, (1, 10, 11, 24)) \
  X(TRANSPOSE, "Transpose", transpose, 0, (1, 13, 21, 23, 24, 25)) \
  X(TRILU, "Trilu", trilu, 0, (14)) \
  X(UNIQUE, "Unique", unique, 0, (11)) \
  X(UNSQUEEZE, "Unsqueeze", unsqueeze, 0, (1, 11, 13, 21, 23, 24, 25)) \
  X(UPSAMPLE, "Upsample", resize, OPF_DEPRECATED, (1, 7, 9, 10)) \
  X(WHERE, "Where", arith, 0, (9, 16)) \
  X(XOR, "Xor", compare, 0, (1, 7))

#define ONNXSHAPE__OP_ENUM(id, name, handler, flags, since) OP_##id,
/* The operators by row; OP_OTHER for any other (another domain, an
 * operator ONNX does not define). */
typedef enum operator_id { ONNXSHAPE__OPERATORS(ONNXSHAPE__OP_ENUM) OP_OTHER } operator_id;
#undef ONNXSHAPE__OP_ENUM
#define OP_COUNT ((size_t)OP_OTHER)

/* The default-domain operator called `name`: 1 with *op and *version (the
 * newest since_version at `opset`, 0 when the operator is newer than the
 * opset), or 0 when ONNX defines no such operator. */
int onnxshape__op_find(const char *name, int64_t opset, operator_id *op, int *version);
/* Its name ("" for OP_OTHER), its flags, its since_versions (*n of them). */
const char *onnxshape__op_name(operator_id op);
unsigned onnxshape__op_flags(operator_id op);
const uint8_t *onnxshape__op_since(operator_id op, size_t *n);

#endif
