# covers: OUTPUT-ALL-OR-NOTHING
# A directory named output_0.pb in DIR is refused before anything is read
# or written (issue 30: it was moved aside and left hidden); DIR is as it
# was. Without it, the outputs are written and nothing hidden is left.
mkdir -p "$OUT/d/output_0.pb"
"$ONNXSHAPE" run demo.onnx -i demo_input.pb -o "$OUT/d" 2>"$OUT/err"; echo "exit $?"
sed "s|$OUT|OUT|" "$OUT/err"
ls -a "$OUT/d"
"$ONNXSHAPE" run demo.onnx -i demo_input.pb -o "$OUT/e" > /dev/null; echo "exit $?"
ls -a "$OUT/e"
