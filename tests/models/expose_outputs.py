#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Rewrites a model so that the output of every Shape, Reshape and Size node
becomes a graph output, for tests/models/record_truth.js.

Main graph: the output is appended to the graph's outputs as it is.
Inside If branches (any depth): the value is made an extra output of its
branch, the other branch gets a dummy output of the same element type (an
empty tensor, shape [0]), the If node gets an extra output, and so on up to
the main graph. The If's condition is exposed too (through an Identity next
to the If), so the caller can tell which branch ran: a branch value is real
only when every If on its path took that branch. Loop and Scan bodies are
not rewritten (the values are reported as not exposed, with the reason);
the corpus has none.

Needs onnx (Debian's python3-onnx 1.12 is enough): run with /usr/bin/python3.
Usage: expose_outputs.py IN.onnx OUT.onnx OUT.json
OUT.json: {"inputs": [{"name", "elem_type"}],
           "targets": [{"output", "node", "op", "graph", "graph_path",
           "exposed_as" | null, "conditions": [{"output", "node", "taken_if"}],
           "reason" (when not exposed)}]}
"""
import json
import os
import sys

import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from survey import TARGET_OPS, node_label, path_str, walk  # noqa: E402


def elem_types(model):
    """Element type of every value that onnx's inference (or the model) knows."""
    types = {}
    try:
        inf = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001
        inf = model
    for m in (model, inf):
        for _, g in walk(m.graph):
            for vi in list(g.input) + list(g.output) + list(g.value_info):
                if vi.type.HasField('tensor_type') and vi.type.tensor_type.elem_type:
                    types.setdefault(vi.name, vi.type.tensor_type.elem_type)
            for t in g.initializer:
                types.setdefault(t.name, t.data_type)
    return types


def elem_type_of(node, types):
    """Element type of the output of a Shape/Size/Reshape node."""
    if node.op_type in ('Shape', 'Size'):
        return TensorProto.INT64
    t = types.get(node.output[0]) or types.get(node.input[0])
    if not t:
        raise ValueError('element type of %s unknown' % node.output[0])
    return t


class Namer:
    def __init__(self, model):
        self.used = set()
        for _, g in walk(model.graph):
            for vi in list(g.input) + list(g.output):
                self.used.add(vi.name)
            for t in g.initializer:
                self.used.add(t.name)
            for n in g.node:
                self.used.update(n.output)
        self.n = 0

    def __call__(self, stem):
        while True:
            self.n += 1
            name = '__truth__/%s/%d' % (stem, self.n)
            if name not in self.used:
                self.used.add(name)
                return name


def dummy_value(graph, elem_type, namer):
    """A Constant node in GRAPH making an empty tensor of ELEM_TYPE."""
    name = namer('dummy')
    t = helper.make_tensor(name + '/value', elem_type, [0], [])
    graph.node.append(helper.make_node('Constant', [], [name], name=name + '/node', value=t))
    return name


def lift(graph, prefix, wanted, namer, failed):
    """Makes the values of WANTED visible in GRAPH's scope; PREFIX is GRAPH's
    path from the main graph.

    wanted: list of (key, value name, elem type, path tail), the tail being
    the ((node label, attribute), ...) from GRAPH down to the value's graph.
    Returns [(key, name in GRAPH's scope, elem type)]; the keys
    ('cond', (PATH OF THE IF'S GRAPH, IF LABEL)) carry the If conditions.
    Values that cannot be lifted go to FAILED."""
    out = []
    groups = {}
    order = []
    for key, value, et, tail in wanted:
        if not tail:
            out.append((key, value, et))
            continue
        if tail[0][0] not in groups:
            groups[tail[0][0]] = []
            order.append(tail[0][0])
        groups[tail[0][0]].append((key, value, et, tail))
    labels = {node_label(n, i): n for i, n in enumerate(graph.node)}
    for label in order:
        items = groups[label]
        node = labels[label]
        if node.op_type != 'If':
            for key, *_ in items:
                failed[key] = 'inside a %s body: not exposed' % node.op_type
            continue
        branches = {a.name: a.g for a in node.attribute if a.name in ('then_branch', 'else_branch')}
        other = {'then_branch': 'else_branch', 'else_branch': 'then_branch'}
        for attr in ('then_branch', 'else_branch'):
            sub = [(k, v, et, t[1:]) for k, v, et, t in items if t[0][1] == attr]
            if not sub:
                continue
            for key, local, et in lift(branches[attr], prefix + ((label, attr),), sub,
                                       namer, failed):
                branches[attr].output.append(helper.make_tensor_value_info(local, et, None))
                d = dummy_value(branches[other[attr]], et, namer)
                branches[other[attr]].output.append(helper.make_tensor_value_info(d, et, None))
                new = namer('lift')
                node.output.append(new)
                out.append((key, new, et))
        # the condition, for telling which branch ran
        cond = namer('cond')
        graph.node.append(helper.make_node('Identity', [node.input[0]], [cond],
                                           name=cond + '/node'))
        out.append((('cond', (prefix, label)), cond, TensorProto.BOOL))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: expose_outputs.py IN.onnx OUT.onnx OUT.json')
    src, dst, meta = sys.argv[1:]
    model = onnx.load(src)
    types = elem_types(model)
    namer = Namer(model)
    targets = []
    wanted = []
    for gp, g in walk(model.graph):
        for i, n in enumerate(g.node):
            if n.op_type not in TARGET_OPS or not n.output or not n.output[0]:
                continue
            t = {'output': n.output[0], 'node': node_label(n, i), 'op': n.op_type,
                 'graph': path_str(gp), 'graph_path': [list(p) for p in gp]}
            targets.append(t)
            try:
                et = elem_type_of(n, types)
            except ValueError as e:
                t['reason'] = str(e)
                continue
            wanted.append((('value', n.output[0]), n.output[0], et, gp))
    # Nodes are appended while lifting; walk() above finished before that.
    failed = {}
    lifted = lift(model.graph, (), wanted, namer, failed)
    existing = {o.name for o in model.graph.output}
    top = {}
    for key, local, et in lifted:
        top[key] = local
        if local not in existing:
            model.graph.output.append(helper.make_tensor_value_info(local, et, None))
            existing.add(local)
    for t in targets:
        if 'reason' in t:
            t['exposed_as'] = None
            continue
        key = ('value', t['output'])
        if key in failed or key not in top:
            t['exposed_as'] = None
            t['reason'] = failed.get(key, 'not exposed')
            continue
        t['exposed_as'] = top[key]
        # the If at each level of the path, and the value its condition must have
        gp = tuple(tuple(p) for p in t['graph_path'])
        t['conditions'] = [{'output': top[('cond', (gp[:k], gp[k][0]))], 'node': gp[k][0],
                            'taken_if': gp[k][1] == 'then_branch'}
                           for k in range(len(gp))]
    onnx.save(model, dst)
    with open(meta, 'w') as f:
        inits = {t.name for t in model.graph.initializer}
        inputs = [{'name': vi.name, 'elem_type': vi.type.tensor_type.elem_type}
                  for vi in model.graph.input if vi.name not in inits]
        json.dump({'inputs': inputs, 'targets': targets}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
