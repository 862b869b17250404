# covers: CLI-HELP
$ONNXSHAPE test --help
