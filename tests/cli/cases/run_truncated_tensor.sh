$ONNXSHAPE run demo.onnx -i truncated.pb
