$ONNXSHAPE run garbage.onnx
