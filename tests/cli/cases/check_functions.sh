# covers: ANALYSIS-FUNCTIONS ANALYSIS-FINDINGS
# A function body's findings name the call they come from; a call whose
# attribute makes the body invalid (allowzero = 2 through a reference) and a
# function that calls itself are invalid models, said so with the call's path.
"$ONNXSHAPE" check functions.onnx
echo "exit $?"
"$ONNXSHAPE" check function_bad_attr.onnx
echo "exit $?"
"$ONNXSHAPE" infer function_recursive.onnx
echo "exit $?"
"$ONNXSHAPE" run functions.onnx -i x=x234.pb
echo "exit $?"
"$ONNXSHAPE" infer function_two_imports.onnx
echo "exit $?"
# The SONNX profile's findings in bodies name the call: call2 leaves
# allowzero to its default through the reference, call1 sets it.
"$ONNXSHAPE" check --profile sonnx functions.onnx
echo "exit $?"
