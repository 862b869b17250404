# covers: ANALYSIS-BINDINGS
# --input fixes a graph input's dims, --dim binds a symbol everywhere.
"$ONNXSHAPE" infer analysis.onnx --input x=2,64 | grep -E '^(r|s|n0|target|summary):'
"$ONNXSHAPE" infer analysis.onnx --dim N=0 | grep -E '^(r|s|summary):'
echo "--- errors"
"$ONNXSHAPE" infer analysis.onnx --input x=2,63; echo "exit $?"
"$ONNXSHAPE" infer analysis.onnx --input x=2; echo "exit $?"
"$ONNXSHAPE" infer analysis.onnx --input nope=1; echo "exit $?"
"$ONNXSHAPE" infer analysis.onnx --input x=2,-1; echo "exit $?"
"$ONNXSHAPE" infer analysis.onnx --input x=2,64 --input x=3,64; echo "exit $?"
"$ONNXSHAPE" infer analysis.onnx --dim N; echo "exit $?"
