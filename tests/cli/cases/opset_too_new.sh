$ONNXSHAPE run opset29.onnx
