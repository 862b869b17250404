$ONNXSHAPE run bad_target.onnx -i x6.pb
