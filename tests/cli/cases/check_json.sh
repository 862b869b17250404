# covers: CLI-JSON CLI-CHECK-CORE
$ONNXSHAPE check --json findings.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
$ONNXSHAPE check --json --profile sonnx findings.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
$ONNXSHAPE check --profile=sonnx --json demo.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
# A finding about a node has its node ("" when unnamed), domain ("" for the
# default one), op (plain), version (0: the sparse scan names nodes before
# the model loads) and node_index; one about no node (an initializer, a
# graph input) has none of them.
$ONNXSHAPE check --json --profile sonnx sonnx_sparse.onnx > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py check < "$OUT/j"
