$ONNXSHAPE run demo.onnx -i demo_input.pb
