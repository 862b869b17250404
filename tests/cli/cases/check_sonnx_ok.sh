# covers: SHAPE-DEFAULTS RESHAPE-ALLOWZERO-VALUES
$ONNXSHAPE check --profile sonnx sonnx_ok.onnx
