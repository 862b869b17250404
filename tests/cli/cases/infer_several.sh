# covers: CLI-BINDINGS ANALYSIS-JSON
# infer with several MODELs: each after '==> MODEL <==', the same options
# for each; exit status the worst. A missing file is reported and the next
# model follows (exit 2); a node certain to fail is exit 1; a binding that
# names nothing in one model is a usage error for that model only (exit 2);
# so is a --why NAME one model lacks. JSON: "model" on every object.
"$ONNXSHAPE" infer --ops shape demo.onnx why.onnx
echo "exit $?"
"$ONNXSHAPE" infer --ops shape demo.onnx two_minus_one.onnx
echo "exit $?"
"$ONNXSHAPE" infer --ops shape missing.onnx two_minus_one.onnx demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer --input z=2,6 --ops shape demo.onnx why.onnx
echo "exit $?"
"$ONNXSHAPE" infer --why count demo.onnx why.onnx
echo "exit $?"
"$ONNXSHAPE" infer --json --ops shape demo.onnx why.onnx
"$ONNXSHAPE" infer --json --ops shape demo.onnx why.onnx | /usr/bin/python3 json_check.py infer --several | tail -1
"$ONNXSHAPE" infer --json --why x demo.onnx why.onnx
"$ONNXSHAPE" infer --json --why x demo.onnx why.onnx | /usr/bin/python3 json_check.py why --several | tail -1
