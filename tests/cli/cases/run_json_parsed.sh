# covers: CLI-JSON
$ONNXSHAPE run demo.onnx -i demo_input.pb --json > "$OUT/j"; echo "exit $?"
/usr/bin/python3 json_check.py run < "$OUT/j"
