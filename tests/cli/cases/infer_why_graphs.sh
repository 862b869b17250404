# covers: ANALYSIS-WHY ANALYSIS-SUBGRAPHS TEXT-ESCAPE
# infer --why in subgraphs: a branch's Reshape reaches a value of the main
# graph (its node's input from around it); a value of the branch not taken
# was never analysed; a node certain to fail ends the chain, and its error
# follows (exit 1); hostile names escaped; a value reached twice (the
# Shape's input and the Reshape's) is printed once.
"$ONNXSHAPE" infer --why tb analysis.onnx
"$ONNXSHAPE" infer --why hsh analysis.onnx
"$ONNXSHAPE" infer --why r analysis.onnx
"$ONNXSHAPE" infer --why y two_minus_one.onnx
echo "exit $?"
"$ONNXSHAPE" infer --why "$(printf 'y\nonnxshape: error: forged')" forged_names.onnx
