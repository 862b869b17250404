$ONNXSHAPE run demo.onnx -i short_raw.pb
