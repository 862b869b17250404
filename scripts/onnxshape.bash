# SPDX-License-Identifier: Apache-2.0
# bash completion for onnxshape (installed as
# share/bash-completion/completions/onnxshape). Commands, their options,
# option values, and file names: .onnx models, .pb/.npy tensors, directories.
_onnxshape() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "run test infer check help --help --version" -- "$cur")
    return
  fi
  cmd=${COMP_WORDS[1]}
  # NAME=FILE, --format=FMT, --ops=WHICH, --write-model=FILE, --profile=NAME and --select=RULE: bash splits words at '='
  # (COMP_WORDBREAKS), so the word being completed is the part after it and
  # the word before it is '='. Completions then replace only that part.
  if [ "$prev" = "=" ] || [[ $cur == "=" ]]; then
    local key=${COMP_WORDS[COMP_CWORD-2]} before=${COMP_WORDS[COMP_CWORD-3]:-}
    [[ $cur == "=" ]] && { key=$prev; before=${COMP_WORDS[COMP_CWORD-2]:-}; cur=; }
    case $key in
      --format) prev=--format ;;
      --ops) prev=--ops ;;
      --write-model) prev=--write-model ;;
      --profile) prev=--profile ;;
      --select|--ignore) prev=--select ;;
      *) [ "$before" = "-i" ] && prev=-i-file ;;
    esac
  fi
  case $prev in
    --format) mapfile -t COMPREPLY < <(compgen -W "pb npy" -- "$cur"); return ;;
    --profile) mapfile -t COMPREPLY < <(compgen -W "sonnx" -- "$cur"); return ;;
    --ops) mapfile -t COMPREPLY < <(compgen -W "shape all" -- "$cur"); return ;;
    # a value's name: nothing to offer without reading the model
    --why) COMPREPLY=(); return ;;
    # check's rule ids and families (onnxshape check --help)
    --select|--ignore)
      mapfile -t COMPREPLY < <(compgen -W "domain conflict validity validity/order validity/unknown-op validity/opset validity/deprecated portability portability/D1 portability/D6 portability/D7 portability/D11 incomplete sonnx sonnx/default sonnx/sparse" -- "$cur")
      return ;;
    -o) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    --write-model)
      mapfile -t COMPREPLY < <(compgen -f -X '!*.onnx' -- "$cur"; compgen -d -- "$cur")
      return ;;
    -i|-i-file)
      mapfile -t COMPREPLY < <(compgen -f -X '!*.pb' -- "$cur"; compgen -f -X '!*.npy' -- "$cur"; compgen -d -- "$cur")
      return ;;
  esac
  if [[ $cur == -* ]]; then
    local opts
    case $cmd in
      run) opts="-i -o --format --json --help" ;;
      test) opts="--json --strict --help" ;;
      infer) opts="--input --dim --ops --why --json --write-model --help" ;;
      check) opts="--profile --json --select --ignore --strict --help" ;;
      *) opts="--help" ;;
    esac
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    return
  fi
  case $cmd in
    help) mapfile -t COMPREPLY < <(compgen -W "run test infer check help" -- "$cur") ;;
    test) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    *) mapfile -t COMPREPLY < <(compgen -f -X '!*.onnx' -- "$cur"; compgen -d -- "$cur") ;;
  esac
}
complete -o filenames -F _onnxshape onnxshape
