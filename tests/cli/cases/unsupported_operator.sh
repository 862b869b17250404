$ONNXSHAPE run unsupported_op.onnx
