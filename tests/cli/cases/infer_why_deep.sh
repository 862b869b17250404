# covers: ANALYSIS-WHY
# --why past 16 levels: the indentation stops growing and each deeper line
# says its depth. Two outputs of one node (a Split) that a Concat takes:
# the node's inputs follow the first, the second says they are above.
"$ONNXSHAPE" infer --why d19 why_deep.onnx
"$ONNXSHAPE" infer --why joined why_deep.onnx
"$ONNXSHAPE" infer --why joined --json why_deep.onnx | /usr/bin/python3 json_check.py why | tail -1
