# covers: ANALYSIS-LOAD
# A model with an operator onnxshape does not evaluate (Relu) loads and is
# checked like any other.
$ONNXSHAPE check --profile=sonnx unsupported_op.onnx
