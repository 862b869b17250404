# covers: CLI-BINDINGS ANALYSIS-JSON
# '-' reads a model (infer, run) or a tensor (run -i -, -i NAME=-) from
# standard input, whole, before parsing; it is named <stdin> in what is
# printed; once per call; check gives the same findings and exit status
# for a model from standard input as for its file (external data aside:
# only a model file names a directory); a file named '-' is ./-.
"$ONNXSHAPE" infer --ops shape - < demo.onnx
"$ONNXSHAPE" infer --why count - demo.onnx < demo.onnx
"$ONNXSHAPE" infer --json --ops shape demo.onnx - < why.onnx | tail -1
"$ONNXSHAPE" run - -i demo_input.pb < demo.onnx
"$ONNXSHAPE" run demo.onnx -i x=- < demo_input.pb
"$ONNXSHAPE" run demo.onnx -i - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" infer - < garbage.onnx
echo "exit $?"
"$ONNXSHAPE" infer - < /dev/null
echo "exit $?"
"$ONNXSHAPE" infer - - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" run - -i - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" check - < demo.onnx
echo "exit $?"
"$ONNXSHAPE" check - findings.onnx < findings.onnx
echo "exit $?"
"$ONNXSHAPE" check --profile sonnx --json - < findings.onnx | tail -1
"$ONNXSHAPE" check - < garbage.onnx
echo "exit $?"
"$ONNXSHAPE" check - < ext/model.onnx
echo "exit $?"
"$ONNXSHAPE" check - - < demo.onnx
echo "exit $?"
# Every third model of the test data (in name order; all of them took
# minutes under valgrind in make check-valgrind), with and without the
# profile.
same=0 k=0
for m in *.onnx; do
  k=$((k + 1))
  [ $((k % 3)) -eq 1 ] || continue
  for p in "" "--profile sonnx"; do
    # shellcheck disable=SC2086 # $p is zero or two words
    a=$("$ONNXSHAPE" check $p --json "$m" 2>/dev/null; echo "exit $?")
    # shellcheck disable=SC2086
    b=$("$ONNXSHAPE" check $p --json - < "$m" 2>/dev/null; echo "exit $?")
    if [ "$(printf '%s' "$a" | sed "s|\"$m\"|M|g")" = "$(printf '%s' "$b" | sed 's|"<stdin>"|M|g')" ]; then
      same=$((same + 1))
    else
      echo "check $p: $m differs from its standard input"
    fi
  done
done
echo "check: $same checks agree between file and standard input"
cp demo.onnx ./-
"$ONNXSHAPE" infer --ops shape ./- < /dev/null | tail -1
rm -f ./-
