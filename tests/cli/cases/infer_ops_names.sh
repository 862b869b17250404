# covers: ANALYSIS-OPS-VIEW TEXT-ESCAPE
# infer --ops shape with hostile names (escaped as everywhere) and a
# 400-byte node name: printed whole, the rest of its row on the next line
# at its columns. Both models hold a node certain to fail (exit 1).
"$ONNXSHAPE" infer --ops shape forged_names.onnx
echo "exit $?"
"$ONNXSHAPE" infer --ops shape long_name.onnx
