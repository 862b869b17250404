# covers: CLI-HELP
$ONNXSHAPE infer --help
