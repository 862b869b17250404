# covers: CHECK-RULES
# Warnings exit 0, unless --strict; --strict on a model without findings
# exits 0, and on a model with errors 1 as without it.
"$ONNXSHAPE" check squeeze13_empty.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict squeeze13_empty.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict demo.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict --ignore domain findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --strict --json --select portability findings.onnx; echo "exit $?"
# Under the profile with its rules left out (--ignore sonnx), there is no
# verdict of conformance: the summary says why (check_sonnx_ok shows the
# verdict of a model with no finding).
"$ONNXSHAPE" check --profile sonnx --ignore sonnx functions.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --ignore sonnx --strict functions.onnx; echo "exit $?"
