# covers: INFER-WRITE-MODEL
# --write-model writes a dim that is a lone symbol by its name, unquoted
# and unescaped (the name the graph input declares: a space, a quote, a
# backslash in it), and an expression over such a symbol in the printed
# grammar, quoted and escaped (docs/cli.md, "Expressions"), also where it
# begins with a quoted symbol (v: 'seq len' + 1).
/usr/bin/python3 - "$OUT/names.onnx" <<'PY'
import sys
from onnx import TensorProto, helper, save
dims = ['seq len', "it's", 'a\\b', 3]
x = helper.make_tensor_value_info('x', TensorProto.FLOAT, dims)
g = helper.make_graph(
    [helper.make_node('Identity', ['x'], ['y']),
     helper.make_node('Concat', ['x', 'x'], ['z'], axis=0),
     helper.make_node('Concat', ['x', 'x'], ['w'], axis=1),
     helper.make_node('Pad', ['x', 'pads'], ['v'])],
    'names', [x],
    [helper.make_tensor_value_info('y', TensorProto.FLOAT, None),
     helper.make_tensor_value_info('z', TensorProto.FLOAT, None),
     helper.make_tensor_value_info('w', TensorProto.FLOAT, None),
     helper.make_tensor_value_info('v', TensorProto.FLOAT, None)],
    [helper.make_tensor('pads', TensorProto.INT64, [8], [1, 0, 0, 0, 0, 0, 0, 0])])
save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)]), sys.argv[1])
PY
"$ONNXSHAPE" infer "$OUT/names.onnx"
"$ONNXSHAPE" infer "$OUT/names.onnx" --write-model "$OUT/written.onnx" > /dev/null; echo "exit $?"
/usr/bin/python3 - "$OUT/written.onnx" <<'PY'
import sys
import onnx
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
print('checker: ok')
for vi in list(m.graph.input) + list(m.graph.output):
    print(vi.name, [d.dim_value if d.HasField('dim_value') else d.dim_param
                    for d in vi.type.tensor_type.shape.dim])
PY
# Read back, the written model's outputs name the same symbols.
"$ONNXSHAPE" infer "$OUT/written.onnx"
