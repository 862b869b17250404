# covers: RESHAPE-SCALAR RESHAPE-COUNT DIAG-PINNED
# An empty target means a scalar: 24 elements, or none, do not fit it, and
# the message says so with the data's count.
"$ONNXSHAPE" run scalar_target.onnx -i x234.pb; echo "exit $?"
"$ONNXSHAPE" run scalar_target.onnx -i x0.pb; echo "exit $?"
