# covers: TEST-MISMATCH CLI-JSON JSON-UTF8
# The same as fields: index, got, expected (with their bits where they print
# alike), count; the reason is the human line's.
$ONNXSHAPE test --json mm_int mm_float mm_int4 mm_string mm_scalar > "$OUT/j"; echo "exit $?"
cat "$OUT/j"
/usr/bin/python3 json_check.py test < "$OUT/j"
