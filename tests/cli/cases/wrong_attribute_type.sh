$ONNXSHAPE run wrong_attr_type.onnx
