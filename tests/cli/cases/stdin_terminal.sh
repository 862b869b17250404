# covers: CLI-BINDINGS
# '-' when standard input is a terminal (a pseudo-terminal from util-linux's
# script): refused at once, exit 2, rather than waiting for binary input.
command -v script >/dev/null || { echo "SKIP: script (util-linux) is not installed" >&2; exit 77; }
script -qec "\"$ONNXSHAPE\" infer -; echo \"exit \$?\"" /dev/null < /dev/null | tr -d '\r'
