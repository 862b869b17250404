$ONNXSHAPE run untyped_input.onnx
