# covers: ANALYSIS-FUNCTIONS LIMIT-MEMORY
# 4,000 calls of a function whose body names a value with 20,000 bytes (a
# 100 KB model): each call counts its body's names against the memory
# limit as if it copied them, so loading stops at the limit, quickly,
# instead of printing 80 MB of names (infer) or hashing 160 MB (check).
"$ONNXSHAPE" infer function_long_names.onnx
echo "exit $?"
"$ONNXSHAPE" check function_long_names.onnx
echo "exit $?"
