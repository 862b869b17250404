# covers: TEST-SUITE
# A directory with neither model.onnx nor a test_* directory is an error
# naming it, before any case runs.
$ONNXSHAPE test bt_ok suite_empty
