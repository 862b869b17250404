# covers: CLI-HELP
$ONNXSHAPE check --help
