# covers: ANALYSIS-ORDER ANALYSIS-FINDINGS
# Nodes out of topological order load, analyse and run in dependency order
# (as onnxruntime runs them); check reports the order, naming the first
# node that takes a later node's value (in a branch, with its path; unnamed
# nodes by their place in the file). A cycle is an error naming a node on
# it and the input that closes it.
"$ONNXSHAPE" infer unordered.onnx; echo "exit $?"
"$ONNXSHAPE" infer --input x=2,3 unordered.onnx; echo "exit $?"
"$ONNXSHAPE" check unordered.onnx; echo "exit $?"
"$ONNXSHAPE" check --json unordered_branch.onnx; echo "exit $?"
"$ONNXSHAPE" infer unordered_branch.onnx; echo "exit $?"
"$ONNXSHAPE" infer cycle.onnx; echo "exit $?"
"$ONNXSHAPE" check self_cycle.onnx; echo "exit $?"
