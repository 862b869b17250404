for m in infer_below_minus_one infer_zero_past_rank infer_allowzero_zero_minus_one; do $ONNXSHAPE infer $m.onnx; echo "exit $?"; done
