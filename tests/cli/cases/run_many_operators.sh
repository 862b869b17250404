# covers: RUN-UNSUPPORTED DIAG-PINNED
# run refuses a model with 70 operators it does not execute: the message
# lists those that fit and says how many nodes it left out.
"$ONNXSHAPE" run seventy_ops.onnx; echo "exit $?"
