$ONNXSHAPE run bad_target.onnx -i x234.pb
