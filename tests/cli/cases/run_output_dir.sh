$ONNXSHAPE run demo.onnx -i demo_input.pb -o "$OUT" >/dev/null && ls "$OUT" | grep -v -e "^std" -e "^exit$" && $ONNXSHAPE run identity_model.onnx -i "$OUT/output_0.pb"
