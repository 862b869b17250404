# covers: ANALYSIS-DECLARED
# What a node computes is joined with what the model declares (issue 30):
# the Gather's output, unknown because its input is the output of an
# operator of another domain, takes the declared float [B,1]; a
# declaration that contradicts a computed value is a conflict, and the
# computed value stays.
"$ONNXSHAPE" infer declared_join.onnx; echo "exit $?"
"$ONNXSHAPE" check declared_join.onnx; echo "exit $?"
