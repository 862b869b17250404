# covers: ANALYSIS-WHY ANALYSIS-JSON
# infer --why NAME --json: one object, {"why":NAME,"steps":[...]}, each step
# infer's value object with depth, parent (the index of the step it is an
# input of), origin, declaration_used, known and, for a main-graph input,
# symbols.
"$ONNXSHAPE" infer --why r1 --json why.onnx
"$ONNXSHAPE" infer --why r2 --json why.onnx
"$ONNXSHAPE" infer --why size_m --json why.onnx
"$ONNXSHAPE" infer --why hsh --json analysis.onnx
for v in r1 r2 size_m flat_y nz_shape; do "$ONNXSHAPE" infer --why $v --json why.onnx; done | /usr/bin/python3 json_check.py why
