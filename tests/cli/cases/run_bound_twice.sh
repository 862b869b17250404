# covers: CLI-BINDINGS
$ONNXSHAPE run demo.onnx -i x=demo_input.pb -i x=demo_input.pb
