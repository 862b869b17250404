# covers: CHECK-RULES CLI-HELP
# Every rule id the library knows (listed by the usage error) is on check's
# help page and in the man page, with its severity.
ids=$("$ONNXSHAPE" check --select '?' demo.onnx 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ',')
for id in $ids; do
  "$ONNXSHAPE" check --help | grep -q -- "$id" || echo "$id is not in check --help"
  esc=$(printf '%s' "$id" | sed 's/-/\\\\-/g')
  grep -q -- "^\.BR $esc \" (" onnxshape.1 || echo "$id is not in the man page"
  echo "$id"
done
