$ONNXSHAPE run not_produced.onnx -i x234.pb
