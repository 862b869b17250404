# covers: CLI-HELP
$ONNXSHAPE run --help
