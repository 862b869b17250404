# covers: ANALYSIS-DECLARED ANALYSIS-FUNCTIONS ANALYSIS-FINDINGS
# A declaration of another rank is a conflict inside a function's body
# too: the body's value_info declares its Shape's 1-D output 2-D (found in
# the call's body, named by its path); the main graph declares the call's
# output, computed [2,3], 1-D (named by the function). The computed values
# stay.
"$ONNXSHAPE" check function_body_rank.onnx; echo "exit $?"
"$ONNXSHAPE" check --json function_body_rank.onnx; echo "exit $?"
"$ONNXSHAPE" infer function_body_rank.onnx; echo "exit $?"
