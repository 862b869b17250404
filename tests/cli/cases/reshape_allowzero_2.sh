$ONNXSHAPE run allowzero2.onnx -i x234.pb
