# covers: CLI-HELP
# onnxshape help CMD prints the same page as CMD --help; -h anywhere but as
# an option's value; help without a command is the overview.
$ONNXSHAPE help infer > "$OUT/a" && $ONNXSHAPE infer --help > "$OUT/b" && cmp "$OUT/a" "$OUT/b" && echo same
$ONNXSHAPE run demo.onnx -i demo_input.pb -h | head -1
$ONNXSHAPE check --profile -h demo.onnx; echo "exit $?"
$ONNXSHAPE infer --dim -h demo.onnx; echo "exit $?"
$ONNXSHAPE infer --input -h demo.onnx; echo "exit $?"
$ONNXSHAPE help | head -1
$ONNXSHAPE help nothing; echo "exit $?"
$ONNXSHAPE help run test; echo "exit $?"
