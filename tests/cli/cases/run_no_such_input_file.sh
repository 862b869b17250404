$ONNXSHAPE run demo.onnx -i nothing.pb
