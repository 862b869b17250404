# covers: CHECK-RULES
# --ignore leaves rules out: a family, an exact id, a comma list; it wins
# over --select. A model whose only findings are warnings exits 0, an error
# exits 1.
"$ONNXSHAPE" check --ignore portability findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --ignore domain findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --ignore=domain,portability/D7 findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --select portability,domain --ignore portability/D7 findings.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --ignore sonnx/default findings.onnx; echo "exit $?"
# Sparse tensors stop the check before anything else runs: leaving their
# findings out does not pass the model (exit 1, said on stderr).
"$ONNXSHAPE" check --profile sonnx --ignore sonnx/sparse sonnx_sparse.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --select domain sonnx_sparse.onnx; echo "exit $?"
