# covers: CHECK-RULES
# Warnings exit 0, unless --strict; --strict on a model without findings
# exits 0, and on a model with errors 1 as without it.
"$ONNXSHAPE" check squeeze13_empty.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict squeeze13_empty.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict demo.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict --ignore domain findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict --json --select portability findings.onnx; echo "exit $?"
# Under the profile, a model with only warnings conforms: the verdict says
# what the profile's rules looked at.
"$ONNXSHAPE" check --profile sonnx --ignore sonnx functions.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --ignore sonnx --strict functions.onnx; echo "exit $?"
