# covers: ANALYSIS-FUNCTIONS ANALYSIS-FINDINGS
# Graphs a call passes into a function's body see the caller's names (x);
# two calls of one name get two paths (pick, pick#3); a conflict on a
# call's output names its function; a default-domain function named Relu
# does not replace ONNX's Relu (evaluated as ONNX's).
"$ONNXSHAPE" infer function_scopes.onnx
echo "exit $?"
"$ONNXSHAPE" infer --json function_scopes.onnx > "$OUT/json"
/usr/bin/python3 json_check.py infer < "$OUT/json" && echo "schema ok"
grep '"graph":"pick#3/custom:Pick' "$OUT/json"
"$ONNXSHAPE" check function_scopes.onnx
echo "exit $?"
# Load errors: a reference outside any function, a bad name in an If inside
# a body (named by the branch's path), a function output nothing produces.
"$ONNXSHAPE" infer function_stray_ref.onnx
echo "exit $?"
"$ONNXSHAPE" infer function_bad_branch.onnx
echo "exit $?"
"$ONNXSHAPE" check function_no_output.onnx
echo "exit $?"
"$ONNXSHAPE" infer function_self_output.onnx
echo "exit $?"
"$ONNXSHAPE" infer function_ref_type.onnx
echo "exit $?"
# Every graph's path is unique, also when a node's name holds "/".
"$ONNXSHAPE" infer --json paths_unique.onnx | grep -o '"graph":"[^"]*"' | sort | uniq -c
