# covers: CHECK-RULES ANALYSIS-FINDINGS
# Operators ONNX deprecated (onnx's checker refuses them): Upsample from
# opset 10 and Scatter from 11, an error of check each, with the operator
# that replaces it; the family `validity` selects the rule. Upsample at
# opset 9 is fine. infer still analyses the deprecated Upsample as its last
# version (its shape from the scales is not known here: the scales are an
# input).
"$ONNXSHAPE" check deprecated_ops.onnx; echo "exit $?"
"$ONNXSHAPE" check --json deprecated_ops.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j" | tail -1
"$ONNXSHAPE" check --select validity deprecated_ops.onnx; echo "exit $?"
"$ONNXSHAPE" check --ignore validity/deprecated deprecated_ops.onnx; echo "exit $?"
"$ONNXSHAPE" check upsample9.onnx; echo "exit $?"
"$ONNXSHAPE" infer deprecated_ops.onnx; echo "exit $?"
# In a function's body its own import counts (opset 11 there, 9 in the
# model); each finding names the call's path.
"$ONNXSHAPE" check deprecated_function.onnx; echo "exit $?"
