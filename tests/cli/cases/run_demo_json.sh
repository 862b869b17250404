$ONNXSHAPE run demo.onnx -i x=demo_input.pb --json
