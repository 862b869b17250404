$ONNXSHAPE check demo.onnx
