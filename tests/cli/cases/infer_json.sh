# covers: CLI-JSON
$ONNXSHAPE infer --json demo.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py infer < "$OUT/j"
