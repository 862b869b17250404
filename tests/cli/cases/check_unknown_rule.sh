# covers: CHECK-RULES
# A rule id check does not know is a usage error listing the known ones;
# so are a partial family name, an empty id in a list and a missing value.
"$ONNXSHAPE" check --select nonsense demo.onnx; echo "exit $?"
"$ONNXSHAPE" check --ignore portability/D demo.onnx; echo "exit $?"
"$ONNXSHAPE" check --select domain, demo.onnx; echo "exit $?"
"$ONNXSHAPE" check --ignore "$(printf 'bad\033rule')" demo.onnx; echo "exit $?"
"$ONNXSHAPE" check demo.onnx --select; echo "exit $?"
