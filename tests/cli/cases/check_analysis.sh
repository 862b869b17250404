# covers: ANALYSIS-FINDINGS
# A declared shape that contradicts the computed one, a portability risk, and
# a node that cannot succeed in a branch that may not run (a finding of
# check; infer still exits 0).
"$ONNXSHAPE" check analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --json analysis.onnx > "$OUT/json"; echo "exit $?"
cat "$OUT/json"
/usr/bin/python3 json_check.py check < "$OUT/json" && echo "schema ok"
