# covers: TEST-SUITE
# A directory without model.onnx is a suite: its test_* directories (a
# symbolic link to one too) run in name order, each named by its path; a
# file named test_* and a directory named otherwise are not cases. A model
# with an operator run does not execute is skipped, not failed; the last
# line counts each. "suite/" does not double the slash.
$ONNXSHAPE test suite/; echo "exit $?"
# Skipped only: exit 0.
$ONNXSHAPE test suite/test_relu suite/test_pass; echo "exit $?"
# --strict: a skip is a failure.
$ONNXSHAPE test --strict suite/test_relu suite/test_pass; echo "exit $?"
$ONNXSHAPE test --json suite bt_ok > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py test < "$OUT/j"
