for t in float16 float8e5m2 int4 bool complex64 string; do $ONNXSHAPE run id_$t.onnx -i t_$t.pb --json || exit; done
