# covers: MODEL-NAMES
# 3,000 graph inputs bound by position (-i FILE without NAME=), one named.
set -- ; i=1; while [ $i -lt 3000 ]; do set -- "$@" -i "many/x$i.pb"; i=$((i + 1)); done
$ONNXSHAPE run many_inputs.onnx -i x0=many/x0.pb "$@"
