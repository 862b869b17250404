#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""onnxshape beside onnxruntime's symbolic_shape_infer.py (SSI) and onnx's
infer_shapes(data_prop=True) on the real-model corpus (issue 31).

For every case of ground_truth.json, over the Shape, Reshape and Size
outputs that check_models.py scores, in two modes:
  bound    every graph input fixed to the case's dims: onnxshape with
           `--input NAME=DIMS` (as check_models.py runs it), SSI on a copy of
           the model whose graph inputs declare those dims, onnx on the same
           copy (check_models.fixed_inference);
  shipped  the model as given, symbolic inputs: an element counts as known
           when it is a number or an expression over the model's input
           symbols (the dim_params of its graph inputs; for SSI also the
           names it gives unnamed input dims, NAME_dI), and is checked by
           evaluating it at the case's binding.
Each output is exact (every dim, and for Shape and Size every value, known),
partial (rank known), unknown, or wrong (a known dim, value or rank that
differs from onnxruntime's, or one symbol standing for two numbers at one
binding). SSI keeps the values of Shape and Size outputs as sympy data
(sympy_data_, per graph and subgraph), which are read and scored; "dims
only" ignores values (onnx keeps none, so its columns are dims only).

SSI runs in process, as SymbolicShapeInference.infer_shapes(model,
auto_merge=True, guess_output_rank=False) does, but driven step by step so
that an incomplete inference (infer_shapes raises "Incomplete symbolic shape
inference" and writes sym_shape_infer_temp.onnx into the current directory)
still yields what SSI found; an exception is a crash and leaves every output
of that run unknown.

symbolic_shape_infer.py is onnxruntime's (MIT License, Copyright (c)
Microsoft Corporation), not part of this repository: put the file of
onnxruntime 1.19.0, onnxruntime/python/tools/symbolic_shape_infer.py, at
.cache/ssi/symbolic_shape_infer.py (git-ignored) or pass --ssi FILE. The
figures in docs/analysis.md were measured with the file whose sha256 is
SSI_SHA256 (a different file is used, with a warning). It imports sympy and
packaging (scripts/install-deps ssi). onnx is Debian's 1.12 (knows opsets up
to 17), which SSI calls for every operator it does not handle itself.

Needs Debian's python3-onnx, python3-sympy: run with /usr/bin/python3.
Usage: ssi_compare.py ONNXSHAPE MODELS_DIR [--ssi FILE] [--truth FILE]
                      [--markdown FILE]
Exit 0 on a completed comparison (whatever SSI did), 1 when onnxshape failed
on a model or contradicted onnxruntime (as check_models.py would), 2 usage
or a missing or changed model file.
"""
import contextlib
import importlib.util
import io
import json
import logging
import os
import re
import sys

import onnx
import sympy

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import check_models  # noqa: E402
from survey import walk, path_str  # noqa: E402

SSI_DEFAULT = os.path.join(TOP, '.cache', 'ssi', 'symbolic_shape_infer.py')
# onnxruntime 1.19.0's symbolic_shape_infer.py (139197 bytes, git blob
# b8ef4405dd19cd145e4f48210e658934dba60457).
SSI_SHA256 = '7b2ab3b4806505db9747c7b310a244038b88df03bf4e69e01017c11abac88859'
CLASSES = ('exact', 'partial', 'unknown', 'wrong')
MODES = ('bound', 'shipped')


# ---- SSI ------------------------------------------------------------------
def load_ssi(path):
    spec = importlib.util.spec_from_file_location('symbolic_shape_infer', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.logger.setLevel(logging.CRITICAL)
    return mod


class SSIRun:
    """One SSI inference: status ('complete', 'incomplete', 'crash: ...'),
    the inferred model, its input symbols and the sympy data of every graph,
    keyed by (graph path string, value name)."""

    def __init__(self, ssi, model):
        self.status = 'complete'
        self.model = None
        self.data = {}
        self.input_dims = {}
        cls = ssi.SymbolicShapeInference
        stack = []
        data = self.data
        orig = cls._onnx_infer_subgraph

        def infer_subgraph(inst, node, subgraph, *a, **k):
            # The graph attribute this subgraph is (SSI passes the attribute
            # itself), to key its sympy data by the path walk() gives.
            attr = next((x.name for x in node.attribute
                         if x.type == onnx.AttributeProto.GRAPH and x.g is subgraph), '?')
            stack.append((node.name or node.op_type, attr))
            try:
                sub = orig(inst, node, subgraph, *a, **k)
            finally:
                path = path_str(tuple(stack))
                stack.pop()
            for name, v in sub.sympy_data_.items():
                data[(path, name)] = v
            return sub

        if (ssi.get_opset(model) or 0) < 7:
            self.status = 'crash: opset below 7 (SSI returns None)'
            return
        cls._onnx_infer_subgraph = infer_subgraph
        inst = cls(2**31 - 1, True, False, 0)
        try:
            # SymbolicShapeInference.infer_shapes, step by step; onnx's
            # checker messages on stderr are SSI's, not ours.
            with contextlib.redirect_stderr(io.StringIO()):
                inst._preprocess(model)
                done = False
                while inst.run_:
                    done = inst._infer_impl()
                inst._update_output_from_vi()
            if not done:
                self.status = 'incomplete'
        except Exception as e:  # noqa: BLE001 (any crash is a finding)
            self.status = 'crash: %s: %s' % (type(e).__name__, str(e).strip() or '(no message)')
            tb = e.__traceback__
            while tb.tb_next:
                tb = tb.tb_next
            self.status += ' (symbolic_shape_infer.py line %d, %s)' % (
                tb.tb_lineno, tb.tb_frame.f_code.co_name)
            return
        finally:
            cls._onnx_infer_subgraph = orig
        self.model = inst.out_mp_
        for name, v in inst.sympy_data_.items():
            data[('', name)] = v
        for vi in self.model.graph.input:
            shape = ssi.get_shape_from_value_info(vi)
            if shape is not None:
                self.input_dims[vi.name] = shape

    def records(self, names):
        """{(graph, name): (dims, values)} for the names wanted."""
        out = {}
        if self.model is None:
            return out
        for path, g in walk(self.model.graph):
            p = path_str(path)
            for vi in list(g.value_info) + list(g.output):
                key = (p, vi.name)
                if key not in names or not vi.type.HasField('tensor_type'):
                    continue
                t = vi.type.tensor_type
                dims = None
                if t.HasField('shape'):
                    dims = [d.dim_value if d.HasField('dim_value') else
                            d.dim_param if d.HasField('dim_param') else None
                            for d in t.shape.dim]
                out[key] = (dims, None)
        for key in names:
            if key in self.data:
                v = self.data[key]
                if hasattr(v, 'tolist'):
                    v = v.tolist()
                vals = v if isinstance(v, list) else [v]
                dims = out.get(key, (None, None))[0]
                out[key] = (dims, vals)
        return out


# ---- expressions ----------------------------------------------------------
FUNCS = {'floor': sympy.floor, 'ceil': sympy.ceiling, 'ceiling': sympy.ceiling,
         'max': sympy.Max, 'min': sympy.Min, 'Max': sympy.Max, 'Min': sympy.Min,
         'Mod': sympy.Mod, 'mod': sympy.Mod, 'abs': sympy.Abs, 'Abs': sympy.Abs}
QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
IDENT = re.compile(r'[A-Za-z_][A-Za-z_0-9]*')


def to_expr(x, names):
    """A dim or value (int, string expression, sympy object) as a sympy
    expression, or None. names: symbol names that may not be identifiers
    (a model's dim_params), matched whole."""
    if x is None:
        return None
    if isinstance(x, sympy.Basic):
        return x
    if not isinstance(x, str):
        try:
            return sympy.Integer(int(x))
        except (TypeError, ValueError):
            return None
    local = {}
    s = x

    def sub(name):
        key = '_q%d_' % len(local)
        local[key] = sympy.Symbol(name, integer=True)
        return key
    s = QUOTED.sub(lambda m: sub(re.sub(r"\\(.)", r"\1", m.group(1))), s)
    for n in sorted(names, key=len, reverse=True):
        if not IDENT.fullmatch(n):
            s = re.sub(r'(?<![\w.])%s(?![\w.])' % re.escape(n), lambda m, n=n: sub(n), s)
    for ident in set(IDENT.findall(s)):
        if ident not in FUNCS and ident not in local:
            local[ident] = sympy.Symbol(ident, integer=True)
    local.update(FUNCS)
    try:
        return sympy.sympify(s, locals=local)
    except Exception:  # noqa: BLE001 (an unreadable expression is unknown)
        return None


def judge(dims, values, truth, env, names, seen, dims_only=False):
    """Classifies one output. env: {symbol name: number} of the symbols that
    count as resolved (shipped mode), {} when bound. seen: per run, what
    each unresolved string stood for. Returns (class, known, why): known is
    the set of positions known ('rank', ('d', i), ('v', i))."""
    known = set()
    why = []

    def elem(got, want, what, i):
        e = to_expr(got, names)
        if e is None:
            return
        free = {s.name for s in e.free_symbols}
        if not free or free <= set(env):
            v = e.subs({s: env[s.name] for s in e.free_symbols}) if free else e
            try:
                v = int(v) if v == int(v) else v
            except TypeError:
                pass
            if v != want:
                why.append('%s %d is %s = %s, onnxruntime %s' % (what, i, got, v, want))
            known.add((what[0], i))
            return
        s = str(got)
        prev = seen.setdefault(s, want)
        if prev != want:
            why.append('%s %d is %s, which stands for %s elsewhere, onnxruntime %s' %
                       (what, i, s, prev, want))

    if dims is not None:
        if len(dims) != len(truth['dims']):
            why.append('rank %d, onnxruntime %s' % (len(dims), truth['dims']))
        else:
            known.add('rank')
            for i, (g, w) in enumerate(zip(dims, truth['dims'])):
                elem(g, w, 'dim', i)
    if 'values' in truth and not dims_only and values is not None:
        want = [int(v) for v in truth['values']]
        if len(values) != len(want):
            why.append('%d values, onnxruntime %s' % (len(values), want))
        else:
            for i, (g, w) in enumerate(zip(values, want)):
                elem(g, w, 'value', i)
    if why:
        return 'wrong', known, why
    if 'rank' not in known:
        return 'unknown', known, why
    n = len(truth['dims'])
    if 'values' in truth and not dims_only:
        n += len(truth['values'])
    return ('exact' if len(known) - 1 == n else 'partial'), known, why


# ---- the tools ------------------------------------------------------------
def onnx_records(inferred, names):
    """onnx's dims (numbers and dim_params) for each wanted (graph, name)."""
    out = {}
    for path, g in walk(inferred.graph):
        p = path_str(path)
        for vi in list(g.value_info) + list(g.output):
            t = vi.type.tensor_type
            if (p, vi.name) in names and vi.type.HasField('tensor_type') and t.HasField('shape'):
                out[(p, vi.name)] = ([d.dim_value if d.HasField('dim_value') else
                                      d.dim_param if d.HasField('dim_param') else None
                                      for d in t.shape.dim], None)
    return out


def input_env(input_dims, inputs):
    """{symbol: number} from graph input dims (lists with strings) and a
    binding; a symbol bound to two numbers is left out (and reported)."""
    env, clash = {}, set()
    for name, dims in input_dims.items():
        if name not in inputs or dims is None:
            continue
        for d, v in zip(dims, inputs[name]['dims']):
            if isinstance(d, str):
                if env.setdefault(d, v) != v:
                    clash.add(d)
    for d in clash:
        del env[d]
    return env, clash


def unquote(d):
    """A symbol as onnxshape prints it (a name that is not an identifier
    quoted, docs/cli.md "Expressions") as the name itself."""
    if isinstance(d, str) and len(d) >= 2 and d[0] == "'" and d[-1] == "'":
        return re.sub(r"\\(.)", r"\1", d[1:-1])
    return d


def declared_dims(model):
    return {vi.name: [d.dim_value if d.HasField('dim_value') else
                      d.dim_param if d.HasField('dim_param') else None
                      for d in vi.type.tensor_type.shape.dim]
            for vi in model.graph.input
            if vi.type.HasField('tensor_type') and vi.type.tensor_type.HasField('shape')}


def show(rec):
    if rec is None:
        return 'nothing'
    dims, vals = rec
    s = '?' if dims is None else '[%s]' % ', '.join('?' if d is None else str(d) for d in dims)
    if vals is not None:
        s += ' = [%s]' % ', '.join('?' if v is None else str(v) for v in vals)
    return s


def counts(classes):
    return '/'.join(str(classes.count(c)) for c in CLASSES)


def main(argv):
    opts = {'--ssi': SSI_DEFAULT, '--truth': os.path.join(HERE, 'ground_truth.json'),
            '--markdown': None}
    if len(argv) < 3 or len(argv) % 2 == 0 or any(k not in opts for k in argv[3::2]):
        sys.stderr.write('usage: ssi_compare.py ONNXSHAPE MODELS_DIR [--ssi FILE] '
                         '[--truth FILE] [--markdown FILE]\n')
        return 2
    opts.update(zip(argv[3::2], argv[4::2]))
    tool, models_dir = argv[1], argv[2]
    if not os.path.isfile(opts['--ssi']):
        sys.stderr.write('ssi_compare: no %s: put onnxruntime 1.19.0\'s '
                         'onnxruntime/python/tools/symbolic_shape_infer.py there '
                         '(sha256 %s) or pass --ssi FILE\n' % (opts['--ssi'], SSI_SHA256))
        return 2
    ssi_sha = check_models.sha256(opts['--ssi'])
    if ssi_sha != SSI_SHA256:
        sys.stderr.write('ssi_compare: warning: %s has sha256 %s, not the %s the '
                         'documented figures were measured with\n'
                         % (opts['--ssi'], ssi_sha, SSI_SHA256))
    ssi = load_ssi(opts['--ssi'])
    with open(opts['--truth']) as f:
        truth = json.load(f)

    errors = []
    rows = []
    tot = {(m, t): [] for m in MODES for t in ('os', 'ssi', 'ssi_d', 'onnx')}
    gaps = {m: {} for m in MODES}
    wrongs, crashes, beats_ssi = [], [], {m: 0 for m in MODES}
    shipped = {}   # model -> (onnxshape records, SSIRun, onnx records, declared dims)
    for case, c in truth['cases'].items():
        path = os.path.join(models_dir, c['model'] + '.onnx')
        if not os.path.isfile(path) or check_models.sha256(path) != c['sha256']:
            sys.stderr.write('ssi_compare: %s is missing or differs from models.json\n' % path)
            return 2
        model = onnx.load(path)
        outs = c['outputs']
        names = {(t['graph'], t['output']) for t in outs}
        if c['model'] not in shipped:
            allnames = {(t['graph'], t['output']) for cc in truth['cases'].values()
                        if cc['model'] == c['model'] for t in cc['outputs']}
            run = SSIRun(ssi, model)
            os_inputs = {}
            shipped[c['model']] = (
                check_models.infer(tool, path, {}, errors, c['model'] + ' (shipped)',
                                   os_inputs),
                run, run.records(allnames),
                onnx_records(onnx.shape_inference.infer_shapes(model, data_prop=True), allnames),
                declared_dims(model),
                {k: None if v is None else [unquote(d) for d in v]
                 for k, v in os_inputs.items()})
            if run.status != 'complete':
                crashes.append((c['model'], 'shipped', run.status))
        os_ship, ssi_ship_run, ssi_ship, onnx_ship, decl, os_in = shipped[c['model']]
        bound_model = check_models.bind_inputs(model, c["inputs"])
        ssi_bound_run = SSIRun(ssi, bound_model)
        if ssi_bound_run.status != 'complete':
            crashes.append((case, 'bound', ssi_bound_run.status))
        recs = {
            'bound': {
                'os': {k: (r['dims'], r.get('value')) for k, r in check_models.infer(
                    tool, path, c['inputs'], errors, case).items()},
                'ssi': ssi_bound_run.records(names),
                'onnx': onnx_records(check_models.fixed_inference(model, c['inputs']), names),
            },
            'shipped': {
                'os': {k: (r['dims'], r.get('value')) for k, r in os_ship.items()},
                'ssi': ssi_ship,
                'onnx': onnx_ship,
            },
        }
        env_decl, _ = input_env(decl, c['inputs'])
        env_os, _ = input_env(os_in, c['inputs'])
        env_ssi, clash = input_env(ssi_ship_run.input_dims, c['inputs'])
        if clash:
            wrongs.append((case, 'shipped', '-', '-', 'SSI merged input symbols %s that '
                           'this binding gives different numbers' % sorted(clash)))
        sym_names = set(env_decl) | set(env_ssi) | set(env_os)
        row = [case, str(len(outs))]
        for mode in MODES:
            envs = {'os': env_os, 'ssi': env_ssi, 'onnx': env_decl} if mode == 'shipped' \
                else {'os': {}, 'ssi': {}, 'onnx': {}}
            cls = {t: [] for t in ('os', 'ssi', 'ssi_d', 'onnx')}
            seen = {t: {} for t in cls}
            for t in outs:
                key = (t['graph'], t['output'])
                j = {}
                for tool_key, rk, dims_only in (('os', 'os', False), ('ssi', 'ssi', False),
                                                ('ssi_d', 'ssi', True), ('onnx', 'onnx', True)):
                    r = recs[mode][rk].get(key)
                    j[tool_key] = judge(r[0] if r else None, r[1] if r else None, t,
                                        envs[rk], sym_names, seen[tool_key], dims_only)
                    cls[tool_key].append(j[tool_key][0])
                if j['os'][0] == 'wrong':
                    errors.append('%s (%s): onnxshape: %s %s: %s' %
                                  (case, mode, t['op'], t['output'], '; '.join(j['os'][2])))
                if j['ssi'][0] == 'wrong':
                    wrongs.append((case, mode, '%s "%s"' % (t['op'], t['node']), t['output'],
                                   '; '.join(j['ssi'][2]) + '; SSI: ' +
                                   show(recs[mode]['ssi'].get(key))))
                ssi_k, os_k = j['ssi'][1], j['os'][1]
                if j['ssi'][0] != 'wrong' and ssi_k - os_k:
                    gk = (c['model'] if mode == 'shipped' else case, t['graph'], t['output'])
                    g = gaps[mode].setdefault(gk, {
                        'op': t['op'], 'node': t['node'], 'cases': [],
                        'ssi': show(recs[mode]['ssi'].get(key)),
                        'os': show(recs[mode]['os'].get(key)),
                        'truth': show((t['dims'], t.get('values')))})
                    g['cases'].append(case)
                if j['os'][0] != 'wrong' and os_k - ssi_k:
                    beats_ssi[mode] += 1
            for k in cls:
                tot[(mode, k)] += cls[k]
                row.append(counts(cls[k]))
        row.append('%s / %s' % (ssi_bound_run.status.split(':')[0],
                                ssi_ship_run.status.split(':')[0]))
        rows.append(row)

    head = ['case', 'outputs',
            'bound: onnxshape', 'bound: SSI', 'bound: SSI dims only', 'bound: onnx dims only',
            'shipped: onnxshape', 'shipped: SSI', 'shipped: SSI dims only',
            'shipped: onnx dims only', 'SSI run bound / shipped']
    rows.append(['total', str(sum(len(c['outputs']) for c in truth['cases'].values()))] +
                [counts(tot[(m, k)]) for m in MODES for k in ('os', 'ssi', 'ssi_d', 'onnx')] +
                [''])
    lines = ['Each cell: exact/partial/unknown/wrong outputs. SSI: %s (sha256 %s); '
             'onnx %s.' % (os.path.basename(opts['--ssi']), ssi_sha[:16], onnx.__version__), '']
    lines += ['| ' + ' | '.join(head) + ' |', '|' + ' --- |' * len(head)]
    lines += ['| ' + ' | '.join(r) + ' |' for r in rows]
    for mode in MODES:
        lines += ['', '### Outputs SSI knows more of than onnxshape (%s)' % mode, '']
        if not gaps[mode]:
            lines.append('None.')
        else:
            lines += ['| %s | graph | op, node | output | SSI | onnxshape | onnxruntime |' %
                      ('model' if mode == 'shipped' else 'case'), '|' + ' --- |' * 7]
            for (m, graph, out), g in sorted(gaps[mode].items()):
                who = m if mode == 'bound' else '%s (%s)' % (m, ', '.join(g['cases']))
                lines.append('| %s | %s | %s "%s" | %s | %s | %s | %s |' % (
                    who, graph or '(main)', g['op'], g['node'], out, g['ssi'], g['os'],
                    g['truth']))
        lines.append('')
        lines.append('Outputs where onnxshape knows something SSI does not (%s): %d.'
                     % (mode, beats_ssi[mode]))
    lines += ['', '### SSI runs that did not complete', '']
    lines += ['- %s (%s): %s' % c for c in crashes] or ['None.']
    lines += ['', '### SSI wrong answers', '']
    lines += ['- %s (%s): %s %s: %s' % w for w in wrongs] or ['None.']
    text = '\n'.join(lines)
    print(text)
    if opts['--markdown']:
        with open(opts['--markdown'], 'w') as f:
            f.write(text + '\n')
    for e in errors:
        sys.stderr.write('ssi_compare: FAIL: %s\n' % e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
