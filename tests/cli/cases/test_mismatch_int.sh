# covers: TEST-MISMATCH
# Elements that differ are listed by their index in the output's dims, with
# the value computed and the value expected: the first 5, then how many more.
$ONNXSHAPE test mm_int; echo "exit $?"
