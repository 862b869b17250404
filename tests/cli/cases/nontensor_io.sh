# covers: ANALYSIS-LOAD RUN-UNSUPPORTED
# A model whose main graph takes a sequence, a map, an optional and a sparse
# tensor and gives a sequence loads: infer analyses what it can (Shape of the
# tensor input), check has no finding; run refuses it before reading any
# input, naming the first value that is not a tensor.
"$ONNXSHAPE" infer --json nontensor_io.onnx > "$OUT/json"; echo "exit $?"
cat "$OUT/json"
/usr/bin/python3 json_check.py infer < "$OUT/json" && echo "schema ok"
"$ONNXSHAPE" check nontensor_io.onnx; echo "exit $?"
"$ONNXSHAPE" run nontensor_io.onnx -i no-such-input.pb; echo "exit $?"
