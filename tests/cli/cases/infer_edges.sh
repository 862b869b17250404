# covers: ANALYSIS-OPS
# Review findings, each exact or unknown: a Range of 2^63 elements is not
# evaluated (INT64_MIN / -1 would trap); Slice steps of INT64_MAX and INT64_MIN
# take one element; a negative step clamps a start below 0 to 0, as the
# specification says; [B,S,S] to [0,-1,0] stays [B,S,S]; a symbolic target
# value M with allowzero = 0 gives an unknown dim (M may be 0, which copies).
"$ONNXSHAPE" infer edges.onnx | grep -E ' from (Range|Slice|Reshape)'
