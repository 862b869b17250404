# covers: ANALYSIS-JSON ANALYSIS-SUBGRAPHS
"$ONNXSHAPE" infer --json analysis.onnx > "$OUT/json"
cat "$OUT/json"
/usr/bin/python3 json_check.py infer < "$OUT/json" && echo "schema ok"
