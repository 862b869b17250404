# covers: LIMIT-ANALYSIS-WORK ANALYSIS-SUMMARY
# Eight Max nodes of 1,024 inputs of 1,024 elements at rank 1,024 (2^30
# units of work each, in a 60 KB file): the analysis stops at its budget,
# the summary counts the nodes it left unknown, and check says its analysis
# is incomplete.
"$ONNXSHAPE" infer work_budget.onnx | tail -3; echo "exit $?"
"$ONNXSHAPE" infer --json work_budget.onnx | tail -1; echo "exit $?"
"$ONNXSHAPE" check work_budget.onnx; echo "exit $?"
# Under the profile, an analysis cut short at its budget gives no verdict
# of conformance (domain findings may be missing).
"$ONNXSHAPE" check --profile sonnx work_budget.onnx | tail -1; echo "exit $?"
