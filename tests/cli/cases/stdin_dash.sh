# covers: CLI-BINDINGS ANALYSIS-JSON
# '-' reads a model (infer, run) or a tensor (run -i -, -i NAME=-) from
# standard input, whole, before parsing; it is named <stdin> in what is
# printed; once per call; check refuses it; a file named '-' is ./-.
"$ONNXSHAPE" infer --ops shape - < demo.onnx
"$ONNXSHAPE" infer --why count - demo.onnx < demo.onnx
"$ONNXSHAPE" infer --json --ops shape demo.onnx - < why.onnx | tail -1
"$ONNXSHAPE" run - -i demo_input.pb < demo.onnx
"$ONNXSHAPE" run demo.onnx -i x=- < demo_input.pb
"$ONNXSHAPE" run demo.onnx -i - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer - < garbage.onnx
echo "exit $?"
"$ONNXSHAPE" infer - < /dev/null
echo "exit $?"
"$ONNXSHAPE" infer - - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" run - -i - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" check - < demo.onnx
echo "exit $?"
cp demo.onnx ./-
"$ONNXSHAPE" infer --ops shape ./- < /dev/null | tail -1
rm -f ./-
