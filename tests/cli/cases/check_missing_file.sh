$ONNXSHAPE check --profile sonnx no-such-model.onnx
