$ONNXSHAPE run other_domain.onnx
