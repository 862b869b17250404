$ONNXSHAPE check --profile=sonnx unsupported_op.onnx
