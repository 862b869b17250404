mkdir "$OUT/o"; $ONNXSHAPE run bad_target.onnx -i x234.pb -o "$OUT/o"; echo "exit $?"; ls -A "$OUT/o" | wc -l
