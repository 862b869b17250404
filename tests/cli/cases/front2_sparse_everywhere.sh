# covers: PROFILE-SPARSE-EVERYWHERE
# A sparse tensor below the main graph (issue 30): an If branch's sparse
# initializer, a SPARSE_TENSOR attribute in the other branch, a Loop body's
# value_info, a function's value_info and attribute default, and a
# main-graph input that is a sequence of sparse tensors: every one found,
# each naming its graph.
"$ONNXSHAPE" check --profile sonnx sparse_everywhere.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --json sparse_everywhere.onnx > "$OUT/json"; echo "exit $?"
/usr/bin/python3 json_check.py check < "$OUT/json" | tail -1
