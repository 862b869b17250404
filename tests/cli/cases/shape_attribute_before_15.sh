$ONNXSHAPE run shape_attr_v13.onnx
