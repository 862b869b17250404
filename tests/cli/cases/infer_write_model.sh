# covers: INFER-WRITE-MODEL OUTPUT-ALL-OR-NOTHING
# infer --write-model FILE: the model with what analysis knows spliced into
# its graph inputs, outputs and value_info; listed here by onnx (which also
# checks it), and read back by infer, which now finds every dim declared.
show() {
  /usr/bin/python3 - "$1" <<'PY'
import sys
import onnx
m = onnx.load(sys.argv[1])
try:
    onnx.checker.check_model(m, full_check=True)
    print('checker: ok')
except Exception as e:
    print('checker: %s' % str(e).splitlines()[0])
for field in ('input', 'output', 'value_info'):
    for vi in getattr(m.graph, field):
        t = vi.type.tensor_type
        dims = [d.dim_value if d.HasField('dim_value') else
                (d.dim_param if d.HasField('dim_param') else '?') for d in t.shape.dim]
        print('%s %s: %s %s' % (field, vi.name, onnx.TensorProto.DataType.Name(t.elem_type),
                                dims if t.HasField('shape') else '[...]'))
PY
}
echo "--- the model as shipped"
show analysis.onnx
echo "--- as given"
"$ONNXSHAPE" infer analysis.onnx --write-model "$OUT/given.onnx" >/dev/null; echo "exit $?"
show "$OUT/given.onnx"
echo "--- bound: x=2,64"
"$ONNXSHAPE" infer --write-model="$OUT/bound.onnx" analysis.onnx --input x=2,64 >/dev/null
echo "exit $?"
show "$OUT/bound.onnx"
"$ONNXSHAPE" infer "$OUT/bound.onnx" --ops shape
echo "--- standard input: the same bytes"
"$ONNXSHAPE" infer --write-model "$OUT/stdin.onnx" - < analysis.onnx >/dev/null
cmp "$OUT/given.onnx" "$OUT/stdin.onnx" && echo same
echo "--- nothing written unless all succeeds"
echo old > "$OUT/keep.onnx"
"$ONNXSHAPE" infer two_minus_one.onnx --write-model "$OUT/keep.onnx" 2>&1 >/dev/null |
  sed "s|$OUT|OUT|"
cat "$OUT/keep.onnx"
"$ONNXSHAPE" infer analysis.onnx --write-model /nonexistent-dir/m.onnx >/dev/null; echo "exit $?"
ls "$OUT" | grep onnx
echo "--- usage"
"$ONNXSHAPE" infer analysis.onnx demo.onnx --write-model x.onnx 2>&1 | head -1
"$ONNXSHAPE" infer analysis.onnx --write-model - 2>&1 | head -1
"$ONNXSHAPE" infer analysis.onnx --write-model 2>&1 | head -1
"$ONNXSHAPE" infer analysis.onnx --write-model= 2>&1 | head -1
"$ONNXSHAPE" infer analysis.onnx --write-model a.onnx --write-model b.onnx 2>&1 | head -1
