# covers: ANALYSIS-BINDINGS
# A binding that names no input, beside names that take most of the
# message (review finding 9: the list was cut after "(its graph inputs: "):
# the inputs that fit, then how many more, the sentence closed; for infer
# and run alike.
long=LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL_tensor_input_B
"$ONNXSHAPE" infer long_inputs.onnx --input "$long=2"; echo "exit $?"
"$ONNXSHAPE" run long_inputs.onnx -i "$long=x6.pb" -o "$OUT"; echo "exit $?"
"$ONNXSHAPE" infer long_inputs.onnx --input zz=2; echo "exit $?"
