# covers: RUN-UNSUPPORTED
# run names every operator it cannot execute, with its count, in one message.
"$ONNXSHAPE" run analysis.onnx
