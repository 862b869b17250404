# covers: CLI-JSON TEST-DATA-SETS
# Each directory as given (two suites with the same last component), in both forms.
mkdir -p s1/ok/test_data_set_0 s2/ok/test_data_set_0 && cp demo.onnx s1/ok/model.onnx && cp demo.onnx s2/ok/model.onnx && cp demo_input.pb s1/ok/test_data_set_0/input_0.pb && cp demo_input.pb s2/ok/test_data_set_0/input_0.pb && $ONNXSHAPE run demo.onnx -i demo_input.pb -o s1/ok/test_data_set_0 >/dev/null && cp s1/ok/test_data_set_0/output_*.pb s2/ok/test_data_set_0/ && cp s1/ok/test_data_set_0/output_2.pb s2/ok/test_data_set_0/output_1.pb
$ONNXSHAPE test s1/ok s2/ok/; echo "exit $?"
$ONNXSHAPE test --json s1/ok s2/ok/ > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py test < "$OUT/j"
$ONNXSHAPE test --json; echo "exit $?"
rm -rf s1 s2
