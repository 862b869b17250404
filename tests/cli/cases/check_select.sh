# covers: CHECK-RULES
# --select keeps only the rules given: an exact id, a family (portability
# stands for portability/D1 ... D11), a comma list, repeated options, and
# --select=RULE. Only what is selected counts in the summary and the exit.
"$ONNXSHAPE" check --select portability analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --select=portability/D7 analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --select domain,conflict analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --select conflict --select validity analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --select validity/order analysis.onnx; echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --select sonnx findings.onnx; echo "exit $?"
