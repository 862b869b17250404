$ONNXSHAPE --version
