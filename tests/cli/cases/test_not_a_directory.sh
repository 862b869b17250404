$ONNXSHAPE test demo.onnx
