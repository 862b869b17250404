# covers: CLI-HELP
$ONNXSHAPE help --help
