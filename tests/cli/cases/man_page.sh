# covers: CLI-HELP
# The man page renders without a warning, and every option of every help page
# is in the man page and in the bash completion.
groff -man -ww -z onnxshape.1 2>&1 && echo "groff: no warnings"
for cmd in run test infer check help; do
  for opt in $($ONNXSHAPE help $cmd | sed -n 's/^  \(-[-a-z]*\).*/\1/p; s/^  -h, \(--help\).*/\1/p' | sort -u); do
    grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" onnxshape.1 || echo "$cmd: $opt is not in the man page"
    case $opt in --help|-h) continue ;; esac
    # The completion offers it for this command.
    bash -c '. ./onnxshape.bash; COMP_WORDS=(onnxshape "$1" -); COMP_CWORD=2; _onnxshape; printf "%s\n" "${COMPREPLY[@]}"' _ "$cmd" |
      grep -qx -- "$opt" || echo "$cmd: $opt is not in the completion"
    echo "$cmd $opt"
  done
done
# The man page's version is the command's.
v=$($ONNXSHAPE --version | sed -n 's/^onnxshape \([0-9.]*\) .*/\1/p')
grep -q "^\.TH ONNXSHAPE 1 \"[0-9-]*\" \"onnxshape $v\"" onnxshape.1 && echo "man page: the command's version" || echo "man page: not version $v"
