# covers: MODEL-MAPPED
# A model of 128 KiB is mapped, and raw_data is used where it lies in the
# file: Reshape's data and target (int64 initializers after the float data),
# Shape and Size of the float initializer, in run, infer and check.
"$ONNXSHAPE" run bigmodel.onnx; echo "exit $?"
"$ONNXSHAPE" infer --json bigmodel.onnx; echo "exit $?"
"$ONNXSHAPE" check bigmodel.onnx; echo "exit $?"
