# covers: ANALYSIS-OPS-VIEW ANALYSIS-WHY CLI-HELP
# --ops takes shape or all; --why takes a name, once, and not with --ops shape.
"$ONNXSHAPE" infer demo.onnx --ops
echo "exit $?"
"$ONNXSHAPE" infer --ops every demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer demo.onnx --why
echo "exit $?"
"$ONNXSHAPE" infer --why count --why x demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer --why count --ops shape demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer --why counts demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer --why "$(printf 'no\nsuch')" demo.onnx
