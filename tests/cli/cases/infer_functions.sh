# covers: ANALYSIS-FUNCTIONS ANALYSIS-JSON
# Model-local functions: Flatten2 (Shape, Concat, Reshape with allowzero
# taken from the call's `az`) called on [N,3,4] and [2,5], and from inside
# another function (Twice, which also counts the elements with Size). Each
# call's body is analysed on its own inputs, under the path CALL/DOMAIN:NAME.
"$ONNXSHAPE" infer functions.onnx
echo "exit $?"
"$ONNXSHAPE" infer --json functions.onnx > "$OUT/json"
cat "$OUT/json"
/usr/bin/python3 json_check.py infer < "$OUT/json" && echo "schema ok"
# With x empty, Flatten2's -1 meets dims that multiply to 0: certain to
# fail inside the first call's body (docs/divergences.md D7).
"$ONNXSHAPE" infer --input x=0,3,4 functions.onnx
echo "exit $?"
"$ONNXSHAPE" infer --input x=2,3,4 functions.onnx | grep -E "^(y1|y3|n3): "
