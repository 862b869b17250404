$ONNXSHAPE check --profile sonnx sonnx_sparse.onnx
