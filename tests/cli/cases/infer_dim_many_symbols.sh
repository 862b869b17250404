# covers: ANALYSIS-BINDINGS DIAG-PINNED
# --dim naming no symbol of a model with more symbols than the message holds:
# the symbols that fit, then how many more.
"$ONNXSHAPE" infer many_symbols.onnx --dim nosuch=1; echo "exit $?"
