# covers: CLI-CHECK-CORE CHECK-RULES
# check with several MODELs: each in turn, every line naming its model; the
# options (--select, --ignore, --strict, --profile) apply to each, and the
# exit status is the worst: a warning passes without --strict and fails
# with it; an error is 1; a missing file 2, the others still checked.
"$ONNXSHAPE" check demo.onnx findings.onnx
echo "exit $?"
"$ONNXSHAPE" check --ignore domain demo.onnx findings.onnx
echo "exit $?"
"$ONNXSHAPE" check --ignore domain --strict demo.onnx findings.onnx
echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --select sonnx demo.onnx findings.onnx
echo "exit $?"
"$ONNXSHAPE" check findings.onnx missing.onnx demo.onnx
echo "exit $?"
"$ONNXSHAPE" check --json demo.onnx findings.onnx | /usr/bin/python3 json_check.py check --several
