# covers: CLI-HELP
# The bash completion: commands, options per command, option values, files.
# Each line is split into words as bash splits it (COMP_WORDBREAKS: '=' is
# a word of its own), the last word being completed.
complete_line() {
  bash -c '. ./onnxshape.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _onnxshape; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo' _ "$@"
}
complete_line onnxshape ""
complete_line onnxshape in
for cmd in run test infer check help; do complete_line onnxshape $cmd --; done
complete_line onnxshape run demo.onnx --format ""
complete_line onnxshape run demo.onnx --format = n
complete_line onnxshape run demo.onnx --format =
complete_line onnxshape check --p
complete_line onnxshape check --profile ""
complete_line onnxshape check --profile = ""
complete_line onnxshape check --select port
complete_line onnxshape check --ignore = sonnx
complete_line onnxshape help c
complete_line onnxshape infer demo.onnx --ops ""
complete_line onnxshape infer demo.onnx --ops = s
complete_line onnxshape infer demo.onnx --why ""
complete_line onnxshape infer dem
complete_line onnxshape infer demo.onnx --write-model find
complete_line onnxshape infer demo.onnx --write-model = find
complete_line onnxshape run demo.onnx -i demo_in
complete_line onnxshape run demo.onnx -i x = demo_in
complete_line onnxshape run demo.onnx -i x = t_int
# Sourcing the completion leaves the user's shell options as they were.
bash -c 'shopt -u extglob; . ./onnxshape.bash; shopt -q extglob && echo "extglob on" || echo "extglob off"'
