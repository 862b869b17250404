$ONNXSHAPE run demo.onnx
