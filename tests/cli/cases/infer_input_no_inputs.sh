# covers: ANALYSIS-BINDINGS DIAG-PINNED
# --input on a model that has no graph inputs: the message says it has none.
"$ONNXSHAPE" infer no_inputs.onnx --input q=1; echo "exit $?"
