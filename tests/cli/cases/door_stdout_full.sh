# covers: OUTPUT-STREAMS
# Output that cannot be written (a full device) is an error, never exit 0.
$ONNXSHAPE run demo.onnx -i demo_input.pb > /dev/full; echo "run exit $?"
$ONNXSHAPE run demo.onnx -i demo_input.pb --json > /dev/full; echo "run --json exit $?"
$ONNXSHAPE infer demo.onnx > /dev/full; echo "infer exit $?"
$ONNXSHAPE check --profile sonnx sonnx_ok.onnx > /dev/full; echo "check exit $?"
$ONNXSHAPE test bt_ok > /dev/full; echo "test exit $?"
$ONNXSHAPE --help > /dev/full; echo "help exit $?"
$ONNXSHAPE run demo.onnx -i missing.pb 2> /dev/full; echo "error to a full stderr exit $?"
