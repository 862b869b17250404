# covers: SHAPE-ATTRS-VERSION DIAG-PINNED
# A start attribute of the wrong type is refused in every Shape version that
# has start (15, 19, 21, 23, 24, 25), and the message names start, not end.
for v in 15 19 21 23 24 25; do
  "$ONNXSHAPE" run "shape_start_float_$v.onnx"; echo "exit $?"
done
