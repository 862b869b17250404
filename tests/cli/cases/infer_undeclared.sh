# covers: ANALYSIS-INPUT-SYMBOLS
# A graph input's dim that declares neither a number nor a symbol is a
# symbol of its own, "<input>_d<i>" (as onnxruntime's
# symbolic_shape_infer.py names them), made unique with "#k" where the model
# declares that name itself (w's x_d0): every value measured from it is then
# an expression (xf: 3 * x's two undeclared dims).
"$ONNXSHAPE" infer undeclared.onnx
"$ONNXSHAPE" infer --json undeclared.onnx
# --why says such a dim is bound with --input (--dim binds declared symbols).
"$ONNXSHAPE" infer --why xf undeclared.onnx
"$ONNXSHAPE" infer --dim "x_d2=4" undeclared.onnx; echo "exit $?"
# Bound: numbers.
"$ONNXSHAPE" infer --input x=2,3,4 undeclared.onnx
# --write-model declares the symbols, so the written model reads the same.
"$ONNXSHAPE" infer undeclared.onnx --write-model "$OUT/named.onnx" > /dev/null && \
  "$ONNXSHAPE" infer "$OUT/named.onnx"
