# covers: FILE-REGULAR
# A FIFO (or a directory, or a device) given as a model, a tensor, a
# backend-test input or external data is refused at once, never waited on.
rm -rf "$OUT/d"; mkdir -p "$OUT/d/bt/test_data_set_0"
mkfifo "$OUT/d/fifo" "$OUT/d/bt/test_data_set_0/input_0.pb" "$OUT/d/w.bin"
cp bt_ok/model.onnx "$OUT/d/bt/"
cp bt_ok/test_data_set_0/output_0.pb "$OUT/d/bt/test_data_set_0/"
cp ext/model.onnx "$OUT/d/model.onnx"
mkdir "$OUT/d/sub" && mkfifo "$OUT/d/sub/w.bin"
cd "$OUT/d"
timeout 20 $ONNXSHAPE run fifo; echo "model exit $?"
timeout 20 $ONNXSHAPE run "$OLDPWD/identity_any.onnx" -i fifo; echo "input exit $?"
timeout 20 $ONNXSHAPE test bt; echo "test exit $?"
timeout 20 $ONNXSHAPE run model.onnx; echo "external exit $?"
timeout 20 $ONNXSHAPE infer /dev/null; echo "device exit $?"
timeout 20 $ONNXSHAPE infer sub; echo "directory exit $?"
timeout 20 $ONNXSHAPE check --profile sonnx fifo; echo "check exit $?"
