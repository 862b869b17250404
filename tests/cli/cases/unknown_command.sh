$ONNXSHAPE frobnicate
