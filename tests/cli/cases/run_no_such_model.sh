$ONNXSHAPE run nothing.onnx -i x234.pb
