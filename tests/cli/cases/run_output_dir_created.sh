# covers: CLI-OUTPUT-DIR OUTPUT-ALL-OR-NOTHING
# -o DIR is created when its parent exists (with or without a trailing /),
# but not when the run fails.
rm -rf newdir failed_dir
$ONNXSHAPE run demo.onnx -i demo_input.pb -o newdir/ > /dev/null; echo "exit $?"
ls newdir
$ONNXSHAPE run demo.onnx -i short_raw.pb -o failed_dir 2>/dev/null; echo "exit $?"
test -e failed_dir && echo "failed_dir exists" || echo "no failed_dir"
rm -rf newdir
