# covers: ANALYSIS-ORDER
# A node whose input a later node makes runs in dependency order, as
# onnxruntime runs it (the Reshape of x to Shape(x) is x).
$ONNXSHAPE run not_produced.onnx -i x234.pb
