# covers: ANALYSIS-OPS ANALYSIS-FINDINGS
# Squeeze with an empty axes list (issue 30): Squeeze-11 squeezes every dim
# of 1, as onnxruntime and the ONNX reference do, so Reshape(y, [0]) keeps
# [3] (it was reported certain to fail); Squeeze-13 with an empty axes input
# is where implementations differ (D11): not evaluated, a portability
# finding, and no certainty about the Reshape after it.
"$ONNXSHAPE" infer squeeze11_empty.onnx; echo "exit $?"
"$ONNXSHAPE" infer squeeze13_empty.onnx; echo "exit $?"
"$ONNXSHAPE" check squeeze13_empty.onnx; echo "exit $?"
