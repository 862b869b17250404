$ONNXSHAPE --help
