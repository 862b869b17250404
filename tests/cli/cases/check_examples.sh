# covers: CLI-CHECK-CORE SHAPE-DEFAULTS RESHAPE-ONE-INFERRED
# The bundled examples: the demo conforms; findings.onnx shows findings with
# and without the profile.
$ONNXSHAPE check --profile sonnx demo.onnx; echo "exit $?"
$ONNXSHAPE check findings.onnx; echo "exit $?"
$ONNXSHAPE check --profile sonnx findings.onnx; echo "exit $?"
