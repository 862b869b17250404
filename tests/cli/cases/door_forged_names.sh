# covers: TEXT-ESCAPE
# Names holding newlines, tabs and backslashes are escaped in every kind of
# output: run's results, infer's values, check's findings and error lines.
$ONNXSHAPE run forged_run.onnx -i x23.pb
$ONNXSHAPE infer forged_run.onnx
$ONNXSHAPE infer forged_names.onnx
echo "exit $?"
$ONNXSHAPE check --profile sonnx forged_names.onnx
echo "exit $?"
