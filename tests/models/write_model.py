# SPDX-License-Identifier: Apache-2.0
"""`onnxshape infer --write-model` on the real-model corpus (make check-models).

For every case of tests/models/bindings.json, the model is written twice:
with the case's inputs bound (--input NAME=DIMS) and as given (symbolic).
Each written model must
  1. pass onnx.checker.check_model, and its full_check (onnx's own strict
     shape inference over our value_info) whenever the model as shipped
     passes it;
  2. differ from the model as shipped only in the inputs, outputs and
     value_info of its graphs (the main graph and the subgraphs in If, Loop
     and Scan nodes): every other field is the same;
  3. keep every declaration: the same element types and ranks, each
     declared dim_value, and each declared dim_param either kept or (bound)
     replaced by a number;
  4. hold an entry (value_info or graph output) for every node output
     whose element type infer prints, with that type and every dim infer
     prints as a number, in every graph it writes (the main graph and the
     subgraphs certain to run; the others are copied as shipped);
  5. run in onnxruntime-node on the case's inputs with the same outputs as
     the model as shipped (tests/models/run_pair.js), unless onnxruntime
     refuses it in its own static inference of an If branch that never runs
     at the bound dims: either the model as shipped with only its graph
     inputs declared at those dims fails the same way (Silero VAD v5, v6),
     or the node it fails in lies in a subgraph the model written holds as
     shipped (Silero's batch-1 branches at batch 2); such a case is counted
     as known, and onnx's strict inference accepts every one.
Reading standard input ('-') must write the same bytes as reading the file.

Usage: write_model.py TOOL MODELS_DIR ORT_DIR
Exit 0 passed, 1 failed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import checker

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(errors, msg):
    errors.append(msg)
    print('write-model: FAIL: ' + msg, file=sys.stderr)


def graphs(g, path=''):
    """(path, GraphProto) of g and every graph nested in it, paths as
    onnxshape prints them: NODE/ATTRIBUTE, the node's name or OP#INDEX,
    [k] after a GRAPHS attribute."""
    yield path, g
    for index, n in enumerate(g.node):
        part = (path + '/' if path else '') + (n.name or '%s#%d' % (n.op_type, index))
        for a in n.attribute:
            if a.HasField('g'):
                yield from graphs(a.g, part + '/' + a.name)
            for k, sub in enumerate(a.graphs):
                yield from graphs(sub, '%s/%s[%d]' % (part, a.name, k))


def without_entries(model):
    """The model with the input, output and value_info of every graph removed."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for _, g in graphs(m.graph):
        for field in ('input', 'output', 'value_info'):
            g.ClearField(field)
    return m.SerializeToString()


def passes(model, full):
    try:
        checker.check_model(model, full_check=full)
        return None
    except Exception as e:  # onnx raises several kinds
        return str(e).splitlines()[0] if str(e) else type(e).__name__


def declared(vi):
    t = vi.type.tensor_type
    dims = None
    if t.HasField('shape'):
        dims = [d.dim_value if d.HasField('dim_value') else
                (d.dim_param if d.HasField('dim_param') else None) for d in t.shape.dim]
    return t.elem_type, dims


def check_declarations(errors, label, old, new, bound):
    """Every entry of every graph of old (inputs, outputs, value_info) kept
    in new: bound, a main graph input's symbols may become numbers, and any
    symbol a number where infer computed one."""
    new_graphs = dict(graphs(new.graph))
    for path, og in graphs(old.graph):
        ng = new_graphs[path]
        for field in ('input', 'output', 'value_info'):
            newer = {vi.name: vi for vi in getattr(ng, field)}
            for vi in getattr(og, field):
                where = '%s %r%s' % (field, vi.name, ' in ' + path if path else '')
                if vi.name not in newer:
                    fail(errors, '%s: %s is gone' % (label, where))
                    continue
                (ot, od), (nt, nd) = declared(vi), declared(newer[vi.name])
                if ot != 0 and ot != nt:
                    fail(errors, '%s: %s: elem_type %d became %d' % (label, where, ot, nt))
                if od is None:
                    continue
                if nd is None or len(nd) != len(od):
                    fail(errors, '%s: %s: dims %s became %s' % (label, where, od, nd))
                    continue
                for k, (a, b) in enumerate(zip(od, nd)):
                    if isinstance(a, int) and a != b:
                        fail(errors, '%s: %s dim %d: %s became %s' % (label, where, k, a, b))
                    if isinstance(a, str) and a != b and not isinstance(b, int):
                        fail(errors, '%s: %s dim %d: %r became %r' % (label, where, k, a, b))


def infer_json(tool, path, args):
    p = subprocess.run([tool, 'infer', '--json'] + args + [path], stdout=subprocess.PIPE,
                       check=False)
    recs = {}
    for line in p.stdout.decode().splitlines():
        r = json.loads(line)
        if 'summary' not in r and 'op' in r and ':' not in r['graph']:
            recs[(r['graph'], r['name'])] = r  # not a function body's (DOMAIN:NAME)
    return recs


def check_entries(errors, label, old, new, recs):
    """Every output of a node whose type infer prints has its entry, with
    that type and each dim infer prints as a number, in every graph written
    (a subgraph that may not run is copied as shipped, and skipped here)."""
    entries, as_shipped = {}, set()
    old_graphs = {path: g.SerializeToString() for path, g in graphs(old.graph)}
    for path, g in graphs(new.graph):
        if path and old_graphs.get(path) == g.SerializeToString():
            as_shipped.add(path)  # a subgraph that may not run, copied
        for vi in list(g.value_info) + list(g.output):
            entries[(path, vi.name)] = vi
    n_full = 0
    for name, r in recs.items():
        if r.get('type') is None:
            continue
        if name[0] in as_shipped:
            continue
        if name not in entries:
            fail(errors, '%s: %r (type %s) has no value_info' % (label, name, r['type']))
            continue
        t, dims = declared(entries[name])
        if t == 0 or onnx.TensorProto.DataType.Name(t).lower() != r['type']:
            fail(errors, '%s: %r: elem_type %d, infer says %s' % (label, name, t, r['type']))
        if r.get('dims') is None:
            continue
        want = [d if isinstance(d, int) else None for d in r['dims']]
        got = [d if isinstance(d, int) else None for d in (dims or [])]
        if dims is None or len(got) != len(want) or any(
                w is not None and w != g for w, g in zip(want, got)):
            fail(errors, '%s: %r: dims %s, infer says %s' % (label, name, dims, r['dims']))
        if all(isinstance(d, int) for d in r['dims']):
            n_full += 1
    return n_full


def in_untouched_graph(line, by_label):
    """For a run_pair.js FAIL line of a bound job: 1 when onnxruntime's
    innermost failing node ("Node (NAME)", the last one its message names)
    lies in a subgraph that the written model holds exactly as the model as
    shipped does (a graph analysis did not find certain to run, left as it
    was), so that onnxruntime's inference of a graph we did not write fails
    on the dims of the graphs around it: its static inference of an If
    branch that never runs at these dims (silero's batch-1 branches at
    batch 2)."""
    label = line[len('FAIL '):].split(': ', 1)[0]
    job = by_label.get(label)
    names = re.findall(r'Node \(([^)]*)\)', line)
    if job is None or 'control' not in job or not names:
        return False
    old, new = dict(graphs(onnx.load(job['a']).graph)), dict(graphs(onnx.load(job['b']).graph))
    for path, g in new.items():
        if path and any(n.name == names[-1] for n in g.node):
            return path in old and old[path].SerializeToString() == g.SerializeToString()
    return False


def main():
    tool, models_dir, ort_dir = sys.argv[1:4]
    bindings = json.load(open(os.path.join(HERE, 'bindings.json')))
    errors, jobs, known = [], [], []
    work = tempfile.mkdtemp(prefix='onnxshape-write-model-')
    stdin_checked = False
    for case, b in sorted(bindings.items()):
        if case == 'comment':
            continue
        name = b.get('model', case)
        src = os.path.join(models_dir, name + '.onnx')
        old = onnx.load(src)
        args = []
        for inp, spec in sorted(b['inputs'].items()):
            args += ['--input', '%s=%s' % (inp, ','.join(str(d) for d in spec['dims']))]
        types = {vi.name: vi.type.tensor_type.elem_type for vi in old.graph.input}
        feed = {k: dict(v, type=types[k]) for k, v in b['inputs'].items()}
        for bound in (True, False):
            label = '%s (%s)' % (case, 'bound' if bound else 'as given')
            if not bound and '@' in case:
                continue  # a variant's symbolic form is its model's
            out = os.path.join(work, '%s-%s.onnx' % (case, 'bound' if bound else 'sym'))
            cmd = [tool, 'infer', '--write-model', out] + (args if bound else []) + [src]
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            if p.returncode != 0:
                fail(errors, '%s: infer --write-model exited %d: %s'
                     % (label, p.returncode, p.stderr.decode().strip()))
                continue
            new = onnx.load(out)
            for full in (False, True):
                why_old, why_new = passes(old, full), passes(new, full)
                if why_new is not None and why_old is None:
                    fail(errors, '%s: check_model(full_check=%s): %s' % (label, full, why_new))
            if without_entries(old) != without_entries(new):
                fail(errors, '%s: fields other than the main graph\'s entries changed' % label)
            check_declarations(errors, label, old, new, bound)
            recs = infer_json(tool, src, args if bound else [])
            n_full = check_entries(errors, label, old, new, recs)
            n_vi = sum(len(g.value_info) for _, g in graphs(new.graph))
            n_was = sum(len(g.value_info) for _, g in graphs(old.graph))
            print('write-model: %s: %d value_info (was %d), %d of %d node outputs with all dims '
                  'known' % (label, n_vi, n_was, n_full, len(recs)))
            job = {'label': label, 'a': src, 'b': out, 'inputs': feed}
            if bound:
                control = onnx.ModelProto()
                control.CopyFrom(old)
                control.graph.ClearField('input')
                control.graph.input.extend(new.graph.input)
                job['control'] = out[:-len('.onnx')] + '-control.onnx'
                onnx.save(control, job['control'])
            jobs.append(job)
            if not bound and not stdin_checked:
                stdin_checked = True
                again = os.path.join(work, 'stdin.onnx')
                with open(src, 'rb') as f:
                    subprocess.run([tool, 'infer', '--write-model', again, '-'], stdin=f,
                                   stdout=subprocess.DEVNULL, check=False)
                if not os.path.exists(again) or open(again, 'rb').read() != open(out, 'rb').read():
                    fail(errors, '%s: from standard input, another file was written' % label)
    job_file = os.path.join(work, 'jobs.json')
    json.dump(jobs, open(job_file, 'w'))
    p = subprocess.run(['node', os.path.join(HERE, 'run_pair.js'), ort_dir, job_file],
                       stdout=subprocess.PIPE, check=False)
    by_label = {j['label']: j for j in jobs}
    for line in p.stdout.decode().splitlines():
        print('write-model: onnxruntime: ' + line)
        if line.startswith('FAIL ') and in_untouched_graph(line, by_label):
            print('write-model: onnxruntime: known: the node it fails in lies in a subgraph '
                  'written as shipped (one that may not run); it fails on the dims of the '
                  'graphs around it')
            known.append(line)
        elif line.startswith('known '):
            known.append(line)
        elif not line.startswith('ok '):
            fail(errors, 'onnxruntime: ' + line)
    if p.returncode not in (0, 1) or (p.returncode == 1 and not any(
            l.startswith('FAIL ') for l in p.stdout.decode().splitlines())):
        fail(errors, 'run_pair.js exited %d' % p.returncode)
    subprocess.run(['rm', '-rf', work], check=False)
    if errors:
        print('write-model: %d failures' % len(errors), file=sys.stderr)
        return 1
    print('write-model: %d models written and checked; %d run in onnxruntime with the same '
          'outputs, %d refused by onnxruntime\'s static inference of an If branch that never '
          'runs at the bound dims (known)' % (len(jobs), len(jobs) - len(known), len(known)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
