# covers: JSON-UTF8
# Names and string values that are not UTF-8: --json stays valid JSON (the
# parser below is strict about everything else), and the bytes come back
# exactly through Python's surrogateescape.
$ONNXSHAPE run json_bytes.onnx --json > "$OUT/json"
echo "exit $?"
/usr/bin/python3 - "$OUT/json" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")  # the output itself is valid UTF-8
for line in raw.decode("utf-8").split("\n")[:-1]:
    o = json.loads(line)
    print(o["name"].encode("utf-8", "surrogateescape"), o["type"], o["dims"])
    print([v.encode("utf-8", "surrogateescape") for v in o["values"]])
PY
$ONNXSHAPE run json_bytes.onnx
