$ONNXSHAPE check --profile misra demo.onnx
