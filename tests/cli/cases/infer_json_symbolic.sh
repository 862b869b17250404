# covers: CLI-JSON
# Symbols, unknown dims and an unknown rank in JSON.
$ONNXSHAPE infer --json infer_symbolic.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py infer < "$OUT/j"
