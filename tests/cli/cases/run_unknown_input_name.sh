$ONNXSHAPE run demo.onnx -i y=demo_input.pb
