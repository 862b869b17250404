# covers: OUTPUT-ALL-OR-NOTHING
# -o naming a regular file, or a directory that does not exist, is refused
# before any work, with the reason stated as it is.
$ONNXSHAPE run demo.onnx -i demo_input.pb -o demo.onnx; echo "exit $?"
$ONNXSHAPE run demo.onnx -i demo_input.pb -o no/such/dir; echo "exit $?"
