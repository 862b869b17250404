# covers: ANALYSIS-FUNCTIONS LIMIT-MEMORY
# Calls that nest to 2^29 function bodies (a 2 KB model): loading stops at
# the memory limit with its message, quickly, instead of expanding them all.
"$ONNXSHAPE" infer function_blowup.onnx
echo "exit $?"
"$ONNXSHAPE" check function_blowup.onnx
echo "exit $?"
