#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""make check-models: onnxshape's analysis of the real-model corpus against
the ground truth that onnxruntime-node recorded (ground_truth.json).

For every case of ground_truth.json (a model and concrete input dims):
  1. `onnxshape infer --json --input NAME=DIMS...` on the model as shipped
     must exit 0 and list every Shape, Reshape and Size output; none may
     contradict onnxruntime: a known dim or value that differs, a wrong
     rank, or one symbol standing for two different numbers is a failure.
     Each recorded output is then exact (every dim, and for Shape and Size
     every value, a number), partial (rank known) or unknown.
  2. The same after onnx's shape inference (onnx.shape_inference.infer_shapes
     on the shipped model, as in docs/cli.md's two-step workflow).
  3. onnx's own inference, given the same concrete input dims, for the
     same outputs (dims only: onnx keeps no values).
  4. `onnxshape check --json` on the shipped model (and on the inferred one)
     must exit 0 or 1 with no finding but portability risks: every case runs
     in onnxruntime, so no node is certain to fail and no declaration
     contradicts a computed value.
Prints one table row per case and the totals; exit 0 when nothing failed,
1 otherwise.

Needs Debian's python3-onnx: run with /usr/bin/python3.
Usage: check_models.py ONNXSHAPE MODELS_DIR [--truth FILE] [--markdown FILE]
  --truth FILE     another ground truth (default ground_truth.json beside this
                   script; scripts/check-models passes a tampered copy to show
                   that a contradiction fails)
  --markdown FILE  also writes the table there
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from survey import TARGET_OPS, walk  # noqa: E402
# check's findings a real model may have: portability warnings (a rule id
# 'portability/Dn', docs/cli.md "Rules"), which leave check's exit 0.
ALLOWED_FAMILY = 'portability/'


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        p.stderr.decode('utf-8', 'replace')


def binding_args(inputs):
    args = []
    for name, b in sorted(inputs.items()):
        args += ['--input', '%s=%s' % (name, ','.join(str(d) for d in b['dims']))]
    return args


def infer(tool, model, inputs, errors, label, graph_inputs=None):
    """Runs infer --json; returns {(graph, name): record} of node outputs
    (and fills graph_inputs, when given, with {name: dims} of the main
    graph's inputs)."""
    rc, out, err = run([tool, 'infer', '--json'] + binding_args(inputs) + [model])
    if rc != 0:
        errors.append('%s: infer exited %d: %s' % (label, rc, err.strip()))
        return {}
    recs = {}
    lines = out.splitlines()
    if not lines or 'summary' not in json.loads(lines[-1]):
        errors.append('%s: infer --json did not end with a summary' % label)
    for line in lines:
        r = json.loads(line)
        if 'summary' not in r and 'node' in r:
            recs[(r['graph'], r['name'])] = r
        elif graph_inputs is not None and r.get('graph') == '' and 'origin' not in r:
            graph_inputs[r['name']] = r['dims']
    return recs


def classify(known_dims, known_values):
    """exact / partial / unknown as onnxshape's summary counts them."""
    if known_dims is None:
        return 'unknown'
    if all(known_dims) and (known_values is None or all(known_values)):
        return 'exact'
    return 'partial'


def compare(rec, truth, symbols, errors, label):
    """One output: checks rec against truth, returns its class."""
    where = '%s: %s %s (node %s, graph "%s")' % (
        label, truth['op'], truth['output'], truth['node'], truth['graph'])

    def elem(got, want, what, i):
        if isinstance(got, int):
            if got != want:
                errors.append('%s: %s %d is %d, onnxruntime computed %s' %
                              (where, what, i, got, want))
            return True
        if isinstance(got, str):
            prev = symbols.setdefault(got, (want, where))
            if prev[0] != want:
                errors.append('%s: symbol %s is %s here but %s at %s' %
                              (where, got, want, prev[0], prev[1]))
        return False

    if rec is None:
        errors.append('%s: missing from infer --json' % where)
        return 'unknown'
    if rec['op'] != truth['op']:
        errors.append('%s: infer says op %s' % (where, rec['op']))
    dims = rec['dims']
    if dims is None:
        known_dims = None
    elif len(dims) != len(truth['dims']):
        errors.append('%s: rank %d, onnxruntime computed dims %s' %
                      (where, len(dims), truth['dims']))
        return 'unknown'
    else:
        known_dims = [elem(g, w, 'dim', i) for i, (g, w) in
                      enumerate(zip(dims, truth['dims']))]
    known_values = None
    if 'values' in truth:
        got = rec.get('value')
        want = [int(v) for v in truth['values']]
        if got is None:
            known_values = [False] * len(want)
        elif len(got) != len(want):
            errors.append('%s: %d values, onnxruntime computed %s' %
                          (where, len(got), want))
            known_values = [False]
        else:
            known_values = [elem(g, w, 'value', i) for i, (g, w) in
                            enumerate(zip(got, want))]
    return classify(known_dims, known_values)


def onnx_dims(model, names):
    """onnx's inferred dims for each name: list (int or None) or None."""
    known = {}
    for _, g in walk(model.graph):
        for vi in list(g.value_info) + list(g.output):
            t = vi.type.tensor_type
            if vi.type.HasField('tensor_type') and t.HasField('shape'):
                known[vi.name] = [d.dim_value if d.HasField('dim_value') else None
                                  for d in t.shape.dim]
    return {n: known.get(n) for n in names}


def bind_inputs(model, inputs):
    """A copy of model whose graph inputs declare the case's dims."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in m.graph.input:
        if vi.name in inputs:
            shape = vi.type.tensor_type.shape
            shape.ClearField('dim')
            for d in inputs[vi.name]['dims']:
                shape.dim.add().dim_value = d
    return m


def fixed_inference(model, inputs):
    """onnx 1.12's inference with the case's input dims fixed."""
    return onnx.shape_inference.infer_shapes(bind_inputs(model, inputs), data_prop=True)


def onnx_classes(inferred, truths):
    """How much of each output onnx's own inference knows (dims only)."""
    dims = onnx_dims(inferred, [t['output'] for t in truths])
    out = []
    for t in truths:
        d = dims[t['output']]
        if d is not None and len(d) == len(t['dims']):
            for g, w in zip(d, t['dims']):
                if g is not None and g != w:
                    raise ValueError('onnx infers %s for %s, onnxruntime %s' %
                                     (d, t['output'], t['dims']))
        out.append(classify(None if d is None else [x is not None for x in d], None))
    return out


def check(tool, model, errors, label):
    rc, out, err = run([tool, 'check', '--json', model])
    if rc not in (0, 1):
        errors.append('%s: check exited %d: %s' % (label, rc, err.strip()))
        return 0
    n = 0
    for line in out.splitlines():
        r = json.loads(line)
        if 'summary' in r:
            continue
        n += 1
        if not r['rule'].startswith(ALLOWED_FAMILY) or r['severity'] != 'warning':
            errors.append('%s: check finding %s: %s' % (label, r['rule'], r['message']))
    if rc != 0 and not errors:
        errors.append('%s: check exited %d with warnings only' % (label, rc))
    return n


def counts(classes):
    return '%d/%d/%d' % tuple(classes.count(c) for c in ('exact', 'partial', 'unknown'))


def main(argv):
    opts = {'--truth': os.path.join(HERE, 'ground_truth.json'), '--markdown': None}
    if len(argv) < 3 or len(argv) % 2 == 0 or any(k not in opts for k in argv[3::2]):
        sys.stderr.write('usage: check_models.py ONNXSHAPE MODELS_DIR '
                         '[--truth FILE] [--markdown FILE]\n')
        return 2
    opts.update(zip(argv[3::2], argv[4::2]))
    tool, models_dir = argv[1], argv[2]
    with open(opts['--truth']) as f:
        truth = json.load(f)
    errors = []
    rows = []
    totals = {'n': 0, 'raw': [], 'after': [], 'fixed': [], 'onnx': [], 'findings': 0}
    inferred_files = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case, c in truth['cases'].items():
            label = case
            path = os.path.join(models_dir, c['model'] + '.onnx')
            if not os.path.isfile(path) or sha256(path) != c['sha256']:
                errors.append('%s: %s is missing or differs from models.json' % (label, path))
                continue
            model = onnx.load(path)
            if c['model'] not in inferred_files:
                inf = os.path.join(tmp, c['model'] + '.onnx')
                onnx.save(onnx.shape_inference.infer_shapes(model), inf)
                inferred_files[c['model']] = inf
                findings = check(tool, path, errors, label)
                findings += check(tool, inf, errors, label + ' (after onnx)')
                totals['findings'] += findings
            outs = c['outputs']
            fixed = fixed_inference(model, c['inputs'])
            fixed_file = os.path.join(tmp, case.replace('/', '_') + '.fixed.onnx')
            onnx.save(fixed, fixed_file)
            runs = {}
            for key, file, suffix in (('raw', path, ''),
                                      ('after', inferred_files[c['model']], ' (after onnx)'),
                                      ('fixed', fixed_file, ' (after onnx at these dims)')):
                recs = infer(tool, file, c['inputs'], errors, label + suffix)
                symbols = {}
                runs[key] = [compare(recs.get((t['graph'], t['output'])), t, symbols,
                                     errors, label + suffix) for t in outs]
            try:
                cls_onnx = onnx_classes(fixed, outs)
            except ValueError as e:
                errors.append('%s: %s' % (label, e))
                cls_onnx = []
            ops = [t['op'] for t in outs]
            rows.append((case, '%d/%d/%d' % tuple(ops.count(o) for o in TARGET_OPS),
                         counts(runs['raw']), counts(runs['after']), counts(runs['fixed']),
                         counts(cls_onnx),
                         len(c['not_recorded'])))
            totals['n'] += len(outs)
            for key in ('raw', 'after', 'fixed'):
                totals[key] += runs[key]
            totals['onnx'] += cls_onnx
    head = ('case', 'Shape/Reshape/Size', 'onnxshape e/p/u', 'after onnx e/p/u',
            'after onnx at the dims e/p/u', 'onnx alone at the dims (dims only) e/p/u',
            'in branches not run')
    rows.append(('total', str(totals['n']), counts(totals['raw']), counts(totals['after']),
                 counts(totals['fixed']),
                 counts(totals['onnx']),
                 sum(len(c['not_recorded']) for c in truth['cases'].values())))
    table = ['| ' + ' | '.join(head) + ' |', '|' + ' --- |' * len(head)]
    table += ['| ' + ' | '.join(str(x) for x in r) + ' |' for r in rows]
    print('\n'.join(table))
    print('check-models: %d cases, %d outputs compared with onnxruntime-node %s; '
          '%d check findings (portability)' % (len(truth['cases']), totals['n'],
                                               truth['onnxruntime_node'], totals['findings']))
    if opts['--markdown']:
        with open(opts['--markdown'], 'w') as f:
            f.write('\n'.join(table) + '\n')
    for e in errors:
        sys.stderr.write('check-models: FAIL: %s\n' % e)
    if errors:
        sys.stderr.write('check-models: %d failure(s)\n' % len(errors))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
