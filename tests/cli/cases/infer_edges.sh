# covers: ANALYSIS-OPS
# Review findings, each exact or unknown: a Range of 2^63 elements is not
# evaluated (INT64_MIN / -1 would trap); Slice steps of INT64_MAX and INT64_MIN
# take one element; a negative step clamps a start below 0 to 0, as the
# specification says; [B,S,S] to [0,-1,0] stays [B,S,S]; a symbolic target
# value M with allowzero = 0 gives an unknown dim (M may be 0, which copies),
# but past the data's rank ([M] to [1, M]) it is M: a 0 there fails the node;
# and M + 1 ([N, 5] to [0, M + 1]) is at least 1, never a 0 that copies.
# From the differential test (tests/diff/analysis_diff.js): a Slice end of
# INT64_MAX with a negative step is unknown (D9); a Slice-1 axis of -1 fails
# at run time, so its output is unknown, not the input unchanged.
"$ONNXSHAPE" infer edges.onnx | grep -E ' from (Range|Slice|Reshape)'
"$ONNXSHAPE" infer slice1.onnx | grep ' from Slice'
