$ONNXSHAPE run two_minus_one.onnx -i x234.pb
