# covers: TEST-MISMATCH TEXT-ESCAPE
# Values in their element type: floats as digits that round-trip (the bits
# added where two values print alike or as equal numbers: NaN payloads, -0
# and 0), float16 decoded, int4 unpacked and sign-extended (the padding
# nibble of the last byte does not count), strings quoted and escaped, a
# 0-D output's index []. The failing data set is named.
$ONNXSHAPE test mm_float mm_float16 mm_int4 mm_string mm_scalar; echo "exit $?"
