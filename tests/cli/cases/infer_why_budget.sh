# covers: ANALYSIS-WHY LIMIT-ANALYSIS-WORK
# --why at the analysis budget: Max nodes of 1,024 inputs at rank 1,024;
# the first gets its dims but not its 1,024 elements, the last not even its
# rank; the chain stops there (origin "budget").
"$ONNXSHAPE" infer --why m0 work_budget.onnx | grep -o ' from .*'
"$ONNXSHAPE" infer --why m7 work_budget.onnx
"$ONNXSHAPE" infer --why m7 --json work_budget.onnx
"$ONNXSHAPE" infer --why m7 --json work_budget.onnx | /usr/bin/python3 json_check.py why | tail -1
