$ONNXSHAPE run demo.onnx -i demo_input.pb -i x6.pb
