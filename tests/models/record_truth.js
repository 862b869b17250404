// SPDX-License-Identifier: Apache-2.0
// Records ground truth for `make check-models`: the dims (and, for Shape and
// Size, the int64 values) of every Shape, Reshape and Size output of the
// real-model corpus (tests/models/models.json), as onnxruntime-node computes
// them at the concrete inputs of tests/models/bindings.json.
//
// A case is one key of bindings.json: a model and its concrete inputs; each
// model has a main case named after it and may have more (NAME@VARIANT).
// For each model, tests/models/expose_outputs.py (run with /usr/bin/python3
// and Debian's onnx) writes a copy in MODELS/truth/ where those values are
// extra graph outputs, lifted out of If branches with the If conditions
// beside them; this script runs that copy in onnxruntime-node and keeps the
// values of the branches that ran. Values in branches that did not run, and
// in Loop/Scan bodies, are listed under not_recorded with the reason.
// Each case runs twice: with graph optimizations disabled (the values kept)
// and with all of them on; any difference between the two fails the run.
//
// Usage: node tests/models/record_truth.js [--ort DIR] [--models DIR]
//          [--out FILE] [--python PATH] [--only CASE[,CASE...]]
//   --ort DIR     where scripts/install-ort ran (default .cache/ort)
//   --models DIR  where scripts/fetch-models put the models (.cache/models)
//   --out FILE    default tests/models/ground_truth.json ('-' for stdout;
//                 the default with --only, which records only those cases)
// Exit 0: written; 1: a case failed (model missing, wrong sha256, session
// error, disagreement between the two runs, bad binding); 2: bad usage.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');

const TOP = path.resolve(__dirname, '..', '..');
const args = {
  ort: path.join(TOP, '.cache', 'ort'),
  models: path.join(TOP, '.cache', 'models'),
  out: path.join(TOP, 'tests', 'models', 'ground_truth.json'),
  python: '/usr/bin/python3',
  only: null,
};
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in args) || process.argv[i + 1] === undefined) {
    console.error('usage: node record_truth.js [--ort DIR] [--models DIR] [--out FILE] ' +
                  '[--python PATH] [--only CASE,...]');
    process.exit(2);
  }
  args[k] = process.argv[i + 1];
  if (k === 'out') args.outGiven = true;
}
if (args.only && !args.outGiven) args.out = '-';

const ortDir = path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node');
if (!fs.existsSync(path.join(ortDir, 'package.json'))) {
  console.error(`record_truth: no onnxruntime-node in ${args.ort}: run scripts/install-ort`);
  process.exit(1);
}
const ort = require(ortDir);
const ORT_VERSION = require(path.join(ortDir, 'package.json')).version;
ort.env.logLevel = 'fatal';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, 'models.json'), 'utf8'));
const bindings = JSON.parse(fs.readFileSync(path.join(__dirname, 'bindings.json'), 'utf8'));
const truthDir = path.join(path.resolve(args.models), 'truth');
fs.mkdirSync(truthDir, { recursive: true });

// ONNX element type -> onnxruntime-node tensor type and typed array
const TYPES = require('./ort_types');

// int64 without loss: a JSON number when it is a safe integer, else a string.
function int64Json(v) {
  const n = Number(v);
  return Number.isSafeInteger(n) && BigInt(n) === BigInt(v) ? n : String(v);
}

function makeFeeds(name, bind, inputs) {
  const feeds = {};
  const used = {};
  for (const inp of inputs) {
    const b = bind.inputs[inp.name];
    if (!b) throw new Error(`${name}: no binding for input ${inp.name}`);
    const t = TYPES[inp.elem_type];
    if (!t) throw new Error(`${name}: input ${inp.name} has element type ${inp.elem_type}`);
    const count = b.dims.reduce((p, d) => p * d, 1);
    const data = new t[1](count);
    if (b.values) {
      if (b.values.length !== count) {
        throw new Error(`${name}: ${inp.name} has ${b.values.length} values for dims ${b.dims}`);
      }
      b.values.forEach((v, i) => {
        data[i] = (t[1] === BigInt64Array || t[1] === BigUint64Array) ? BigInt(v) : v;
      });
    }
    feeds[inp.name] = new ort.Tensor(t[0], data, b.dims);
    used[inp.name] = { type: t[0], dims: b.dims };
    if (b.values) used[inp.name].values = b.values;
    else used[inp.name].fill = 0;
  }
  for (const k of Object.keys(bind.inputs)) {
    if (!used[k]) throw new Error(`${name}: binding for ${k}, which is no graph input`);
  }
  return { feeds, used };
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

// what a run gives for one target, or a reason it gives nothing
function observe(t, results) {
  if (!t.exposed_as) return { reason: t.reason || 'not exposed' };
  for (const c of t.conditions) {
    const v = results[c.output];
    if (!v || v.size !== 1) return { reason: `condition ${c.output} not readable` };
    if (Boolean(v.data[0]) !== c.taken_if) {
      return { reason: `branch not taken: If ${c.node} ran its ` +
                       `${c.taken_if ? 'else' : 'then'}_branch` };
    }
  }
  const v = results[t.exposed_as];
  if (!v) return { reason: `output ${t.exposed_as} missing from the run` };
  const rec = { dims: Array.from(v.dims, Number) };
  if (t.op === 'Shape' || t.op === 'Size') {
    if (v.type !== 'int64') throw new Error(`${t.output}: ${t.op} gave ${v.type}`);
    rec.values = Array.from(v.data, int64Json);
  } else {
    rec.type = v.type;
  }
  return rec;
}

async function runOnce(file, feeds, level) {
  const session = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: level,
    logSeverityLevel: 3,
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  try {
    return await session.run(feeds);
  } finally {
    await session.release();
  }
}

const exposed = new Map(); // model name -> metadata of its rewritten copy

function expose(entry) {
  if (exposed.has(entry.name)) return exposed.get(entry.name);
  const src = path.join(path.resolve(args.models), entry.name + '.onnx');
  if (!fs.existsSync(src)) throw new Error(`${src} is missing: run scripts/fetch-models`);
  if (sha256(src) !== entry.sha256) {
    throw new Error(`${src}: sha256 differs from models.json: run scripts/fetch-models`);
  }
  const dst = path.join(truthDir, entry.name + '.onnx');
  const metaFile = path.join(truthDir, entry.name + '.json');
  execFileSync(args.python, [path.join(__dirname, 'expose_outputs.py'), src, dst, metaFile],
               { stdio: ['ignore', 'inherit', 'inherit'] });
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
  meta.file = dst;
  exposed.set(entry.name, meta);
  return meta;
}

async function recordCase(name, bind, entry) {
  const meta = expose(entry);
  const dst = meta.file;
  const { feeds, used } = makeFeeds(name, bind, meta.inputs);

  const plain = await runOnce(dst, feeds, 'disabled');
  const optimized = await runOnce(dst, feeds, 'all');
  const outputs = [];
  const notRecorded = [];
  for (const t of meta.targets) {
    const a = observe(t, plain);
    const b = observe(t, optimized);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      throw new Error(`${name}: ${t.output} differs between optimization levels: ` +
                      `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
    const head = { output: t.output, node: t.node, op: t.op, graph: t.graph };
    if (t.graph_path.length) head.graph_path = t.graph_path;
    if (a.reason) notRecorded.push(Object.assign(head, { reason: a.reason }));
    else outputs.push(Object.assign(head, a));
  }
  return {
    model: entry.name,
    sha256: entry.sha256,
    inputs: used,
    recorded: outputs.length,
    outputs,
    not_recorded: notRecorded,
  };
}

// JSON with one line per output record and flat arrays inline, so that a
// change shows up as a small diff.
function render(doc) {
  const lines = [];
  const inline = (v) => JSON.stringify(v);
  lines.push('{');
  const top = Object.keys(doc).filter((k) => k !== 'cases');
  for (const k of top) lines.push(`  ${inline(k)}: ${inline(doc[k])},`);
  lines.push('  "cases": {');
  const names = Object.keys(doc.cases);
  names.forEach((name, mi) => {
    const m = doc.cases[name];
    lines.push(`    ${inline(name)}: {`);
    const keys = Object.keys(m);
    keys.forEach((k, ki) => {
      const comma = ki < keys.length - 1 ? ',' : '';
      if (Array.isArray(m[k])) {
        if (!m[k].length) { lines.push(`      ${inline(k)}: []${comma}`); return; }
        lines.push(`      ${inline(k)}: [`);
        m[k].forEach((r, ri) => lines.push(`        ${inline(r)}${ri < m[k].length - 1 ? ',' : ''}`));
        lines.push(`      ]${comma}`);
      } else {
        lines.push(`      ${inline(k)}: ${inline(m[k])}${comma}`);
      }
    });
    lines.push(`    }${mi < names.length - 1 ? ',' : ''}`);
  });
  lines.push('  }');
  lines.push('}');
  return lines.join('\n') + '\n';
}

async function main() {
  const only = args.only ? new Set(args.only.split(',')) : null;
  const doc = {
    comment: 'Ground truth from onnxruntime-node for `make check-models`: every Shape, ' +
      'Reshape and Size output of the models of models.json, per case of bindings.json ' +
      '(a model and its inputs: `inputs` below gives dims, and values or a zero fill). ' +
      'dims for all three ops, the int64 values for Shape and Size (JSON numbers; a string ' +
      'if not a safe integer). graph is "" for the main graph, else NODE/ATTRIBUTE per level ' +
      '(node names may contain "/"; graph_path has the levels as pairs); values inside an If ' +
      'branch are recorded when the branch ran, else listed in not_recorded. Regenerate: ' +
      'scripts/fetch-models && scripts/install-ort && node tests/models/record_truth.js',
    generator: 'tests/models/record_truth.js with tests/models/expose_outputs.py',
    onnxruntime_node: ORT_VERSION,
    session: { executionProviders: ['cpu'], graphOptimizationLevel: 'disabled',
               cross_checked_with: 'all' },
    cases: {},
  };
  const byName = new Map(manifest.models.map((m) => [m.name, m]));
  let failed = 0;
  for (const m of manifest.models) {
    if (!bindings[m.name]) {
      failed++;
      console.error(`record_truth: ${m.name}: no main binding in bindings.json`);
    }
  }
  for (const [name, bind] of Object.entries(bindings)) {
    if (name === 'comment' || (only && !only.has(name))) continue;
    try {
      const entry = byName.get(bind.model || name);
      if (!entry) throw new Error(`model ${bind.model || name} is not in models.json`);
      const r = await recordCase(name, bind, entry);
      doc.cases[name] = r;
      console.error(`record_truth: ${name}: ${r.recorded} recorded, ` +
                    `${r.not_recorded.length} not recorded`);
    } catch (e) {
      failed++;
      console.error(`record_truth: ${name}: FAILED: ${e.message}`);
    }
  }
  if (failed) {
    console.error(`record_truth: ${failed} failure(s); nothing written`);
    process.exit(1);
  }
  const text = render(doc);
  JSON.parse(text); // self-check
  if (args.out === '-') process.stdout.write(text);
  else fs.writeFileSync(args.out, text);
}

main().catch((e) => {
  console.error('record_truth: ' + (e.stack || e));
  process.exit(1);
});
