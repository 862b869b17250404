# covers: PROFILE-SPARSE-EVERYWHERE
# Sparse tensor types in TYPE_PROTO and TYPE_PROTOS attributes (review
# finding 12: the scan looked only at SPARSE_TENSOR(S) attributes): a type
# that is one, one that holds one (a sequence, a map among a list), in the
# main graph, a branch and a function's default, each found; an Optional of
# a dense tensor is not.
"$ONNXSHAPE" check --profile sonnx sparse_types.onnx; echo "exit $?"
