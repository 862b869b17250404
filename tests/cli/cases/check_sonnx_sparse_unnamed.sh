# covers: PROFILE-SPARSE-EVERYWHERE DIAG-PINNED
# A sparse initializer whose bytes do not decode is still a sonnx/sparse
# finding, named by its index.
"$ONNXSHAPE" check --profile sonnx --select sonnx/sparse sparse_garbage.onnx; echo "exit $?"
