# covers: LIMIT-MEMORY
# A declared target of 2^62 (or 10^8) values: the output's dims cannot be
# enumerated and stay unknown; nothing is allocated for them.
$ONNXSHAPE infer huge_target.onnx
$ONNXSHAPE infer large_target.onnx
$ONNXSHAPE check --profile sonnx huge_target.onnx
echo "exit $?"
