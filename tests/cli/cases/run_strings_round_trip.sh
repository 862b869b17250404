$ONNXSHAPE run id_string.onnx -i t_string.pb -o "$OUT" && $ONNXSHAPE run id_string.onnx -i "$OUT/output_0.pb" --json
