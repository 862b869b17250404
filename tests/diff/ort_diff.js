// SPDX-License-Identifier: Apache-2.0
// Differential test: random Shape, Reshape and Size models run through
// onnxshape (tests/diff/diff_runner, the public C API) and through
// onnxruntime-node, in one run. Every disagreement must be one of the
// rulings of docs/divergences.md, recognised by `classify` below; any other
// fails the run and is printed with everything needed to replay it.
// covers: SHAPE-OUTPUT SHAPE-CLAMP SHAPE-DEFAULTS SHAPE-EMPTY SHAPE-SCALAR SIZE-OUTPUT
// covers: SIZE-ZERO-FIRST RESHAPE-ZERO-COPY RESHAPE-ZERO-LITERAL RESHAPE-LITERAL RESHAPE-INFER
// covers: RESHAPE-COUNT RESHAPE-SCALAR RESHAPE-ALLOWZERO-INFERRED RESHAPE-DATA-UNCHANGED TYPE-SET
//
// Usage: node ort_diff.js --runner PATH --ort DIR [--cases N] [--seed S]
//                         [--work DIR] [--report FILE]
//   --ort DIR  where `npm install --ignore-scripts onnxruntime-node` ran
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const E = require('./onnx_encode.js');

// ---- arguments -----------------------------------------------------------
const args = { cases: 10000, seed: Date.now() % 4294967296, work: null, report: null };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  args[k] = process.argv[i + 1];
}
if (!args.runner || !args.ort) {
  console.error('usage: node ort_diff.js --runner PATH --ort DIR [--cases N] [--seed S]');
  process.exit(2);
}
const CASES = Number(args.cases);
const SEED = Number(args.seed) >>> 0;
const ort = require(path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node'));
ort.env.logLevel = 'fatal';

// ---- random numbers (mulberry32: small, seedable, replayable) ------------
const { rand, pick, choice, chance } = require('./rng.js').makeRng(SEED);

// ---- the operators and types (docs/semantics.md) --------------------------
const VERSIONS = {
  Shape: [1, 13, 15, 19, 21, 23, 24, 25],
  Reshape: [1, 5, 13, 14, 19, 21, 23, 24, 25],
  Size: [1, 13, 19, 21, 23, 24, 25],
};
// ONNX type number -> onnxruntime-node tensor type and element size in bytes
// (0.5 for packed 4-bit). onnxruntime-node has no bfloat16, float8, float4
// or 2-bit tensors, so those types are not generated.
const TYPES = {
  1: ['float32', 4], 2: ['uint8', 1], 3: ['int8', 1], 4: ['uint16', 2], 5: ['int16', 2],
  6: ['int32', 4], 7: ['int64', 8], 8: ['string', 0], 9: ['bool', 1], 10: ['float16', 2],
  11: ['float64', 8], 12: ['uint32', 4], 13: ['uint64', 8], 21: ['uint4', 0.5],
  22: ['int4', 0.5],
};
function lastType(v) {
  return { 1: 15, 5: 15, 13: 16, 14: 16, 15: 16, 19: 20, 21: 22, 23: 23, 24: 24, 25: 26 }[v];
}
function typeAllowed(op, v, t) {
  if (op === 'Reshape' && v === 1) return t === 1 || t === 10 || t === 11;
  return t >= 1 && t <= lastType(v);
}
const resolve = (op, opset) => VERSIONS[op].filter((v) => v <= opset).pop();

// ---- one random case -----------------------------------------------------
const MAX_ELEMENTS = 4096;
const product = (dims) => dims.reduce((p, d) => p * d, 1);

function randomDims() {
  const rank = pick(0, 10);
  const dims = [];
  for (let i = 0; i < rank; i++) dims.push(pick(0, 10));
  if (product(dims) > MAX_ELEMENTS) {
    // Too many elements: make the tensor zero-size, sometimes with huge
    // other dims (a zero-size tensor carries no data whatever its dims).
    dims[pick(0, rank - 1)] = 0;
    if (chance(0.5)) {
      for (let i = 0; i < rank; i++) if (dims[i] !== 0 && chance(0.5)) dims[i] = 2 ** pick(20, 40);
    }
  } else if (rank > 0 && chance(0.05)) {
    dims[pick(0, rank - 1)] = 0;
    if (chance(0.5)) dims[pick(0, rank - 1)] = dims.includes(0) ? 2 ** pick(31, 45) : 0;
    if (!dims.includes(0)) dims[0] = 0;
  }
  return dims;
}

// A target for Reshape: half derived from a factorisation of the element
// count (then mutated with 0 and -1), half small random values.
function randomTarget(dims) {
  const n = product(dims);
  const t = [];
  if (chance(0.5) && n <= MAX_ELEMENTS) {
    let left = n;
    const len = pick(0, 6);
    for (let i = 0; i < len; i++) {
      if (i === len - 1) { t.push(left); break; }
      const divs = [];
      for (let d = 1; d <= Math.min(left, 12); d++) if (left % d === 0) divs.push(d);
      const d = left === 0 ? choice([0, 1, 2, 3]) : choice(divs);
      t.push(d);
      if (d !== 0) left /= d;
    }
    if (t.length > 0 && chance(0.6)) t[pick(0, t.length - 1)] = -1;
    if (t.length > 0 && chance(0.3)) {
      const i = pick(0, t.length - 1);
      if (i < dims.length && t[i] === dims[i]) t[i] = 0;
    }
  } else {
    const len = pick(0, 10);
    for (let i = 0; i < len; i++) t.push(chance(0.1) ? choice([-2, -1, -1, 0, 0]) : pick(0, 8));
  }
  if (chance(0.02)) t.push(choice([-1, -2, 0]));
  return t;
}

function randomPayload(type, n) {
  if (type === 8) {
    const s = [];
    for (let i = 0; i < n; i++) s.push('s' + pick(0, 99999).toString(36));
    return { strings: s };
  }
  const size = TYPES[type][1];
  const bytes = Buffer.alloc(Math.ceil(n * size));
  for (let i = 0; i < bytes.length; i++) bytes[i] = pick(0, 255);
  if (type === 9) for (let i = 0; i < bytes.length; i++) bytes[i] &= 1;
  // A packed last byte's padding is zero, as ONNX writers leave it.
  if (size === 0.5 && n % 2 === 1) bytes[bytes.length - 1] &= 0x0f;
  return { raw: bytes };
}

function randomCase(index) {
  const op = choice(['Shape', 'Shape', 'Reshape', 'Reshape', 'Reshape', 'Size']);
  const opset = pick(1, 25);
  const version = resolve(op, opset);
  const usable = Object.keys(TYPES).map(Number);
  let candidates = usable.filter((t) => typeAllowed(op, version, t));
  if (candidates.length === 0 || chance(0.05)) candidates = usable; // type-set checks
  const type = choice(candidates);
  const dims = randomDims();
  const c = { index, op, opset, version, type, dims, attrs: {} };
  if (op === 'Shape' && (version >= 15 || chance(0.05))) {
    if (chance(0.6)) c.attrs.start = pick(-50, 50);
    if (chance(0.6)) c.attrs.end = pick(-50, 50);
  }
  if (op === 'Reshape') {
    c.target = randomTarget(dims);
    if (chance(0.05) && version >= 14) {
      // The allowzero edge: a zero-size input, a target with both 0 and -1.
      c.dims = dims.length ? dims : [0];
      if (!c.dims.includes(0)) c.dims[pick(0, c.dims.length - 1)] = 0;
      c.target = [0, -1, ...c.dims.slice(2)].slice(0, Math.max(2, c.dims.length));
      if (chance(0.5)) c.target.reverse();
    }
    if (version >= 14 || chance(0.03)) {
      const r = rand();
      if (r < 0.3) c.attrs.allowzero = 0;
      else if (r < 0.6) c.attrs.allowzero = 1;
      else if (r < 0.62) c.attrs.allowzero = choice([2, -1]);
    }
  }
  return c;
}

function buildModel(c) {
  const n = product(c.dims);
  const payload = randomPayload(c.type, n);
  c.payload = payload;
  const inits = [E.tensor('x', c.type, c.dims, payload.raw, payload.strings)];
  const attrs = Object.entries(c.attrs).map(([k, v]) => E.attr(k, v));
  let nd;
  let outType = 7;
  if (c.op === 'Reshape') {
    outType = c.type;
    if (c.version === 1) {
      attrs.push(E.attr('shape', c.target));
      nd = E.node('Reshape', ['x'], ['y'], attrs);
    } else {
      const s = Buffer.alloc(8 * c.target.length);
      c.target.forEach((v, i) => s.writeBigInt64LE(BigInt(v), 8 * i));
      // The target as an initializer (onnxruntime checks it when the session
      // is created) or fed at run time (its kernel checks it).
      c.fed = chance(0.5);
      const st = E.tensor('s', 7, [c.target.length], s);
      if (c.fed) c.input = st;
      else inits.push(st);
      nd = E.node('Reshape', ['x', 's'], ['y'], attrs);
      if (c.fed) {
        return E.model([nd], [E.valueInfo('s', 7)], [E.valueInfo('y', outType)], c.opset, 8, inits);
      }
    }
  } else {
    nd = E.node(c.op, ['x'], ['y'], attrs);
  }
  return E.model([nd], [], [E.valueInfo('y', outType)], c.opset, 8, inits);
}

// ---- onnxruntime -----------------------------------------------------------
function ortBytes(t) {
  if (t.type === 'string') return { strings: Array.from(t.data) };
  const d = t.data;
  return { hex: Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex') };
}

async function runOrt(model, c) {
  try {
    const s = await ort.InferenceSession.create(model, {
      graphOptimizationLevel: 'disabled', logSeverityLevel: 4,
    });
    const feeds = {};
    if (c.fed) {
      feeds.s = new ort.Tensor('int64', BigInt64Array.from(c.target.map(BigInt)), [c.target.length]);
    }
    const r = await s.run(feeds);
    const y = r.y;
    const out = { ok: true, dims: y.dims.map((d) => String(d)), ...ortBytes(y) };
    if (typeof y.dispose === 'function') y.dispose();
    if (typeof s.release === 'function') await s.release();
    return out;
  } catch (e) {
    return { ok: false, message: String(e && e.message ? e.message : e).split('\n')[0] };
  }
}

// ---- the rulings of docs/divergences.md ------------------------------------
function classify(c, ours, theirs) {
  const t = c.target || [];
  // D1: allowzero=1 with both a 0 and a -1: the spec says invalid, we reject;
  // onnxruntime infers the -1.
  if (c.op === 'Reshape' && c.attrs.allowzero === 1 && t.includes(0) && t.includes(-1) &&
      !ours.ok && ours.status === 'ONNXSHAPE_ERR_ZERO_WITH_INFERRED' && theirs.ok) {
    return 'D1 allowzero with 0 and -1';
  }
  // D2: onnxruntime has no Shape, Size or Reshape kernel for the 4-bit
  // types that versions 21 and later allow.
  if (ours.ok && !theirs.ok && /Could not find an implementation/.test(theirs.message) &&
      (c.type === 21 || c.type === 22) && typeAllowed(c.op, c.version, c.type)) {
    return 'D2 onnxruntime lacks a kernel for the type';
  }
  // D3: a zero-size tensor whose other dims multiply past INT64_MAX has 0
  // elements for us (a zero dim is found before any product); onnxruntime
  // multiplies first and reports an overflow.
  const INT64_MAX = (1n << 63n) - 1n;
  const bigProduct = (a) => a.filter((d) => d !== 0).reduce((p, d) => p * BigInt(d), 1n);
  if (ours.ok && !theirs.ok && /Integer overflow|product overflow|too many elements/.test(theirs.message) &&
      c.dims.includes(0) &&
      (bigProduct(c.dims) > INT64_MAX || bigProduct(ours.dims.map(Number)) > INT64_MAX)) {
    return 'D3 zero-size tensor with huge dims';
  }
  // D4: onnxruntime only guarantees opsets 7 and later; below, it inserts a
  // float16-to-float Cast with the attribute type of Cast-6 into models that
  // Cast-1 governs, and rejects its own graph.
  if (ours.ok && !theirs.ok && c.opset < 7 && c.type === 10 &&
      /InsertedPrecisionFreeCast/.test(theirs.message)) {
    return 'D4 onnxruntime below opset 7';
  }
  // D5: allowzero outside {0, 1}: the spec defines only 0 and 1, we reject;
  // onnxruntime treats any value other than 1 as 0.
  if (c.op === 'Reshape' && c.attrs.allowzero !== undefined && c.attrs.allowzero !== 0 &&
      c.attrs.allowzero !== 1 && !ours.ok && ours.status === 'ONNXSHAPE_ERR_INVALID_ATTRIBUTE' &&
      theirs.ok) {
    return 'D5 allowzero outside {0, 1}';
  }
  return null;
}

function agree(ours, theirs) {
  if (ours.ok !== theirs.ok) return false;
  if (!ours.ok) return true; // both reject (messages differ by design)
  if (JSON.stringify(ours.dims) !== JSON.stringify(theirs.dims)) return false;
  if (ours.strings || theirs.strings) {
    return JSON.stringify(ours.strings) === JSON.stringify(theirs.strings);
  }
  return ours.hex === theirs.hex;
}

function describe(c) {
  return `#${c.index} ${c.op}-${c.version} (opset ${c.opset}) type ${c.type} dims [${c.dims}]` +
    (c.fed ? ' (target fed at run time)' : '') +
    (c.target ? ` target [${c.target}]` : '') +
    (Object.keys(c.attrs).length ? ` attrs ${JSON.stringify(c.attrs)}` : '');
}

// The comparison must be able to fail: a different byte, dim or string, or
// one side rejecting, is a disagreement.
function selfCheck() {
  const base = { ok: true, dims: ['2'], hex: '0102' };
  const bad = [
    [base, { ok: true, dims: ['2'], hex: '0103' }], [base, { ok: true, dims: ['1', '2'], hex: '0102' }],
    [base, { ok: false, message: 'x' }],
    [{ ok: true, dims: ['1'], strings: ['a'] }, { ok: true, dims: ['1'], strings: ['b'] }],
  ];
  for (const [a, b] of bad) {
    if (agree(a, b) || agree(b, a)) throw new Error('ort-diff: the comparison cannot fail');
  }
  if (!agree(base, { ...base }) || !agree({ ok: false }, { ok: false })) {
    throw new Error('ort-diff: the comparison rejects equal results');
  }
}

// ---- main -----------------------------------------------------------------
(async () => {
  selfCheck();
  const work = args.work || fs.mkdtempSync(path.join(os.tmpdir(), 'onnxshape-diff-'));
  fs.mkdirSync(work, { recursive: true });
  const cases = [];
  const models = [];
  for (let i = 0; i < CASES; i++) {
    const c = randomCase(i);
    const m = buildModel(c);
    cases.push(c);
    const input = c.input || Buffer.alloc(0);
    const len = Buffer.alloc(8);
    len.writeUInt32LE(m.length, 0);
    len.writeUInt32LE(input.length, 4);
    models.push(len.subarray(0, 4), m, len.subarray(4), input);
  }
  const batch = path.join(work, 'batch.bin');
  fs.writeFileSync(batch, Buffer.concat(models));

  const t0 = process.hrtime.bigint();
  const lines = execFileSync(args.runner, [batch], { maxBuffer: 1 << 30 }).toString().split('\n');
  const t1 = process.hrtime.bigint();
  const oursAll = lines.filter((l) => l.length > 0).map((l) => JSON.parse(l));
  if (oursAll.length !== CASES) {
    console.error(`ort-diff: the runner answered ${oursAll.length} of ${CASES} cases`);
    process.exit(1);
  }

  const tally = { agreeOk: 0, agreeError: 0 };
  const rulings = {};
  const examples = {};
  const failures = [];
  let ortNs = 0n;
  for (let i = 0; i < CASES; i++) {
    const m = models[4 * i + 1];
    const s0 = process.hrtime.bigint();
    const theirs = await runOrt(m, cases[i]);
    ortNs += process.hrtime.bigint() - s0;
    const ours = oursAll[i];
    const c = cases[i];
    if (agree(ours, theirs)) {
      if (ours.ok) tally.agreeOk++;
      else tally.agreeError++;
      continue;
    }
    const r = classify(c, ours, theirs);
    if (r) {
      rulings[r] = (rulings[r] || 0) + 1;
      examples[r] = examples[r] || [];
      if (examples[r].length < 5) examples[r].push({ c: describe(c), ours, theirs });
      continue;
    }
    failures.push({ c, ours, theirs });
  }

  const summary = {
    seed: SEED, cases: CASES, onnxruntime: ort.env.versions.common,
    agree_success: tally.agreeOk, agree_error: tally.agreeError, rulings,
    unexplained: failures.length,
    onnxshape_ms: Number(t1 - t0) / 1e6, onnxruntime_ms: Number(ortNs) / 1e6,
  };
  console.log(`ort-diff: seed ${SEED}, ${CASES} cases, onnxruntime ${summary.onnxruntime}`);
  console.log(`ort-diff: agree on ${tally.agreeOk} results and ${tally.agreeError} rejections`);
  for (const [k, v] of Object.entries(rulings)) console.log(`ort-diff: ${v} x ruling ${k}`);
  for (const f of failures.slice(0, 20)) {
    console.log(`UNEXPLAINED ${describe(f.c)}\n  onnxshape:   ${JSON.stringify(f.ours).slice(0, 300)}` +
      `\n  onnxruntime: ${JSON.stringify(f.theirs).slice(0, 300)}`);
  }
  console.log(`ort-diff: ${failures.length} unexplained disagreements` +
    (failures.length ? ` (replay with --seed ${SEED} --cases ${CASES})` : ''));
  if (args.report) fs.writeFileSync(args.report, JSON.stringify({ summary, examples, failures: failures.slice(0, 100) }, null, 1));
  if (!args.work) fs.rmSync(work, { recursive: true, force: true });
  process.exit(failures.length ? 1 : 0);
})();
