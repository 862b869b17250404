# covers: ANALYSIS-SEQUENCES
# Sequences and optionals as infer lists them: seq(ELEMENT), length L (the
# element what every element has in common: x [N,3] twice; SplitToSequence
# on axis 1 makes 3 elements [N,1]; an insert of x [N,3] leaves [N,?]);
# optional(ELEMENT) and whether it holds one; SequenceEmpty's dtype. In
# JSON: kind, element, length or holds (docs/cli.md).
"$ONNXSHAPE" infer sequences.onnx
"$ONNXSHAPE" infer --json sequences.onnx > "$OUT/json"; echo "exit $?"
/usr/bin/python3 json_check.py infer < "$OUT/json"
