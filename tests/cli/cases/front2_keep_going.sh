# covers: ANALYSIS-KEEP-GOING
# A node certain to fail no longer hides the rest of the analysis (issue
# 30): every value and the summary are printed, then the error, exit 1; in
# JSON too.
"$ONNXSHAPE" infer two_minus_one.onnx; echo "exit $?"
"$ONNXSHAPE" infer --json two_minus_one.onnx > "$OUT/json"; echo "exit $?"
cat "$OUT/json"
/usr/bin/python3 json_check.py infer < "$OUT/json" | tail -1
