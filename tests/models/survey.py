#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Survey of the real-model corpus (tests/models/models.json) for onnxshape.

For every model: opset imports, IR version, producer, graph inputs, op
counts in the main graph and in every subgraph (If/Loop/Scan attributes,
recursively), the Shape/Reshape/Size nodes, where each Reshape's target
shape comes from (literal constant, constant-foldable, or computed at run
time, with the chain of ops), onnx.checker's verdict, model-local
functions, sparse initializers, external data and value_info; then the
(op, resolved opset version) pairs of a fixed list of ops, and how many
Shape/Reshape/Size outputs onnx's own shape inference gives a full static
shape for.

Needs Debian's python3-onnx (onnx 1.12): run with /usr/bin/python3.
Usage: /usr/bin/python3 tests/models/survey.py [--models DIR] [--out FILE]
                                               [--json FILE]
  --models DIR  where scripts/fetch-models put NAME.onnx (.cache/models)
  --out FILE    the Markdown report (default: stdout)
  --json FILE   the same facts as JSON
"""
import argparse
import collections
import json
import os
import sys

import onnx
from onnx import AttributeProto, TensorProto, numpy_helper

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = os.path.join(TOP, 'tests', 'models', 'models.json')
TARGET_OPS = ('Shape', 'Reshape', 'Size')
LISTED_OPS = ('Cast', 'Gather', 'Slice', 'Concat', 'Unsqueeze', 'Squeeze', 'Add',
              'Sub', 'Mul', 'Div', 'Equal', 'Where', 'ConstantOfShape', 'Range',
              'ReduceProd', 'Min', 'Max', 'Identity', 'Shape', 'Reshape', 'Size',
              'Constant', 'If', 'Loop', 'Scan')
# onnx 1.12 knows the default domain up to opset 17. The ops of the default
# domain that got a new version in opset 18 (ONNX 1.13); none of the corpus
# models imports an opset above 18.
OPSET18_NEW = {'ReduceL1', 'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp', 'ReduceMax',
               'ReduceMean', 'ReduceMin', 'ReduceProd', 'ReduceSumSquare', 'Pad',
               'Resize', 'ScatterElements', 'ScatterND', 'Split', 'LpPool',
               'OptionalHasElement', 'OptionalGetElement', 'BitwiseAnd', 'BitwiseOr',
               'BitwiseXor', 'BitwiseNot', 'CenterCropPad', 'Col2Im', 'Mish'}


# ---- walking the graphs ---------------------------------------------------
def node_label(node, index):
    """How a node is named in graph paths: its name, or OP#INDEX if unnamed."""
    return node.name if node.name else '%s#%d' % (node.op_type, index)


def path_str(path):
    """('If_3', 'then_branch'), ... -> 'If_3/then_branch/...'; () -> ''."""
    return '/'.join('%s/%s' % p for p in path)


def subgraphs(node):
    """(attribute name, GraphProto) of a node's graph attributes; GRAPHS
    lists give NAME[i]."""
    for a in node.attribute:
        if a.type == AttributeProto.GRAPH:
            yield a.name, a.g
        elif a.type == AttributeProto.GRAPHS:
            for i, g in enumerate(a.graphs):
                yield '%s[%d]' % (a.name, i), g


def walk(graph, path=()):
    """Yields (path, graph) for the graph and all its subgraphs, depth first."""
    yield path, graph
    for i, n in enumerate(graph.node):
        for attr, g in subgraphs(n):
            yield from walk(g, path + ((node_label(n, i), attr),))


def all_tensors(graph):
    """Every TensorProto of a graph and its subgraphs (initializers and
    Constant/attribute tensors)."""
    for _, g in walk(graph):
        yield from g.initializer
        for s in g.sparse_initializer:
            yield s.values
        for n in g.node:
            for a in n.attribute:
                if a.type == AttributeProto.TENSOR:
                    yield a.t
                elif a.type == AttributeProto.TENSORS:
                    yield from a.tensors
                elif a.type == AttributeProto.SPARSE_TENSOR:
                    yield a.sparse_tensor.values


# ---- types and shapes -----------------------------------------------------
def type_name(elem):
    try:
        return TensorProto.DataType.Name(elem).lower()
    except ValueError:
        return 'type%d' % elem


def dims_of(type_proto):
    """Declared dims: int, 'name' for a symbol, '?' for unknown; None when
    the rank is unknown (or not a tensor)."""
    if not type_proto.HasField('tensor_type'):
        return None
    tt = type_proto.tensor_type
    if not tt.HasField('shape'):
        return None
    out = []
    for d in tt.shape.dim:
        if d.HasField('dim_value'):
            out.append(d.dim_value)
        elif d.HasField('dim_param'):
            out.append(d.dim_param)
        else:
            out.append('?')
    return out


def fmt_dims(dims):
    if dims is None:
        return 'rank unknown'
    return '[' + ', '.join(str(d) for d in dims) + ']'


def shape_class(dims):
    if dims is None:
        return 'none'
    return 'static' if all(isinstance(d, int) for d in dims) else 'partial'


# ---- opset versions -------------------------------------------------------
def resolve_version(op, opset):
    """The since_version of OP's schema in force at OPSET (default domain)."""
    if opset >= 18 and op in OPSET18_NEW:
        return 18
    try:
        return onnx.defs.get_schema(op, min(opset, 17), '').since_version
    except Exception:  # noqa: BLE001 - unknown to onnx 1.12
        return None


# ---- where a value comes from ---------------------------------------------
class Origin:
    """Traces values back through the producers of a model (value names are
    unique across a model's graphs, as ONNX requires)."""

    def __init__(self, model):
        self.producer = {}
        self.initializer = {}
        self.graph_input = {}
        for path, g in walk(model.graph):
            for t in g.initializer:
                self.initializer[t.name] = t
            for s in g.sparse_initializer:
                self.initializer[s.values.name] = s.values
            for vi in g.input:
                if vi.name not in self.initializer:
                    self.graph_input[vi.name] = path
            for i, n in enumerate(g.node):
                for o in n.output:
                    if o:
                        self.producer[o] = (n, path, i)

    def kind(self, name, seen=None):
        """'const', 'folded' (computed from constants only) or 'runtime'."""
        seen = set() if seen is None else seen
        if name in seen:
            return 'const'
        seen.add(name)
        if name in self.initializer:
            return 'const'
        if name in self.graph_input or name not in self.producer:
            return 'runtime'
        node = self.producer[name][0]
        if node.op_type == 'Constant':
            return 'const'
        if node.op_type in ('If', 'Loop', 'Scan'):
            return 'runtime'  # not followed into bodies
        kinds = [self.kind(i, seen) for i in node.input if i]
        if 'runtime' in kinds or (node.op_type == 'Shape' and kinds):
            # Shape/Size of a constant would fold, but counts as runtime
            # here only if its input is runtime.
            return 'runtime' if 'runtime' in kinds else 'folded'
        return 'folded'

    def const_value(self, name):
        t = self.initializer.get(name)
        if t is None and name in self.producer and self.producer[name][0].op_type == 'Constant':
            for a in self.producer[name][0].attribute:
                if a.name == 'value':
                    t = a.t
                elif a.name in ('value_int', 'value_ints', 'value_float', 'value_floats'):
                    return onnx.helper.get_attribute_value(a)
        if t is None:
            return None
        try:
            v = numpy_helper.to_array(t)
        except Exception:  # noqa: BLE001
            return '?'
        if v.size > 8:
            return 'tensor%s' % list(v.shape)
        return v.tolist()

    def expr(self, name, depth=0, budget=None):
        """A nested expression for value NAME, e.g.
        Concat(Unsqueeze(Gather(Shape(%x), 0)), [-1])."""
        budget = budget if budget is not None else [60]
        budget[0] -= 1
        if budget[0] < 0 or depth > 14:
            return '...'
        if name in self.graph_input:
            return '%' + name
        if name in self.initializer or (name in self.producer and
                                        self.producer[name][0].op_type == 'Constant'):
            v = self.const_value(name)
            return json.dumps(v) if not isinstance(v, str) else v
        if name not in self.producer:
            return '%' + name + '?'
        node = self.producer[name][0]
        if node.op_type in ('Shape', 'Size'):
            src = node.input[0]
            inner = '%' + src if src in self.graph_input else '%' + src
            attrs = ''.join(',%s=%d' % (a.name, a.i) for a in node.attribute
                            if a.name in ('start', 'end'))
            return '%s(%s%s)' % (node.op_type, inner, attrs)
        if node.op_type in ('If', 'Loop', 'Scan'):
            return '%s[%s](...)' % (node.op_type, node.name)
        args = [self.expr(i, depth + 1, budget) for i in node.input if i]
        attrs = [a.name + '=' + str(onnx.helper.get_attribute_value(a))
                 for a in node.attribute if a.type in (AttributeProto.INT, AttributeProto.INTS)]
        return '%s(%s)' % (node.op_type, ', '.join(args + attrs))

    def chains(self, name):
        """Distinct op paths that end in NAME, from a leaf that is not a
        constant: a Shape/Size node, a graph input (%name) or an If/Loop/Scan
        output. E.g. ['Shape->Gather->Unsqueeze->Concat']."""
        out = set()

        def go(n, suffix, seen):
            if n in self.initializer or n in seen:
                return
            if n in self.graph_input:
                out.add('->'.join(['%' + n] + suffix))
                return
            if n not in self.producer:
                out.add('->'.join(['?' + n] + suffix))
                return
            node = self.producer[n][0]
            if node.op_type == 'Constant':
                return
            here = [node.op_type] + suffix
            if node.op_type in ('Shape', 'Size', 'If', 'Loop', 'Scan'):
                out.add('->'.join(here))
                return
            ins = [i for i in node.input if i and self.kind(i) == 'runtime']
            if not ins:
                out.add('->'.join(['const'] + here))
                return
            for i in ins:
                go(i, here, seen | {n})
            if len(out) > 40:
                return

        go(name, [], frozenset())
        return sorted(out)


# ---- one model --------------------------------------------------------------
def survey_model(entry, path):
    m = onnx.load(path)
    info = collections.OrderedDict()
    info['name'] = entry['name']
    info['package'] = '%s@%s' % (entry['package'], entry['version'])
    info['path'] = entry['path']
    info['size'] = entry['size']
    info['ir_version'] = m.ir_version
    info['producer'] = ('%s %s' % (m.producer_name, m.producer_version)).strip() or '(none)'
    info['opsets'] = {(o.domain or 'ai.onnx'): o.version for o in m.opset_import}
    opset = next((o.version for o in m.opset_import if o.domain in ('', 'ai.onnx')), None)
    info['opset'] = opset
    inits = {t.name for t in m.graph.initializer}
    info['inputs'] = [{'name': vi.name,
                       'type': type_name(vi.type.tensor_type.elem_type)
                       if vi.type.HasField('tensor_type') else 'non-tensor',
                       'dims': dims_of(vi.type)}
                      for vi in m.graph.input if vi.name not in inits]
    info['initializers_listed_as_inputs'] = sum(1 for vi in m.graph.input if vi.name in inits)
    info['outputs'] = [{'name': vi.name, 'dims': dims_of(vi.type)} for vi in m.graph.output]

    graphs = list(walk(m.graph))
    info['ops_main'] = dict(sorted(collections.Counter(n.op_type for n in m.graph.node).items()))
    info['subgraphs'] = []
    for gp, g in graphs[1:]:
        info['subgraphs'].append({'path': path_str(gp), 'nodes': len(g.node),
                                  'ops': dict(sorted(collections.Counter(
                                      n.op_type for n in g.node).items()))})
    counts = {op: {'main': 0, 'sub': 0} for op in TARGET_OPS}
    for gp, g in graphs:
        for n in g.node:
            if n.op_type in counts:
                counts[n.op_type]['sub' if gp else 'main'] += 1
    info['target_counts'] = counts
    info['nodes_total'] = sum(len(g.node) for _, g in graphs)

    # Reshape targets
    org = Origin(m)
    reshapes = []
    for gp, g in graphs:
        for i, n in enumerate(g.node):
            if n.op_type != 'Reshape':
                continue
            r = {'node': node_label(n, i), 'graph': path_str(gp), 'output': n.output[0]}
            allowzero = [a.i for a in n.attribute if a.name == 'allowzero']
            r['allowzero'] = allowzero[0] if allowzero else 0
            if len(n.input) < 2 or not n.input[1]:
                r['target'] = 'attribute'
                r['value'] = [list(a.ints) for a in n.attribute if a.name == 'shape']
            else:
                k = org.kind(n.input[1])
                r['target'] = {'const': 'constant', 'folded': 'constant-foldable',
                               'runtime': 'runtime'}[k]
                if k == 'const':
                    r['value'] = org.const_value(n.input[1])
                else:
                    r['expr'] = org.expr(n.input[1])
                    if k == 'runtime':
                        r['chains'] = org.chains(n.input[1])
            reshapes.append(r)
    info['reshapes'] = reshapes

    # Shape / Size details (start/end attributes and where their input comes from)
    shapes = []
    for gp, g in graphs:
        for i, n in enumerate(g.node):
            if n.op_type in ('Shape', 'Size'):
                attrs = {a.name: a.i for a in n.attribute}
                shapes.append({'node': node_label(n, i), 'op': n.op_type, 'graph': path_str(gp),
                               'input': n.input[0], 'output': n.output[0], 'attrs': attrs})
    info['shape_size_nodes'] = shapes

    # If conditions: what decides the branch (often shapes only)
    ifs = []
    for gp, g in graphs:
        for i, n in enumerate(g.node):
            if n.op_type == 'If':
                ifs.append({'node': node_label(n, i), 'graph': path_str(gp),
                            'cond': org.kind(n.input[0]), 'expr': org.expr(n.input[0]),
                            'chains': org.chains(n.input[0])})
    info['if_conditions'] = ifs

    # checker and other features
    try:
        onnx.checker.check_model(m)
        info['checker'] = 'pass'
    except Exception as e:  # noqa: BLE001
        info['checker'] = 'FAIL: ' + str(e).strip().splitlines()[0][:200]
        if m.ir_version > onnx.IR_VERSION:
            # onnx 1.12 stops at IR 8: check a copy with the IR version lowered.
            c = onnx.ModelProto()
            c.CopyFrom(m)
            c.ir_version = onnx.IR_VERSION
            try:
                onnx.checker.check_model(c)
                info['checker'] += ' (a copy with ir_version lowered to %d passes)' % onnx.IR_VERSION
            except Exception as e2:  # noqa: BLE001
                info['checker'] += ' (with ir_version lowered to %d: %s)' % (
                    onnx.IR_VERSION, str(e2).strip().splitlines()[0][:200])
    info['functions'] = [f.name for f in m.functions]
    info['sparse_initializers'] = sum(len(g.sparse_initializer) for _, g in graphs)
    info['external_data'] = sum(1 for t in all_tensors(m.graph)
                                if t.data_location == TensorProto.EXTERNAL)
    info['value_info'] = {'main': len(m.graph.value_info),
                          'sub': sum(len(g.value_info) for gp, g in graphs[1:])}
    info['initializers'] = {'main': len(m.graph.initializer),
                            'sub': sum(len(g.initializer) for gp, g in graphs[1:])}
    info['metadata_props'] = {p.key: p.value[:80] for p in m.metadata_props}

    # (op, version) pairs
    pairs = collections.Counter()
    for gp, g in graphs:
        for n in g.node:
            if n.domain in ('', 'ai.onnx') and n.op_type in LISTED_OPS:
                pairs[(n.op_type, resolve_version(n.op_type, opset))] += 1
    info['op_versions'] = {'%s-%s' % k: v for k, v in sorted(
        pairs.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0))}
    other = collections.Counter()
    for gp, g in graphs:
        for n in g.node:
            if n.domain not in ('', 'ai.onnx'):
                other['%s::%s' % (n.domain, n.op_type)] += 1
    info['non_default_domain_nodes'] = dict(other)

    # onnx shape inference on the Shape/Reshape/Size outputs
    info['infer_shapes'] = {}
    for mode, kw in (('default', {}), ('data_prop', {'data_prop': True})):
        res = {'static': 0, 'partial': 0, 'none': 0, 'by_op': {}, 'error': None,
               'reshape_outputs': {}}
        try:
            inf = onnx.shape_inference.infer_shapes(m, **kw)
        except Exception as e:  # noqa: BLE001
            res['error'] = str(e).strip().splitlines()[0][:200]
            inf = None
        known = {}
        if inf is not None:
            for _, g in walk(inf.graph):
                for vi in list(g.value_info) + list(g.output) + list(g.input):
                    known[vi.name] = dims_of(vi.type)
        by_op = {op: {'static': 0, 'partial': 0, 'none': 0} for op in TARGET_OPS}
        for gp, g in graphs:
            for n in g.node:
                if n.op_type in TARGET_OPS:
                    c = shape_class(known.get(n.output[0]))
                    res[c] += 1
                    by_op[n.op_type][c] += 1
                    if n.op_type == 'Reshape':
                        res['reshape_outputs'][n.output[0]] = known.get(n.output[0])
        res['by_op'] = by_op
        info['infer_shapes'][mode] = res
    return info


# ---- the report ---------------------------------------------------------------
def md_table(header, rows):
    out = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    for r in rows:
        out.append('| ' + ' | '.join(str(c).replace('|', '\\|') for c in r) + ' |')
    return '\n'.join(out)


def fmt_counts(c):
    return ', '.join('%s %d' % (k, v) for k, v in c.items())


def report(infos):
    L = []
    L.append('# Survey of the real-model corpus')
    L.append('')
    L.append('Generated by `/usr/bin/python3 tests/models/survey.py --out tests/models/SURVEY.md` '
             'with onnx %s over the models of `tests/models/models.json` '
             '(fetched by `scripts/fetch-models`). Do not edit by hand.' % onnx.__version__)
    L.append('')
    L.append('Conventions: a graph path is `NODE/ATTRIBUTE` per nesting level, joined by `/` '
             '(`""` = main graph); NODE is the node name, or `OP#INDEX` when the node has none. '
             'Node names of PyTorch exports contain `/` themselves '
             '(e.g. `/decoder/If_1/then_branch//decoder/rnn/If`). '
             'Declared dims: a number, a symbol name, or `?` (no value, no symbol).')
    L.append('')
    L.append('## Corpus')
    L.append('')
    rows = []
    for i in infos:
        tc = i['target_counts']
        rows.append([i['name'], i['package'], i['size'], ', '.join(
            '%s %s' % kv for kv in i['opsets'].items()), i['ir_version'], i['producer'],
            i['nodes_total'], len(i['subgraphs']),
            '%d/%d' % (tc['Shape']['main'], tc['Shape']['sub']),
            '%d/%d' % (tc['Reshape']['main'], tc['Reshape']['sub']),
            '%d/%d' % (tc['Size']['main'], tc['Size']['sub']),
            'pass' if i['checker'] == 'pass' else 'FAIL'])
    L.append(md_table(['model', 'package', 'bytes', 'opset imports', 'IR', 'producer',
                       'nodes (all graphs)', 'subgraphs', 'Shape main/sub',
                       'Reshape main/sub', 'Size main/sub', 'checker'], rows))
    tot = {op: [sum(i['target_counts'][op]['main'] for i in infos),
                sum(i['target_counts'][op]['sub'] for i in infos)] for op in TARGET_OPS}
    L.append('')
    L.append('Totals: ' + ', '.join('%s %d main + %d in subgraphs' % (op, a, b)
                                    for op, (a, b) in tot.items()) + '; %d models, %d bytes.'
             % (len(infos), sum(i['size'] for i in infos)))
    L.append('')

    L.append('## (op, resolved version) pairs of the listed ops')
    L.append('')
    L.append('Versions are the `since_version` of the schema in force at the model\'s default-domain '
             'opset (onnx 1.12 knows opsets up to 17; for opset 18 the ops that changed in 18 are '
             'taken as version 18). Counts are nodes over all graphs, with the models using them.')
    L.append('')
    agg = {}
    for i in infos:
        for k, v in i['op_versions'].items():
            agg.setdefault(k, [0, []])
            agg[k][0] += v
            agg[k][1].append(i['name'])

    def order(k):
        o, ver = k.rsplit('-', 1)
        return (LISTED_OPS.index(o), int(ver) if ver.isdigit() else 0)
    agg = collections.OrderedDict((k, agg[k]) for k in sorted(agg, key=order))
    L.append(md_table(['op-version', 'nodes', 'models'],
                      [[k, v[0], ', '.join(v[1])] for k, v in agg.items()]))
    absent = [op for op in LISTED_OPS if not any(k.rsplit('-', 1)[0] == op for k in agg)]
    L.append('')
    L.append('Listed ops absent from the corpus: ' + (', '.join(absent) or 'none') + '.')
    L.append('')

    L.append('## onnx.shape_inference.infer_shapes on the Shape/Reshape/Size outputs')
    L.append('')
    L.append('static = every dim a number; partial = rank known, some dim symbolic or unknown; '
             'none = no shape (rank unknown or no type). All graphs, main and subgraphs. '
             '`data_prop` = `infer_shapes(model, data_prop=True)`.')
    L.append('')
    rows = []
    for i in infos:
        n = sum(i['target_counts'][op]['main'] + i['target_counts'][op]['sub'] for op in TARGET_OPS)
        if not n:
            continue
        row = [i['name'], n]
        for mode in ('default', 'data_prop'):
            r = i['infer_shapes'][mode]
            if r['error']:
                row.append('error: ' + r['error'][:80])
            else:
                row.append('%d / %d / %d' % (r['static'], r['partial'], r['none']))
        d = i['infer_shapes']['default']['by_op']
        row.append('; '.join('%s %d/%d/%d' % (op, d[op]['static'], d[op]['partial'], d[op]['none'])
                             for op in TARGET_OPS if sum(d[op].values())))
        rows.append(row)
    L.append(md_table(['model', 'outputs', 'default static/partial/none',
                       'data_prop static/partial/none', 'default, by op'], rows))
    L.append('')
    L.append('Models without any Shape/Reshape/Size node are left out of this table.')
    L.append('')

    L.append('## Runtime-computed Reshape targets')
    L.append('')
    rows = []
    for i in infos:
        for r in i['reshapes']:
            if r['target'] == 'runtime':
                rows.append([i['name'], r['node'], r['graph'] or '(main)',
                             '<br>'.join(r.get('chains', [])), '`%s`' % r.get('expr', '')])
    L.append(md_table(['model', 'Reshape node', 'graph', 'op chains (leaf -> target)',
                       'target expression'], rows) if rows else 'None.')
    L.append('')
    L.append('In the expressions `%name` is a value of the model (a graph input or an '
             'intermediate tensor, as fed to Shape), a JSON value is a constant (initializer or '
             'Constant node), and integer attributes follow the inputs. A chain runs from a leaf '
             'that is not a constant (Shape/Size, a graph input `%name`, an If output) to the '
             'Reshape\'s shape input; constant inputs along the way are left out.')
    L.append('')

    L.append('## Models')
    for i in infos:
        L.append('')
        L.append('### %s' % i['name'])
        L.append('')
        L.append('- package: `%s`, file `%s`, %d bytes' % (i['package'], i['path'], i['size']))
        L.append('- IR %d, producer %s, opset imports: %s' % (
            i['ir_version'], i['producer'],
            ', '.join('`%s` %s' % kv for kv in i['opsets'].items())))
        L.append('- inputs: ' + '; '.join('`%s` %s %s' % (x['name'], x['type'], fmt_dims(x['dims']))
                                          for x in i['inputs'])
                 + (' (plus %d initializers listed as graph inputs)' %
                    i['initializers_listed_as_inputs'] if i['initializers_listed_as_inputs'] else ''))
        L.append('- outputs: ' + '; '.join('`%s` %s' % (x['name'][:60], fmt_dims(x['dims']))
                                           for x in i['outputs']))
        L.append('- checker: %s' % i['checker'])
        L.append('- model-local functions: %s; sparse initializers: %d; external-data tensors: %d; '
                 'value_info: %d main, %d in subgraphs; initializers: %d main, %d in subgraphs' % (
                     ', '.join(i['functions']) or 'none', i['sparse_initializers'],
                     i['external_data'], i['value_info']['main'], i['value_info']['sub'],
                     i['initializers']['main'], i['initializers']['sub']))
        if i['non_default_domain_nodes']:
            L.append('- nodes of other domains: %s' % fmt_counts(i['non_default_domain_nodes']))
        if i['metadata_props']:
            L.append('- metadata_props keys: %s' % ', '.join(i['metadata_props']))
        tc = i['target_counts']
        L.append('- Shape %d+%d, Reshape %d+%d, Size %d+%d (main+subgraphs)' % (
            tc['Shape']['main'], tc['Shape']['sub'], tc['Reshape']['main'], tc['Reshape']['sub'],
            tc['Size']['main'], tc['Size']['sub']))
        L.append('- op versions: %s' % (fmt_counts(i['op_versions']) or 'none of the listed ops'))
        L.append('- main graph ops (%d nodes): %s' % (sum(i['ops_main'].values()),
                                                     fmt_counts(i['ops_main'])))
        if i['subgraphs']:
            L.append('- subgraphs (%d):' % len(i['subgraphs']))
            for s in i['subgraphs']:
                L.append('  - `%s` (%d nodes): %s' % (s['path'], s['nodes'],
                                                      fmt_counts(s['ops']) or 'empty'))
        if i['shape_size_nodes']:
            L.append('- Shape/Size nodes:')
            for s in i['shape_size_nodes']:
                L.append('  - %s `%s` in %s: `%s` -> `%s`%s' % (
                    s['op'], s['node'], '`%s`' % s['graph'] if s['graph'] else 'main',
                    s['input'], s['output'],
                    ' ' + json.dumps(s['attrs']) if s['attrs'] else ''))
        if i['reshapes']:
            L.append('- Reshape nodes:')
            for r in i['reshapes']:
                where = '`%s`' % r['graph'] if r['graph'] else 'main'
                what = r['target']
                if 'value' in r:
                    what += ' %s' % json.dumps(r['value'])
                if r.get('chains'):
                    what += '; chains: %s' % ', '.join('`%s`' % c for c in r['chains'])
                if 'expr' in r:
                    what += '; `%s`' % r['expr']
                if r['allowzero']:
                    what += '; allowzero=1'
                L.append('  - `%s` in %s -> `%s`: %s' % (r['node'], where, r['output'], what))
        if i['if_conditions']:
            L.append('- If conditions:')
            for c in i['if_conditions']:
                L.append('  - `%s` in %s: %s `%s`' % (
                    c['node'], '`%s`' % c['graph'] if c['graph'] else 'main',
                    c['cond'], c['expr']))
        for mode in ('default', 'data_prop'):
            r = i['infer_shapes'][mode]
            if r['error']:
                L.append('- infer_shapes (%s): error: %s' % (mode, r['error']))
            elif r['static'] + r['partial'] + r['none']:
                L.append('- infer_shapes (%s): %d static, %d partial, %d none; Reshape outputs: %s' % (
                    mode, r['static'], r['partial'], r['none'],
                    ', '.join('`%s` %s' % (k, fmt_dims(v))
                              for k, v in r['reshape_outputs'].items()) or 'none'))
    L.append('')
    return '\n'.join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--models', default=os.path.join(TOP, '.cache', 'models'))
    ap.add_argument('--manifest', default=MANIFEST)
    ap.add_argument('--out')
    ap.add_argument('--json')
    a = ap.parse_args()
    with open(a.manifest) as f:
        manifest = json.load(f)
    infos = []
    for e in manifest['models']:
        p = os.path.join(a.models, e['name'] + '.onnx')
        if not os.path.exists(p):
            sys.exit('survey: %s is missing: run scripts/fetch-models first' % p)
        infos.append(survey_model(e, p))
    text = report(infos)
    if a.out:
        with open(a.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(infos, f, indent=1, default=str)
            f.write('\n')


if __name__ == '__main__':
    main()
