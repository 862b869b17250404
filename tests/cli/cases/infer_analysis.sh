# covers: ANALYSIS-OPS ANALYSIS-SUBGRAPHS ANALYSIS-SUMMARY
# A model with a Relu (evaluated; its output also declared in
# value_info), a Reshape target computed by Shape/Gather/Unsqueeze/Concat,
# Cast/Slice/Div arithmetic, an If on an unknown flag (both branches) and an
# If whose condition is known (the other branch is not analysed).
"$ONNXSHAPE" infer analysis.onnx
