# covers: ANALYSIS-OPS
# Each integer operator of analysis on numbers and symbols: x + 0 and x * 1
# keep N, x - x is 0, an overflow and a division by zero are unknown, Div
# truncates toward zero, broadcasting, Range up and down, ReduceProd,
# ConstantOfShape with and without a value, Squeeze/Unsqueeze in attribute
# form, a reversing Slice clamped from INT64_MIN, Gather with a negative
# index, casts in and out of range (a symbol survives a cast to int64, and
# to uint64 when it is certain to be >= 0: N but not N - 5; not to int32,
# where a dim of 2^31 or more would wrap, nor to uint8).
"$ONNXSHAPE" infer arith.onnx
