# covers: EXTERNAL-KEYS
# External data at an offset beyond 4 GiB (a sparse file): 64-bit file
# offsets on every host, 32-bit ones included (check-cross runs it on i686).
$ONNXSHAPE run far/model.onnx
