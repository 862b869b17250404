// SPDX-License-Identifier: Apache-2.0
// Differential test of the analysis's integer operators (docs/analysis.md)
// against onnxruntime-node: random single-node models whose inputs are all
// initializers, so that onnxruntime computes the output and `onnxshape
// infer --json` evaluates it statically. For each case:
//   - where onnxshape gives dims or element values as numbers, they must be
//     onnxruntime's exactly (a symbol cannot appear: every input is known);
//   - where onnxruntime refuses the node, onnxshape must not give a value
//     (it either says the node cannot succeed, exit 1, or leaves it unknown);
//   - where onnxshape says the node cannot succeed, onnxruntime must refuse
//     it too.
// An unknown result where onnxruntime computes one is allowed (overflow,
// casts out of range and division by zero are unknown by design) but
// counted; the run fails if fewer than MIN_EXACT of onnxruntime's results
// are matched exactly, so a broken evaluator cannot pass as "unknown".
// Generated edge cases: negative indices and axes, Slice steps (negative,
// huge) and clamped starts/ends, Div of negative numbers (ONNX truncates
// toward zero, not floor), casts of values outside int32, int64 overflow,
// broadcasting of scalars and [1].
// covers: ANALYSIS-OPS
//
// Usage: node analysis_diff.js --tool ONNXSHAPE --ort DIR [--cases N] [--seed S]
//   ANALYSIS_DIFF_VERBOSE=1 also prints each case left unknown or refused.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const E = require('./onnx_encode.js');

const args = { cases: 2000, seed: Date.now() % 4294967296 };
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
if (!args.tool || !args.ort) {
  console.error('usage: node analysis_diff.js --tool ONNXSHAPE --ort DIR [--cases N] [--seed S]');
  process.exit(2);
}
const CASES = Number(args.cases);
const SEED = Number(args.seed) >>> 0;
const MIN_EXACT = 0.6;
const ort = require(path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node'));
ort.env.logLevel = 'fatal';

const { rand, pick, choice, chance } = require('./rng.js').makeRng(SEED);

const INT32 = 6;
const INT64 = 7;
const BOOL = 9;
const I64_MAX = 2n ** 63n - 1n;
const I64_MIN = -(2n ** 63n);

// A small integer most of the time; now and then one near the int64 or
// int32 limits.
function value() {
  if (chance(0.06)) return choice([I64_MAX, I64_MIN, I64_MAX - 1n, 2n ** 31n, -(2n ** 31n) - 1n,
                                   2n ** 32n + 5n, 3037000500n]);
  return BigInt(pick(-9, 9));
}
const values = (n) => Array.from({ length: n }, value);

function tensor(name, type, dims, vals) {
  const size = type === INT64 ? 8 : type === INT32 ? 4 : 1;
  const raw = Buffer.alloc(size * vals.length);
  vals.forEach((v, i) => {
    if (type === INT64) raw.writeBigInt64LE(BigInt.asIntN(64, BigInt(v)), 8 * i);
    else if (type === INT32) raw.writeInt32LE(Number(BigInt.asIntN(32, BigInt(v))), 4 * i);
    else raw.writeUInt8(v ? 1 : 0, i);
  });
  return { name, type, dims, vals, proto: E.tensor(name, type, dims, raw) };
}
// rank 0 or 1 (length 1 to 5) int64 tensor
function vec(name, n = pick(1, 5), rank0 = chance(0.15)) {
  return rank0 ? tensor(name, INT64, [], values(1)) : tensor(name, INT64, [n], values(n));
}
const ints = (name, vals) => tensor(name, INT64, [vals.length], vals.map(BigInt));

// An attribute, also recorded for the report of a disagreement.
let caseAttrs = {};
function A(name, v) {
  caseAttrs[name] = v;
  return E.attr(name, v);
}

// Each generator: { opset range, build(opset) -> { inputs: [tensor], attrs: [Buffer] } }.
const GEN = {
  Add: { lo: 7, hi: 21, build: binary }, Sub: { lo: 7, hi: 21, build: binary },
  Mul: { lo: 7, hi: 21, build: binary }, Div: { lo: 7, hi: 21, build: binary },
  Min: { lo: 12, hi: 21, build: binary }, Max: { lo: 12, hi: 21, build: binary },
  Equal: { lo: 11, hi: 21, build: binary },
  Gather: { lo: 7, hi: 21, build: gather },
  Slice: { lo: 7, hi: 21, build: slice },
  Concat: { lo: 7, hi: 21, build: concat },
  Unsqueeze: { lo: 7, hi: 21, build: unsqueeze },
  Squeeze: { lo: 7, hi: 21, build: squeeze },
  Cast: { lo: 9, hi: 21, build: cast },
  ConstantOfShape: { lo: 9, hi: 21, build: constantOfShape },
  Range: { lo: 11, hi: 21, build: range },
  ReduceProd: { lo: 7, hi: 21, build: reduceProd },
  Where: { lo: 9, hi: 21, build: where },
  Not: { lo: 7, hi: 21, build: not },
  Identity: { lo: 7, hi: 21, build: () => ({ inputs: [vec('a')], attrs: [] }) },
};

function binary() {
  const n = pick(1, 4);
  const a = chance(0.2) ? vec('a', 1, chance(0.5)) : vec('a', n);
  const b = chance(0.2) ? vec('b', 1, chance(0.5)) : vec('b', a.dims.length ? n : pick(1, 4));
  return { inputs: [a, b], attrs: [] };
}
function gather() {
  const data = vec('data', pick(1, 5), false);
  const n = data.dims[0];
  const idx = () => BigInt(chance(0.1) ? choice([n, -n - 1, 100]) : pick(-n, n - 1));
  const k = pick(1, 3);
  const indices = chance(0.4) ? tensor('idx', INT64, [], [idx()])
    : tensor('idx', INT64, [k], Array.from({ length: k }, idx));
  const attrs = chance(0.5) ? [A('axis', choice([0, -1]))] : [];
  return { inputs: [data, indices], attrs };
}
function sliceBound() {
  return chance(0.15) ? choice([I64_MAX, I64_MIN, 100n, -100n]) : BigInt(pick(-6, 6));
}
function slice(opset) {
  const data = vec('data', pick(1, 6), false);
  const starts = [sliceBound()];
  const ends = [sliceBound()];
  if (opset < 10) {
    const attrs = [A('starts', starts), A('ends', ends)];
    if (chance(0.5)) attrs.push(A('axes', [choice([0, -1])]));
    return { inputs: [data], attrs };
  }
  const inputs = [data, ints('starts', starts), ints('ends', ends)];
  if (chance(0.6)) {
    inputs.push(ints('axes', [choice([0, -1])]));
    if (chance(0.7)) {
      inputs.push(ints('steps', [chance(0.1) ? choice([I64_MAX, I64_MIN, 0n])
        : BigInt(choice([1, 2, 3, -1, -2]))]));
    }
  }
  return { inputs, attrs: [] };
}
function concat() {
  const k = pick(1, 3);
  const inputs = Array.from({ length: k }, (_, i) => vec('c' + i, pick(1, 3), false));
  return { inputs, attrs: [A('axis', choice([0, -1]))] };
}
function unsqueeze(opset) {
  const data = vec('data', pick(1, 4));
  const r = data.dims.length + 1;
  const axes = [chance(0.1) ? r : pick(-r, r - 1)];
  if (opset < 13) return { inputs: [data], attrs: [A('axes', axes)] };
  return { inputs: [data, ints('axes', axes)], attrs: [] };
}
function squeeze(opset) {
  const data = vec('data', chance(0.7) ? 1 : pick(2, 3), false);
  const withAxes = chance(0.7);
  const axes = [choice([0, -1, 1])];
  if (!withAxes) return { inputs: [data], attrs: [] };
  if (opset < 13) return { inputs: [data], attrs: [A('axes', axes)] };
  return { inputs: [data, ints('axes', axes)], attrs: [] };
}
function cast() {
  const from = chance(0.7) ? INT64 : INT32;
  const n = pick(1, 4);
  const data = tensor('data', from, [n], values(n));
  const to = choice([INT32, INT64]);
  return { inputs: [data], attrs: [A('to', to)], outType: to };
}
function constantOfShape() {
  const shape = ints('shape', Array.from({ length: chance(0.2) ? 2 : pick(0, 1) }, () => pick(0, 4)));
  if (chance(0.2)) return { inputs: [shape], attrs: [], outType: 1 }; // float zeros
  return { inputs: [shape], attrs: [E.attrTensor('value', tensor('value', INT64, [1], [value()]).proto)] };
}
function range() {
  const scalar = (name, v) => tensor(name, INT64, [], [BigInt(v)]);
  return { inputs: [scalar('start', pick(-8, 8)), scalar('limit', pick(-8, 8)),
                    scalar('delta', choice([1, 2, 3, -1, -2, -3]))], attrs: [] };
}
function reduceProd(opset) {
  const data = vec('data', pick(1, 4), false);
  const attrs = chance(0.5) ? [A('keepdims', pick(0, 1))] : [];
  if (chance(0.5)) {
    if (opset < 18) attrs.push(A('axes', [choice([0, -1])]));
    else return { inputs: [data, ints('axes', [choice([0, -1])])], attrs };
  }
  return { inputs: [data], attrs };
}
function where() {
  const n = pick(1, 4);
  const c = tensor('cond', BOOL, [n], Array.from({ length: n }, () => chance(0.5)));
  return { inputs: [c, vec('x', n, false), vec('z', chance(0.3) ? 1 : n, false)], attrs: [] };
}
function not() {
  const n = pick(1, 4);
  return { inputs: [tensor('a', BOOL, [n], Array.from({ length: n }, () => chance(0.5)))], attrs: [] };
}

function makeCase(i) {
  const op = choice(Object.keys(GEN));
  const g = GEN[op];
  const opset = pick(g.lo, g.hi);
  caseAttrs = {};
  const { inputs, attrs, outType } = g.build(opset);
  if (op === 'Div' && inputs[0].vals.includes(I64_MIN)) {
    // INT64_MIN / -1 kills onnxruntime's process (SIGFPE): not generated.
    // onnxshape leaves it unknown (tests/cli/cases/infer_edges.sh's Range).
    inputs[0] = tensor('a', INT64, inputs[0].dims, inputs[0].vals.map((v) => (v === I64_MIN ? v + 1n : v)));
  }
  const nd = E.node(op, inputs.map((t) => t.name), ['y'], attrs, 'node' + i);
  const yType = outType || (op === 'Equal' || op === 'Not' ? BOOL
    : op === 'ConstantOfShape' ? INT64 : inputs[op === 'Where' ? 1 : 0].type);
  const model = E.model([nd], [], [E.valueInfo('y', yType)], opset, 8, inputs.map((t) => t.proto));
  return { i, op, opset, inputs, attrs: caseAttrs, model };
}

async function runOrt(c) {
  try {
    const s = await ort.InferenceSession.create(c.model, { graphOptimizationLevel: 'disabled',
                                                           logSeverityLevel: 4 });
    const r = await s.run({});
    const y = r.y;
    const vals = Array.from(y.data, (v) => (typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(v)));
    await s.release();
    return { ok: true, dims: y.dims.map(Number), vals };
  } catch (e) {
    return { ok: false, message: String(e && e.message ? e.message : e).split('\n')[0] };
  }
}

function runOurs(c, file) {
  fs.writeFileSync(file, c.model);
  const p = spawnSync(args.tool, ['infer', '--json', file], { encoding: 'utf8' });
  if (p.error) return { error: `could not run ${args.tool}: ${p.error.message}` };
  if (p.status === 1) return { fails: true, message: p.stderr.trim() };
  if (p.status !== 0) return { error: `exit ${p.status} signal ${p.signal}: ${p.stderr.trim()}` };
  // Numbers past 2^53 must not go through JSON.parse's doubles.
  const line = p.stdout.split('\n').find((l) => l.startsWith('{"name":"y",'));
  if (!line) return { error: 'no record for y' };
  const big = JSON.parse(line.replace(/(-?\d{16,})/g, '"#$1"'));
  const num = (v) => (typeof v === 'string' && v.startsWith('#') ? BigInt(v.slice(1))
    : typeof v === 'number' ? BigInt(v) : v);
  return { dims: big.dims && big.dims.map(num), vals: big.value && big.value.map(num) };
}

// docs/divergences.md D8: onnxruntime's int64 Min and Max give wrong
// results when an element lies outside the int32 range (Max([5, 5],
// [2147483648, 1]) is [5, 5] in onnxruntime-node 1.30.0); onnxshape
// follows the specification. Recognised only for those inputs, and the
// case must then differ from onnxruntime (else it is checked as usual).
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
function d8(c) {
  return (c.op === 'Min' || c.op === 'Max') &&
    c.inputs.some((t) => t.vals.some((v) => v < INT32_MIN || v > INT32_MAX));
}

// D10: onnxruntime's int64 ReduceProd computes in double precision, so a
// value or product beyond 2^53 comes out rounded (ReduceProd([3, 2^53 + 1])
// is 27021597764222976, not ...979). Recognised only when one is.
const TWO53 = 2n ** 53n;
function d10(c, ours) {
  const big = (v) => typeof v === 'bigint' && (v > TWO53 || v < -TWO53);
  return c.op === 'ReduceProd' &&
    (c.inputs[0].vals.some(big) || (ours.vals || []).some(big));
}

const show = (x) => JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? v.toString() : v));

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'analysis-diff-'));
  const file = path.join(work, 'm.onnx');
  const tally = { exact: 0, unknown: 0, both_refuse: 0, ort_refuses_ours_unknown: 0, d8: 0,
                  d10: 0 };
  const perOp = {};
  const bad = [];
  for (let i = 0; i < CASES; i++) {
    const c = makeCase(i);
    const theirs = await runOrt(c);
    const ours = runOurs(c, file);
    const o = (perOp[c.op] = perOp[c.op] || { cases: 0, exact: 0 });
    o.cases++;
    const fail = (why) => bad.push({ why, op: c.op, opset: c.opset, attrs: c.attrs, inputs: c.inputs.map(
      (t) => ({ name: t.name, type: t.type, dims: t.dims, vals: t.vals })), theirs, ours });
    if (ours.error) { fail('onnxshape error: ' + ours.error); continue; }
    if (theirs.ok && ours.vals && show(ours.vals) !== show(theirs.vals)) {
      if (d8(c)) { tally.d8++; continue; }
      if (d10(c, ours)) { tally.d10++; continue; }
    }
    if (!theirs.ok) {
      if (process.env.ANALYSIS_DIFF_VERBOSE) console.error('refused: ' + show({ op: c.op, opset: c.opset, attrs: c.attrs, theirs, ours }));
      if (ours.fails) tally.both_refuse++;
      else if (ours.vals && ours.vals.every((v) => typeof v === 'bigint')) {
        fail('onnxruntime refuses the node, onnxshape computes a value');
      } else tally.ort_refuses_ours_unknown++;
      continue;
    }
    if (ours.fails) { fail('onnxshape says the node cannot succeed, onnxruntime computes it'); continue; }
    let known = ours.dims !== null && ours.dims !== undefined;
    if (known) {
      if (ours.dims.length !== theirs.dims.length) { fail('rank differs'); continue; }
      let wrong = false;
      ours.dims.forEach((d, k) => {
        if (typeof d === 'bigint' && d !== BigInt(theirs.dims[k])) wrong = true;
        if (typeof d !== 'bigint') known = false;
      });
      if (wrong) { fail('dims differ'); continue; }
    }
    const empty = theirs.vals.length === 0;
    if (ours.vals) {
      if (ours.vals.length !== theirs.vals.length) { fail('element count differs'); continue; }
      let wrong = false;
      ours.vals.forEach((v, k) => {
        if (typeof v === 'bigint' && v !== theirs.vals[k]) wrong = true;
        if (typeof v === 'string') wrong = true; // a symbol, where every input is known
        if (typeof v !== 'bigint') known = false;
      });
      if (wrong) { fail('values differ'); continue; }
    } else if (!empty) {
      known = false;
    }
    if (known) { tally.exact++; o.exact++; } else {
      tally.unknown++;
      if (process.env.ANALYSIS_DIFF_VERBOSE) console.error('unknown: ' + show({ op: c.op, opset: c.opset, inputs: c.inputs.map((t) => [t.dims, t.vals]), theirs, ours }));
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  const computed = tally.exact + tally.unknown;
  console.log(`analysis-diff: seed ${SEED}, ${CASES} cases: ${tally.exact} exact, ` +
              `${tally.unknown} unknown where onnxruntime computes a value, ` +
              `${tally.both_refuse} refused by both, ${tally.ort_refuses_ours_unknown} ` +
              `refused by onnxruntime and left unknown; ${tally.d8} D8 (onnxruntime's int64 ` +
              `Min/Max beyond int32), ${tally.d10} D10 (its int64 ReduceProd in double ` +
              `precision); ${bad.length} disagreements`);
  console.log('analysis-diff: exact per operator: ' + Object.entries(perOp).sort()
    .map(([k, v]) => `${k} ${v.exact}/${v.cases}`).join(', '));
  for (const b of bad.slice(0, 10)) console.error('analysis-diff: DISAGREE ' + show(b));
  if (bad.length) process.exit(1);
  if (tally.exact < MIN_EXACT * computed) {
    console.error(`analysis-diff: only ${tally.exact} of ${computed} results exact ` +
                  `(at least ${MIN_EXACT * 100}% expected)`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error('analysis-diff: ' + (e.stack || e));
  process.exit(1);
});
