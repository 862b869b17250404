# covers: ANALYSIS-LOAD
# A model with an operator run does not execute (Relu) loads and is
# checked like any other.
$ONNXSHAPE check --profile=sonnx unsupported_op.onnx
