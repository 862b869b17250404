$ONNXSHAPE infer infer_symbolic.onnx
