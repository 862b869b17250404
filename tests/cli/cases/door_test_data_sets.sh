# covers: TEST-DATA-SETS
# A data set with a file the model does not produce or take fails, as in
# ONNX's runner; so do a missing output and a directory without data sets.
$ONNXSHAPE test bt_ok bt_extra_output bt_extra_input bt_missing_output bt_no_sets
echo "exit $?"
