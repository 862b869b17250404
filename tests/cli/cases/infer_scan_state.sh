# covers: ANALYSIS-OPS
# A Scan's final state is the body's state output of the last iteration,
# which need not have the initial value's shape: onnxruntime takes a body
# that returns a Constant of as many elements in another shape, and gives
# that shape (here [3,2] for a state [2,3]). Where an iteration is certain
# (a sequence of 5) the final state is the Constant's shape; where none may
# run (a sequence of length L, which may be 0; Scan-8 with sequence_lens)
# only the rank both have.
/usr/bin/python3 - "$OUT" <<'PY'
import sys
from onnx import TensorProto as T, helper as h, save
def vi(name, shape):
    return h.make_tensor_value_info(name, T.FLOAT, shape)
def model(path, version, seq, lens):
    k = h.make_node('Constant', [], ['k'], value=h.make_tensor('v', T.FLOAT, [3, 2], [0.0] * 6))
    body = h.make_graph([k, h.make_node('Identity', ['x'], ['y'])], 'body',
                        [vi('s', None), vi('x', [7])], [vi('k', None), vi('y', [7])])
    ins = (['lens'] if lens else ([''] if version < 9 else [])) + ['state', 'seq']
    inputs = [vi('state', [2, 3] if version >= 9 else [1, 2, 3]),
              vi('seq', seq)]
    if lens:
        inputs.insert(0, h.make_tensor_value_info('lens', T.INT64, [1]))
    node = h.make_node('Scan', ins, ['final', 'ys'], body=body, num_scan_inputs=1)
    g = h.make_graph([node], 'g', inputs, [vi('final', None), vi('ys', None)])
    save(h.make_model(g, opset_imports=[h.make_opsetid('', version)]), path)
out = sys.argv[1]
model(out + '/five.onnx', 16, [5, 7], False)
model(out + '/length_l.onnx', 16, ['L', 7], False)
model(out + '/scan8.onnx', 8, [1, 5, 7], False)
model(out + '/scan8_lens.onnx', 8, [1, 5, 7], True)
PY
for m in five length_l scan8 scan8_lens; do
  echo "--- $m"
  "$ONNXSHAPE" infer "$OUT/$m.onnx" | grep '^final'
done
