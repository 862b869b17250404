// SPDX-License-Identifier: Apache-2.0
// Differential test of the analysis handlers (docs/analysis.md) against
// onnxruntime-node, operator by operator: random single-node models whose
// generators live in tests/diff/shape_ops/*.js (one file per handler
// family), run by onnxruntime on random data, and analysed by `onnxshape
// infer --json` in one of three modes:
//   concrete  every input dim declared as a number;
//   symbolic  some dims declared as symbols (dim_param): each inferred
//             expression is evaluated at the values the case used;
//   bound     the same symbols, bound with --dim (expressions become
//             numbers inside the analysis).
// For every output: a known element type must be onnxruntime's; a known
// rank must be its rank; every dim (a number, or an expression evaluated at
// the case's values) must be its dim; every known element value of an
// integer output must be its value. An unknown is allowed but counted, and
// each operator must have at least its share (min_exact, default 0.9) of
// exact results (type and every dim known) where onnxruntime runs the
// node (judged from 20 cases), so a handler that gives up cannot pass. A case onnxruntime refuses
// is counted; then onnxshape must not claim the node fails.
// covers: ANALYSIS-OPS ANALYSIS-EXPR ANALYSIS-REGISTRY
//
// Usage: node shape_diff.js --tool ONNXSHAPE --ort DIR [--cases N] [--seed S] [--op NAME]
//   N cases per operator version (default 20). SHAPE_DIFF_TRACE=1 prints
//   each case before it runs; SHAPE_DIFF_VERBOSE=1 prints
//   each unknown result.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const E = require('./onnx_encode.js');

const args = { cases: 20, seed: Date.now() % 4294967296 };
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
if (!args.tool || !args.ort) {
  console.error('usage: node shape_diff.js --tool ONNXSHAPE --ort DIR [--cases N] [--seed S] ' +
                '[--op NAME]');
  process.exit(2);
}
const CASES = Number(args.cases);
const MIN_JUDGED = 20; // cases of an operator before its exact share is judged
const SEED = Number(args.seed) >>> 0;
const ort = require(path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node'));
ort.env.logLevel = 'fatal';
const rng = require('./rng.js').makeRng(SEED);
// One thread, no graph rewriting: the node as written, cheaply.
const SESSION = { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1,
                  executionMode: 'sequential', logSeverityLevel: 4 };

// ---- types ----------------------------------------------------------------

const TYPES = { float: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, string: 8,
                bool: 9, float16: 10, double: 11, uint32: 12, uint64: 13 };
const ORT_TYPE = { float32: 'float', float64: 'double', float16: 'float16', int8: 'int8',
                   uint8: 'uint8', int16: 'int16', uint16: 'uint16', int32: 'int32',
                   int64: 'int64', uint32: 'uint32', uint64: 'uint64', bool: 'bool',
                   string: 'string' };
const ARRAY = { float: [Float32Array, 'float32'], double: [Float64Array, 'float64'],
                int8: [Int8Array, 'int8'], uint8: [Uint8Array, 'uint8'],
                int16: [Int16Array, 'int16'], uint16: [Uint16Array, 'uint16'],
                int32: [Int32Array, 'int32'], uint32: [Uint32Array, 'uint32'],
                int64: [BigInt64Array, 'int64'], uint64: [BigUint64Array, 'uint64'],
                bool: [Uint8Array, 'bool'] };
const BYTES = { float: 4, double: 8, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4,
                uint32: 4, int64: 8, uint64: 8, bool: 1 };

const count = (dims) => dims.reduce((a, d) => a * d, 1);
const value = (d) => (typeof d === 'object' ? d.v : d);

// Random elements of `type`: integers in [lo, hi] (default -9..9), floats
// in [-1, 1] (or [lo, hi]).
function randomData(type, n, range) {
  const [lo, hi] = range || (type === 'bool' ? [0, 1] : type.startsWith('uint') ? [0, 9] : [-9, 9]);
  const out = [];
  for (let i = 0; i < n; i++) {
    if (type === 'float' || type === 'double') out.push(lo + (hi - lo) * rng.rand());
    else out.push(rng.pick(lo, hi));
  }
  return out;
}

function typedArray(type, vals) {
  const [Ctor] = ARRAY[type];
  if (type === 'int64' || type === 'uint64') return Ctor.from(vals.map((v) => BigInt(v)));
  return Ctor.from(vals.map((v) => (type === 'bool' ? (v ? 1 : 0) : Number(v))));
}

function rawBytes(type, vals) {
  const a = typedArray(type, vals);
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

// ---- expressions (docs/cli.md "Dims") ---------------------------------------

// The value of an expression of onnxshape's grammar at `env` (symbol ->
// BigInt), or undefined when a symbol has no value.
function evalExpr(text, env) {
  let i = 0;
  const ws = () => { while (text[i] === ' ') i++; };
  const peek = () => { ws(); return text[i]; };
  const expect = (ch) => {
    ws();
    if (text[i] !== ch) throw new Error(`expected ${ch} at ${i} in ${text}`);
    i++;
  };
  function number() {
    ws();
    let j = i;
    while (j < text.length && /[0-9]/.test(text[j])) j++;
    if (j === i) throw new Error(`number expected at ${i} in ${text}`);
    const v = BigInt(text.slice(i, j));
    i = j;
    return v;
  }
  const floorDiv = (a, k) => { const q = a / k; return (a % k !== 0n && (a < 0n) !== (k < 0n)) ? q - 1n : q; };
  function atom() {
    ws();
    if (text[i] === '(') { i++; const v = sum(); expect(')'); return v; }
    if (i < text.length && /[0-9]/.test(text[i])) return number();
    if (text[i] === "'") {
      let name = '';
      i++;
      while (text[i] !== "'") {
        if (text[i] === '\\') i++;
        name += text[i++];
      }
      i++;
      return lookup(name);
    }
    let j = i;
    // (a regexp tests undefined as the text 'undefined': stop at the end)
    while (j < text.length && /[A-Za-z0-9_]/.test(text[j])) j++;
    const name = text.slice(i, j);
    i = j;
    if (peek() === '(' && ['floor', 'ceil', 'mod', 'min', 'max'].includes(name)) {
      i++;
      const a = sum();
      let r;
      if (name === 'floor' || name === 'ceil') {
        expect('/');
        const k = number();
        r = name === 'floor' ? floorDiv(a, k) : -floorDiv(-a, k);
      } else {
        expect(',');
        const b = sum();
        r = name === 'mod' ? a - b * floorDiv(a, b) : name === 'min' ? (a < b ? a : b) : (a > b ? a : b);
      }
      expect(')');
      return r;
    }
    return lookup(name);
  }
  function lookup(name) {
    if (!(name in env)) throw new Error('unbound ' + name);
    return env[name];
  }
  function product() {
    let v = atom();
    while (peek() === '*') { i++; v *= atom(); }
    return v;
  }
  function sum() {
    let neg = false;
    if (peek() === '-') { i++; neg = true; }
    let v = neg ? -product() : product();
    for (;;) {
      const ch = peek();
      if (ch === '+') { i++; v += product(); } else if (ch === '-') { i++; v -= product(); } else break;
    }
    return v;
  }
  try {
    const v = sum();
    ws();
    if (i !== text.length) throw new Error(`trailing text at ${i} in ${text}`);
    return v;
  } catch (e) {
    if (String(e.message).startsWith('unbound')) return undefined;
    throw e;
  }
}

// ---- one case ---------------------------------------------------------------

// The generators' helpers.
const gen = {
  ...rng,
  // a dim drawn from [lo, hi], sometimes named (a symbol in the symbolic
  // and bound modes); a given name shares the dim between inputs
  dim: (lo = 1, hi = 5, name) => ({ v: rng.pick(lo, hi), s: name }),
  E,
  randomData,
};

// The model for onnxruntime (untyped graph outputs y0..) and for onnxshape
// (the same node; the graph's output is an anchor input, so that nothing
// declares the node's outputs).
function buildModels(c, spec, version, mode) {
  const inputs = [];
  const inits = [];
  const feeds = {};
  const env = {};
  // c.names: the node's inputs when they are not c.inputs (values c.pre
  // makes from them)
  const names = c.names || c.inputs.map((t, k) => (t === null ? '' : t.name || `x${k}`));
  let anon = 0;
  c.inputs.forEach((t, k) => {
    if (t === null) return;
    const name = t.name || (c.names ? `x${k}` : names[k]);
    const dims = t.dims.map(value);
    if (t.values !== undefined) {
      inits.push(E.tensor(name, TYPES[t.type], dims, rawBytes(t.type, t.values)));
      return;
    }
    const decl = t.dims.map((d) => {
      if (typeof d !== 'object' || mode === 'concrete') return value(d);
      const s = d.s || `d${anon++}`;
      if (s in env && env[s] !== BigInt(d.v)) throw new Error(`symbol ${s} has two values`);
      env[s] = BigInt(d.v);
      return s;
    });
    inputs.push(E.valueInfoShape(name, TYPES[t.type], decl));
    const vals = t.data !== undefined && Array.isArray(t.data) && t.data.length === count(dims)
      ? t.data : randomData(t.type, count(dims), t.range);
    feeds[name] = new ort.Tensor(ARRAY[t.type][1], typedArray(t.type, vals), dims);
  });
  const n = c.outputs || 1;
  const outs = Array.from({ length: n }, (_, k) => (c.skipOutputs && c.skipOutputs.includes(k) ? '' : `y${k}`));
  const node = E.node(spec.op, names, outs, c.attrs || [], 'n');
  const opset = c.opset || version;
  // c.pre: nodes making the node's inputs; c.post: { nodes, outputs }, the
  // nodes reading its outputs (a sequence or an optional) into the tensors
  // compared in their place
  const nodes = [...(c.pre || []), node, ...(c.post ? c.post.nodes : [])];
  const compared = c.post ? c.post.outputs : outs;
  const forOrt = E.model(nodes, inputs, compared.filter((o) => o).map(E.valueInfoName), opset, 10, inits);
  const anchor = E.valueInfoShape('anchor', 1, [1]);
  const forUs = E.model(nodes, [...inputs, anchor], [anchor], opset, 10, inits);
  return { forOrt, forUs, feeds, env, outs: compared };
}

// Every session is released: an unreleased one keeps its threads, which
// spin, and a few hundred of them took the machine's every core.
async function runOrt(m) {
  let s = null;
  try {
    s = await ort.InferenceSession.create(m.forOrt, SESSION);
    const r = await s.run(m.feeds);
    const outs = {};
    for (const o of m.outs) {
      if (!o) continue;
      const t = r[o];
      outs[o] = { type: ORT_TYPE[t.type] || t.type, dims: t.dims.map(Number),
                  data: t.type === 'int64' || t.type === 'int32' ? Array.from(t.data, (v) => BigInt(v)) : null };
      if (typeof t.dispose === 'function') t.dispose();
    }
    return { ok: true, outs };
  } catch (e) {
    return { ok: false, message: String(e.message || e).split('\n')[0] };
  } finally {
    if (s !== null && typeof s.release === 'function') await s.release();
  }
}

function runOurs(m, file, mode) {
  fs.writeFileSync(file, m.forUs);
  const dimArgs = mode === 'bound' ? Object.entries(m.env).flatMap(([s, v]) => ['--dim', `${s}=${v}`]) : [];
  const p = spawnSync(args.tool, ['infer', '--json', ...dimArgs, file], { encoding: 'utf8' });
  if (p.error) return { error: `could not run ${args.tool}: ${p.error.message}` };
  if (p.status === 1) return { fails: true, message: p.stderr.trim() };
  if (p.status !== 0) return { error: `exit ${p.status} signal ${p.signal}: ${p.stderr.trim()}` };
  const recs = {};
  for (const line of p.stdout.split('\n')) {
    if (!line.startsWith('{"name":')) continue;
    const r = JSON.parse(line.replace(/:(-?\d{16,})/g, ':"#$1"').replace(/([[,])(-?\d{16,})(?=[,\]])/g, '$1"#$2"'));
    if (r.node !== null && r.node !== undefined) recs[r.name] = r;
  }
  return { recs };
}

// A dim or element of ours as a BigInt (evaluated at env), or undefined.
function ourValue(v, env) {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && v.startsWith('#')) return BigInt(v.slice(1));
  return evalExpr(v, env);
}

// Compares one output: 'exact', 'unknown' or a disagreement's text.
function compare(ours, theirs, env) {
  if (!ours) return 'no record';
  let exact = true;
  if (ours.type === null) exact = false;
  else if (ours.type !== theirs.type) return `type ${ours.type}, onnxruntime ${theirs.type}`;
  if (ours.dims === null) return 'unknown';
  if (ours.dims.length !== theirs.dims.length) {
    return `rank ${ours.dims.length}, onnxruntime ${theirs.dims.length}`;
  }
  for (let k = 0; k < ours.dims.length; k++) {
    const d = ourValue(ours.dims[k], env);
    if (d === undefined) { exact = false; continue; }
    if (d !== BigInt(theirs.dims[k])) {
      return `dim ${k} ${JSON.stringify(ours.dims[k])} = ${d}, onnxruntime ${theirs.dims[k]}`;
    }
  }
  if (ours.value && theirs.data) {
    if (ours.value.length !== theirs.data.length) return 'element count differs';
    for (let k = 0; k < ours.value.length; k++) {
      const v = ourValue(ours.value[k], env);
      if (v !== undefined && v !== theirs.data[k]) {
        return `element ${k} ${JSON.stringify(ours.value[k])} = ${v}, onnxruntime ${theirs.data[k]}`;
      }
    }
  }
  return exact ? 'exact' : 'unknown';
}

function loadSpecs() {
  const dir = path.join(__dirname, 'shape_ops');
  const specs = [];
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.js')).sort()) {
    for (const s of require(path.join(dir, f))) specs.push({ ...s, file: f });
  }
  return specs;
}

const show = (x) => JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? v.toString() : v));

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shape-diff-'));
  const file = path.join(work, 'm.onnx');
  const specs = loadSpecs().filter((s) => !args.op || s.op === args.op);
  if (specs.length === 0) {
    console.error(`shape-diff: no generator for ${args.op}`);
    process.exit(2);
  }
  const bad = [];
  const report = [];
  let total = 0;
  for (const spec of specs) {
    const st = { op: spec.op, cases: 0, exact: 0, unknown: 0, refused: 0, versions: [] };
    for (const version of spec.versions) {
      let ran = 0;
      for (let i = 0; i < CASES; i++) {
        const c = spec.gen(gen, version);
        if (c === null) continue;
        const mode = rng.choice(['concrete', 'symbolic', 'bound']);
        const m = buildModels(c, spec, version, mode);
        if (process.env.SHAPE_DIFF_TRACE) console.error("case " + show({ op: spec.op, version, mode, inputs: c.inputs }));
        const theirs = await runOrt(m);
        const ours = runOurs(m, file, mode);
        st.cases++;
        total++;
        const fail = (why) => bad.push({ why, op: spec.op, version, mode, case: c.describe || '',
          inputs: c.inputs.map((t) => t && { type: t.type, dims: t.dims, values: t.values }),
          theirs, ours: ours.recs || ours });
        if (ours.error) { fail('onnxshape: ' + ours.error); continue; }
        if (!theirs.ok) {
          st.refused++;
          if (process.env.SHAPE_DIFF_VERBOSE) console.error('refused: ' + show({ op: spec.op, version, theirs }));
          continue;
        }
        ran++;
        if (ours.fails) { fail('onnxshape says the node cannot succeed: ' + ours.message); continue; }
        let exact = true;
        let wrong = null;
        for (const o of m.outs) {
          if (!o) continue;
          const r = compare(ours.recs[o], theirs.outs[o], m.env);
          if (r === 'unknown') exact = false;
          else if (r !== 'exact') wrong = `${o}: ${r}`;
        }
        if (wrong) { fail(wrong); continue; }
        if (exact) st.exact++;
        else {
          st.unknown++;
          if (process.env.SHAPE_DIFF_VERBOSE) console.error('unknown: ' + show({ op: spec.op, version, mode, inputs: c.inputs, ours: ours.recs, theirs }));
        }
      }
      st.versions.push(`${version}${ran === 0 ? '(not run)' : ''}`);
    }
    report.push(st);
  }
  fs.rmSync(work, { recursive: true, force: true });
  let short = 0;
  for (const st of report) {
    const spec = specs.find((s) => s.op === st.op);
    const ran = st.exact + st.unknown;
    const min = spec.min_exact === undefined ? 0.9 : spec.min_exact;
    // The exact share is judged on 20 cases or more (make diff's run): on
    // make check's few cases a legitimate unknown (a data-dependent count)
    // would fail by chance. A wrong answer fails on any number of cases.
    const judged = ran + st.refused >= MIN_JUDGED;
    const ok = !judged || (ran > 0 && st.exact >= min * ran);
    if (!ok) short++;
    console.log(`shape-diff: ${ok ? 'ok  ' : 'FAIL'} ${st.op} (versions ${st.versions.join(', ')}): ` +
                `${st.exact} exact, ${st.unknown} unknown, ${st.refused} refused by onnxruntime` +
                (ok ? (judged ? '' : ` (not judged on ${ran + st.refused} cases)`)
                    : ran === 0 ? ': onnxruntime ran none' : ` (at least ${Math.round(min * 100)}% exact expected)`));
  }
  for (const b of bad.slice(0, 20)) console.error('shape-diff: DISAGREE ' + show(b));
  console.log(`shape-diff: seed ${SEED}, ${total} cases over ${report.length} operators: ` +
              `${bad.length} disagreements, ${short} operators short of their exact share`);
  if (bad.length || short) process.exit(1);
}

main().catch((e) => {
  console.error('shape-diff: ' + (e.stack || e));
  process.exit(1);
});
