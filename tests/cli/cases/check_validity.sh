# covers: CHECK-RULES ANALYSIS-FINDINGS
# A default-domain operator ONNX does not define (FooBar, also in both
# branches of an If) and one used before its first version (Gelu, defined
# from opset 20, in a model of opset 17) are errors of check; infer and run
# behave as before (such a node is an operator they do not analyse).
"$ONNXSHAPE" check invalid_ops.onnx; echo "exit $?"
"$ONNXSHAPE" check --json invalid_ops.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
"$ONNXSHAPE" check --select validity/opset invalid_ops.onnx; echo "exit $?"
"$ONNXSHAPE" check gelu20.onnx; echo "exit $?"
"$ONNXSHAPE" infer invalid_ops.onnx; echo "exit $?"
# In a function's body: its own opset import counts; the finding names the
# call (graph "call/custom:Early"), and a Gelu of the main graph, at the
# model's opset 21, is fine.
"$ONNXSHAPE" check invalid_ops_function.onnx; echo "exit $?"
"$ONNXSHAPE" check --json invalid_ops_function.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
