$ONNXSHAPE run id_string.onnx -i strings_raw.pb
