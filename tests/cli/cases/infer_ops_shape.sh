# covers: ANALYSIS-OPS-VIEW ANALYSIS-SUMMARY
# infer --ops shape: the outputs of Shape, Reshape and Size only, a table per
# graph (the main graph, then each subgraph in infer's order; a graph without
# any has no table), then the summary as always. --ops all is the default;
# the last --ops wins. --json keeps infer's objects, filtered.
"$ONNXSHAPE" infer --ops shape demo.onnx
"$ONNXSHAPE" infer --ops=shape analysis.onnx
"$ONNXSHAPE" infer --ops shape --ops all demo.onnx
"$ONNXSHAPE" infer --ops shape --json demo.onnx
"$ONNXSHAPE" infer --ops shape --json demo.onnx | /usr/bin/python3 json_check.py infer
