# covers: ANALYSIS-OPS ANALYSIS-EXPR
# Integer operators on element values that are expressions (make_data.py,
# int_exprs.onnx): uint64 keeps x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1,
# min(x, x) and x - x, nothing that depends on the value (x * x); int64
# compares a value with itself, negates it, takes the absolute value of
# dims (>= 0) and clips it to a constant.
"$ONNXSHAPE" infer int_exprs.onnx
