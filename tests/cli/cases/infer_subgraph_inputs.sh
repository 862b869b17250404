# covers: ANALYSIS-OPS ANALYSIS-DECLARED
# What onnxruntime does not hold a value to is not taken as fact:
# - a Scan body's scan input is the outer input's element, not what the
#   body declares (here [3] for an element of [B]);
# - a Loop body's carried value has its declared type alone (here [2], fed
#   [3]: the body's Reshape to [3] is not claimed to fail);
# - a node that fails only on dims declarations give (a Loop's output
#   declared [2], from [3]) is a conflict between the declarations and the
#   node, not a node certain to fail: infer goes on, check says conflict;
# - a Scan's output stacked from elements of a graph input is no hearsay:
#   a Reshape of it to 7 elements is certain to fail.
/usr/bin/python3 - "$OUT" <<'PY'
import sys
from onnx import TensorProto as T, helper as h, save
def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)
def const(name, vals):
    return h.make_node('Constant', [], [name], value=h.make_tensor(name + '_v', T.INT64, [len(vals)], vals))
out = sys.argv[1]
body = h.make_graph([h.make_node('Size', ['e'], ['n']), h.make_node('Unsqueeze', ['n', 'ax'], ['y'])],
                    'body', [vi('e', [3])], [vi('y', None, T.INT64)], [h.make_tensor('ax', T.INT64, [1], [0])])
g = h.make_graph([h.make_node('Scan', ['xs'], ['ys'], body=body, num_scan_inputs=1)], 'g',
                 [vi('xs', ['A', 'B'])], [vi('ys', None, T.INT64)])
save(h.make_model(g, opset_imports=[h.make_opsetid('', 16)]), out + '/scan_element.onnx')
def loop(path, body_decl, out_decl):
    body = h.make_graph([h.make_node('Identity', ['c'], ['c2']), const('t', [3]),
                         h.make_node('Reshape', ['v', 't'], ['v2'])], 'body',
                        [vi('i', [], T.INT64), vi('c', [], T.BOOL), vi('v', body_decl)],
                        [vi('c2', None, T.BOOL), vi('v2', None)])
    nodes = [h.make_node('Loop', ['n', '', 'x'], ['y'], body=body), const('t3', [3]),
             h.make_node('Reshape', ['y', 't3'], ['r'])]
    g = h.make_graph(nodes, 'g', [vi('n', [], T.INT64), vi('x', [3])], [vi('r', None)],
                     value_info=[vi('y', out_decl)] if out_decl else [])
    save(h.make_model(g, opset_imports=[h.make_opsetid('', 16)]), path)
loop(out + '/loop_body_decl.onnx', [2], None)
loop(out + '/loop_out_decl.onnx', [3], [2])
body = h.make_graph([h.make_node('Identity', ['e'], ['y'])], 'body', [vi('e', [5])], [vi('y', None)])
g = h.make_graph([h.make_node('Scan', ['xs'], ['ys'], body=body, num_scan_inputs=1), const('t', [7]),
                  h.make_node('Reshape', ['ys', 't'], ['r'])], 'g', [vi('xs', [2, 5])], [vi('r', None)])
save(h.make_model(g, opset_imports=[h.make_opsetid('', 16)]), out + '/scan_then_fails.onnx')
PY
for m in scan_element loop_body_decl loop_out_decl scan_then_fails; do
  echo "--- $m"
  "$ONNXSHAPE" infer "$OUT/$m.onnx" > "$OUT/infer.txt" 2>&1; echo "exit $?"
  sed "s|$OUT/||" "$OUT/infer.txt"
  "$ONNXSHAPE" check "$OUT/$m.onnx" > "$OUT/check.txt"; echo "exit $?"
  sed "s|$OUT/||" "$OUT/check.txt"
done
