$ONNXSHAPE run mismatch.onnx -i x234.pb
