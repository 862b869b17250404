# covers: CLI-HELP
# The bash completion: commands, options per command, option values, files.
complete_line() { # the words of a command line, the last one being completed
  bash -c '. ./onnxshape.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _onnxshape; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo' _ "$@"
}
complete_line onnxshape ""
complete_line onnxshape in
complete_line onnxshape run demo.onnx --
complete_line onnxshape run demo.onnx --format ""
complete_line onnxshape check --p
complete_line onnxshape check --profile ""
complete_line onnxshape help c
complete_line onnxshape infer dem
complete_line onnxshape run demo.onnx -i x=demo_in
complete_line onnxshape test --
