$ONNXSHAPE infer two_minus_one.onnx
