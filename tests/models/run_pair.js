// SPDX-License-Identifier: Apache-2.0
// Runs pairs of models in onnxruntime-node on the same inputs and compares
// every output: the model as shipped and as `onnxshape infer --write-model`
// wrote it (tests/models/write_model.py). Graph optimizations disabled, the
// outputs must be equal byte for byte; with every optimization on (which may
// use the value_info written), the session must load and run, and the
// outputs agree within 1e-5 relative (fusions reorder float arithmetic).
//
// Usage: node tests/models/run_pair.js ORT_DIR JOBS.json
//   JOBS.json: [{"label", "a", "b", "control" (optional), "inputs": {NAME:
//               {"type": ONNX elem type, "dims": [...], "values": [...]
//               (optional; else zeros)}}}]
// control: the model as shipped with only its graph inputs declared as b
// declares them. When b fails to load or run and control fails with the
// same error at the same optimization level, onnxruntime refuses the
// specialised model itself, whatever the value_info: the job is "known",
// not failed.
// Prints one line per job ("ok LABEL: N outputs equal", "known LABEL: why"
// or "FAIL LABEL: why"); exit 0 when no job failed, 1 otherwise, 2 on bad
// usage.
'use strict';
const fs = require('fs');
const path = require('path');

if (process.argv.length !== 4) {
  console.error('usage: node run_pair.js ORT_DIR JOBS.json');
  process.exit(2);
}
const ort = require(path.join(path.resolve(process.argv[2]), 'node_modules', 'onnxruntime-node'));
ort.env.logLevel = 'fatal';
const jobs = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));

const TYPES = require('./ort_types');

function feeds(inputs) {
  const f = {};
  for (const [name, b] of Object.entries(inputs)) {
    const t = TYPES[b.type];
    if (!t) throw new Error(`input ${name} has element type ${b.type}`);
    const data = new t[1](b.dims.reduce((p, d) => p * d, 1));
    (b.values || []).forEach((v, i) => {
      data[i] = (t[1] === BigInt64Array || t[1] === BigUint64Array) ? BigInt(v) : v;
    });
    f[name] = new ort.Tensor(t[0], data, b.dims);
  }
  return f;
}

async function run(file, inputs, level) {
  const s = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'], graphOptimizationLevel: level, logSeverityLevel: 3,
    intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  try {
    return await s.run(feeds(inputs));
  } finally {
    await s.release();
  }
}

function bytes(t) {
  return Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}

// null when equal (exactly, or within tol for float32/float64), else why
function compare(name, x, y, tol) {
  if (x.type !== y.type) return `${name}: type ${x.type} against ${y.type}`;
  if (JSON.stringify(Array.from(x.dims, Number)) !== JSON.stringify(Array.from(y.dims, Number))) {
    return `${name}: dims [${x.dims}] against [${y.dims}]`;
  }
  if (tol === 0 || (x.type !== 'float32' && x.type !== 'float64')) {
    return bytes(x).equals(bytes(y)) ? null : `${name}: the data differs`;
  }
  for (let i = 0; i < x.data.length; i++) {
    const a = x.data[i], b = y.data[i];
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    if (Math.abs(a - b) > tol * Math.max(1, Math.abs(a), Math.abs(b))) {
      return `${name}[${i}]: ${a} against ${b}`;
    }
  }
  return null;
}

async function job(j) {
  let n = 0;
  for (const [level, tol] of [['disabled', 0], ['all', 1e-5]]) {
    j.level = level; // where a failure happened
    const ra = await run(j.a, j.inputs, level);
    const rb = await run(j.b, j.inputs, level);
    const names = Object.keys(ra).sort();
    if (JSON.stringify(names) !== JSON.stringify(Object.keys(rb).sort())) {
      return `outputs ${names} against ${Object.keys(rb).sort()}`;
    }
    for (const name of names) {
      const why = compare(name, ra[name], rb[name], tol);
      if (why) return `${level}: ${why}`;
    }
    n = names.length;
  }
  return n;
}

function firstLine(e) {
  return String(e.message || e).split('\n')[0];
}

(async () => {
  let failed = 0;
  for (const j of jobs) {
    let r;
    try {
      r = await job(j);
    } catch (e) {
      r = firstLine(e);
    }
    let control = null; // the control's failure, when it fails as b does
    if (typeof r !== 'number' && j.control) {
      try {
        await run(j.control, j.inputs, j.level);
      } catch (e) {
        if (firstLine(e) === r) control = r;
      }
    }
    if (typeof r === 'number') {
      console.log(`ok ${j.label}: ${r} outputs equal`);
    } else if (control !== null) {
      console.log(`known ${j.label}: onnxruntime (optimizations ${j.level}) refuses the model ` +
                  `as shipped with only its graph inputs declared at these dims, with the same ` +
                  `error: ${r}`);
    } else {
      console.log(`FAIL ${j.label}: ${r}`);
      failed++;
    }
  }
  process.exit(failed ? 1 : 0);
})();
