# covers: TEXT-ESCAPE ERROR-MESSAGE
# A 400-byte node name is shortened in the middle: the rule stays whole.
$ONNXSHAPE run long_name.onnx -i x23.pb
