$ONNXSHAPE infer demo.onnx
