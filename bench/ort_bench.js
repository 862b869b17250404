// SPDX-License-Identifier: Apache-2.0
// onnxruntime's side of make bench, in process, on the models of
// bench/make_data.py: InferenceSession.create + session.run of the
// single-node model, session.run of the loaded model, and Reshape at each
// size. Each figure: median (and min, max) over repeats of the mean time of
// a loop, in nanoseconds, as one JSON object on stdout.
// Usage: node ort_bench.js --ort DIR --data DIR [--quick] [--model-only]
'use strict';
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i].replace(/^--/, '');
  if (a === 'quick' || a === 'model-only') args[a] = true;
  else args[a] = process.argv[++i];
}
const ort = require(path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node'));
ort.env.logLevel = 'error';
const REPEATS = 7;
const scale = args.quick ? 0.05 : 1;
const opts = { logSeverityLevel: 3 };

async function measure(fn, iters) {
  iters = Math.max(1, Math.round(iters * scale));
  await fn(Math.max(1, Math.round(iters / 4))); // warm-up
  const per = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = process.hrtime.bigint();
    await fn(iters);
    per.push(Number(process.hrtime.bigint() - t0) / iters);
  }
  per.sort((a, b) => a - b);
  return { median_ns: per[REPEATS >> 1], min_ns: per[0], max_ns: per[REPEATS - 1] };
}

(async () => {
  const model = fs.readFileSync(path.join(args.data, 'reshape.onnx'));
  const x = new ort.Tensor('float32', Float32Array.from({ length: 24 }, (_, i) => i), [2, 3, 4]);
  const result = { onnxruntime: ort.env.versions.common };

  result.create_and_run = await measure(async (n) => {
    for (let i = 0; i < n; i++) {
      const s = await ort.InferenceSession.create(model, opts);
      const r = await s.run({ x });
      if (r.y.dims[0] !== 4) throw new Error('onnxruntime: wrong output');
      await s.release();
    }
  }, 200);

  const loaded = await ort.InferenceSession.create(model, opts);
  result.run_loaded = await measure(async (n) => {
    for (let i = 0; i < n; i++) await loaded.run({ x });
  }, 20000);

  if (args['model-only']) { // run.py's alternating rounds: the model figures alone
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }

  const any = await ort.InferenceSession.create(path.join(args.data, 'reshape_any.onnx'), opts);
  result.by_size = [];
  for (const bytes of [1024, 1 << 20, 64 << 20, 256 << 20]) {
    const data = new Float32Array(bytes / 4);
    const t = new ort.Tensor('float32', data, [bytes / 4]);
    const iters = Math.min(20000, Math.max(4, Math.floor(2 ** 31 / bytes)));
    result.by_size.push({
      bytes,
      run: await measure(async (n) => {
        for (let i = 0; i < n; i++) await any.run({ x: t });
      }, iters),
    });
  }
  process.stdout.write(JSON.stringify(result) + '\n');
})().catch((e) => {
  console.error('ort_bench: ' + (e && e.message ? e.message : e));
  process.exit(1);
});
