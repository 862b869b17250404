$ONNXSHAPE run int4_in_v19.onnx -i int4x3.pb
