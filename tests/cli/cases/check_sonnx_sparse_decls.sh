# covers: PROFILE-SPARSE-EVERYWHERE DIAG-PINNED
# A graph output that is a sparse tensor, one that holds one, and a
# value_info that holds one: each a sonnx/sparse finding with its message.
"$ONNXSHAPE" check --profile sonnx --select sonnx/sparse sonnx_sparse_decls.onnx; echo "exit $?"
