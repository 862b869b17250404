# covers: CLI-HELP
# run's -i given to infer: the error points to --input.
$ONNXSHAPE infer -i x=1,3 demo.onnx
$ONNXSHAPE infer -ix.pb demo.onnx
