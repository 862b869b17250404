// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the tensor-shaping operators (ops_tensor.c)
// and the matrix products (ops_matmul.c), on float inputs with symbolic
// dims; every list the shape depends on is an initializer.
'use strict';

const dims = (g, lo, hi, min = 1) => Array.from({ length: g.pick(lo, hi) }, () => g.dim(min, 4));
const ints = (vals) => ({ type: 'int64', dims: [vals.length], values: vals });
const scalar = (type, v) => ({ type, dims: [], values: [v] });
const shuffle = (g, a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = g.pick(0, i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const range = (n) => Array.from({ length: n }, (_, i) => i);
// onnxruntime-node 1.30 loads a model of opset 27 (LinearAttention,
// CausalConvWithState) only with this set: its released opsets end at 26.
const allowOpset27 = () => { process.env.ALLOW_RELEASED_ONNX_OPSET_ONLY = '0'; };
// a few distinct axes of rank r (negative ones when `neg`)
const someAxes = (g, r, neg) =>
  shuffle(g, range(r)).slice(0, g.pick(1, r)).map((a) => (neg && g.chance(0.5) ? a - r : a));

// MatMul's operands: batch dims that broadcast (a 1 on one side, or a dim
// shared by name), inner dims shared by name, 1-D operands sometimes.
function matmulPair(g, type) {
  const ra = g.pick(1, 4), rb = g.pick(1, 4);
  const k = g.dim(1, 4, 'k');
  const nb = Math.max(ra, rb) - 2;
  const batch = Array.from({ length: Math.max(nb, 0) }, (_, p) => g.dim(1, 3, `b${p}`));
  const side = (r) => batch.slice(batch.length - Math.max(r - 2, 0)).map((d) => (g.chance(0.3) ? 1 : d));
  const a = ra === 1 ? [k] : [...side(ra), g.dim(1, 4), k];
  const b = rb === 1 ? [k] : [...side(rb), k, g.dim(1, 4)];
  return [{ type, dims: a }, { type, dims: b }];
}

// A reduction's case: axes as attribute (before `since`) or input.
function reduction(since) {
  return (g, v) => {
    const r = g.pick(1, 4);
    const x = { type: 'float', dims: dims(g, r, r) };
    const attrs = [];
    const inputs = [x];
    const all = g.chance(0.2);
    // negative axes in every version (before 11 the specification is
    // silent; onnxruntime counts them from the end: divergences.md D13)
    const axes = all ? [] : someAxes(g, r, true);
    if (g.chance(0.5)) attrs.push(g.E.attr('keepdims', g.pick(0, 1)));
    if (v >= since) {
      if (g.chance(0.3)) attrs.push(g.E.attr('noop_with_empty_axes', g.pick(0, 1)));
      if (!all || g.chance(0.5)) inputs.push(ints(axes));
    } else if (!all) {
      attrs.push(g.E.attr('axes', axes));
    }
    return { inputs, attrs };
  };
}

const REDUCE = ['ReduceMean', 'ReduceL1', 'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp',
                'ReduceSumSquare', 'ReduceProd'].map((op) => ({ op, versions: [1, 11, 13, 18], gen: reduction(18) }));

// Resize and Upsample: the dims scaled are numbers (a symbol times a
// float scale is not evaluated: past 2^24 onnxruntime's float product
// rounds); dims given as sizes may be symbols.
const SCALES = [0.3, 0.5, 0.6, 1, 1.5, 2, 2.5, 3];
const floats = (vals) => ({ type: 'float', dims: [vals.length], values: vals });
function resize(g, v) {
  const r = g.pick(1, 4);
  const bySizes = v >= 11 && g.chance(0.4);
  const x = { type: 'float', dims: bySizes ? dims(g, r, r) : dims(g, r, r).map((d) => d.v) };
  if (bySizes) {
    const sizes = ints(x.dims.map(() => g.pick(1, 6)));
    return { inputs: [x, v >= 13 ? null : floats([]), v >= 13 ? null : floats([]), sizes] };
  }
  const scales = floats(x.dims.map(() => g.choice(SCALES)));
  if (v < 11) return { inputs: [x, scales] };
  return { inputs: [x, v >= 13 && g.chance(0.5) ? null : floats([]), scales] };
}

module.exports = [
  {
    op: 'Transpose',
    versions: [1, 13, 21],
    gen: (g) => {
      const x = { type: 'float', dims: dims(g, 0, 4, 0) };
      const perm = shuffle(g, range(x.dims.length));
      return { inputs: [x], attrs: g.chance(0.7) ? [g.E.attr('perm', perm)] : [] };
    },
  },
  { op: 'MatMul', versions: [1, 9, 13], gen: (g) => ({ inputs: matmulPair(g, 'float') }) },
  { op: 'MatMulInteger', versions: [10], gen: (g) => ({ inputs: matmulPair(g, 'uint8') }) },
  {
    op: 'QLinearMatMul',
    versions: [10, 21],
    gen: (g) => {
      const [a, b] = matmulPair(g, 'uint8');
      const s = () => scalar('float', 0.5), z = () => scalar('uint8', 1);
      return { inputs: [a, s(), z(), b, s(), z(), s(), z()] };
    },
  },
  {
    op: 'Gemm',
    versions: [7, 9, 11, 13],
    gen: (g, v) => {
      const m = g.dim(1, 4), k = g.dim(1, 4, 'k'), n = g.dim(1, 4, 'n');
      const ta = g.pick(0, 1), tb = g.pick(0, 1);
      const inputs = [{ type: 'float', dims: ta ? [k, m] : [m, k] },
                      { type: 'float', dims: tb ? [n, k] : [k, n] }];
      const c = g.choice([[n], [m, n], [1], v >= 11 ? null : [n]]);
      if (c !== null) inputs.push({ type: 'float', dims: c });
      return { inputs, attrs: [g.E.attr('transA', ta), g.E.attr('transB', tb)] };
    },
  },
  {
    op: 'Einsum',
    versions: [12],
    gen: (g) => {
      const eq = g.choice(['ij,jk->ik', 'bij,bjk->bik', 'ij->ji', 'ij->i', 'ij,jk', 'ii->i',
                           'i,j->ij', 'i,i', 'ijk->kji', 'ij,ij->ij', 'bhqd,bhkd->bhqk']);
      const of = {};
      for (const ch of new Set(eq.replace(/[^a-z]/g, ''))) of[ch] = g.dim(1, 4, `L${ch}`);
      const terms = eq.split('->')[0].split(',');
      return { inputs: terms.map((t) => ({ type: 'float', dims: [...t].map((ch) => of[ch]) })),
               attrs: [g.E.attrString('equation', eq)] };
    },
  },
  {
    // Q, K, V all 4-D (heads explicit) or all 3-D (q_num_heads and
    // kv_num_heads given); grouped-query heads; with past_key and
    // past_value (4-D), every output, total = past + kv sequence.
    op: 'Attention',
    versions: [23, 24, 25],
    gen: (g) => {
      const b = g.dim(1, 2, 'B'), s = g.dim(1, 4, 'S'), t = g.dim(1, 4, 'T');
      const kvh = g.pick(1, 2), qh = kvh * g.pick(1, 2), hd = 2 * g.pick(1, 3), vd = g.pick(1, 3);
      const f = (d) => ({ type: 'float', dims: d });
      const three = g.chance(0.4);
      const inputs = three
        ? [f([b, s, qh * hd]), f([b, t, kvh * hd]), f([b, t, kvh * vd])]
        : [f([b, qh, s, hd]), f([b, kvh, t, hd]), f([b, kvh, t, vd])];
      const past = g.chance(0.5) ? g.dim(1, 3, 'P') : null;
      if (past) inputs.push(null, f([b, kvh, past, hd]), f([b, kvh, past, vd]));
      const attrs = three ? [g.E.attr('q_num_heads', qh), g.E.attr('kv_num_heads', kvh)] : [];
      return { inputs, attrs, outputs: past ? g.pick(3, 4) : 1 };
    },
  },
  {
    // Q, K, V packed (B, T, H * d), each packed dim sometimes a symbol of
    // its own; past_state; decay and beta as the update rule takes them.
    op: 'LinearAttention',
    versions: [27],
    gen: (g) => {
      allowOpset27();
      const b = g.dim(1, 2, 'B'), t = g.dim(1, 4, 'T');
      const kvh = g.pick(1, 2), qh = kvh * g.pick(1, 2), dk = g.pick(1, 3), dv = g.pick(1, 3);
      const rule = g.choice(['linear', 'gated', 'delta', 'gated_delta']);
      const f = (d) => ({ type: 'float', dims: d });
      const packed = (v, s) => (g.chance(0.5) ? { v, s } : v);
      const inputs = [f([b, t, packed(qh * dk, 'Q')]), f([b, t, packed(kvh * dk, 'K')]),
                      f([b, t, packed(kvh * dv, 'V')])];
      const gated = rule === 'gated' || rule === 'gated_delta';
      const delta = rule === 'delta' || rule === 'gated_delta';
      const rest = [g.chance(0.5) ? f([b, kvh, dk, dv]) : null,
                    gated ? f([b, t, g.chance(0.5) ? kvh * dk : kvh]) : null,
                    delta ? f([b, t, g.chance(0.5) ? kvh : 1]) : null];
      while (rest.length > 0 && rest[rest.length - 1] === null) rest.pop();
      inputs.push(...rest);
      const attrs = [g.E.attr('q_num_heads', qh), g.E.attr('kv_num_heads', kvh)];
      if (rule !== 'gated_delta' || g.chance(0.5)) attrs.push(g.E.attrString('update_rule', rule));
      return { inputs, attrs, outputs: 2 };
    },
  },
  {
    // input (B, C, L), weight (C, 1, k) (k sometimes a symbol), bias and
    // past_state (B, C, k - 1) sometimes, an activation sometimes. The
    // weight's C is a number: onnxruntime runs the node through ONNX's
    // function body, which needs C known for Conv's group.
    op: 'CausalConvWithState',
    versions: [27],
    gen: (g) => {
      allowOpset27();
      const b = g.dim(1, 2, 'B'), ch = g.dim(1, 4, 'C'), l = g.dim(1, 5, 'L'), k = g.pick(1, 4);
      const f = (d) => ({ type: 'float', dims: d });
      const inputs = [f([b, ch, l]), f([ch.v, 1, g.chance(0.5) ? { v: k, s: 'K' } : k])];
      const bias = g.chance(0.5), past = g.chance(0.5);
      if (bias || past) inputs.push(bias ? f([ch]) : null);
      if (past) inputs.push(f([b, ch, g.chance(0.5) ? { v: k - 1, s: 'P' } : k - 1]));
      const attrs = g.chance(0.5)
        ? [g.E.attrString('activation', g.choice(['none', 'silu', 'swish']))] : [];
      return { inputs, attrs, outputs: 2 };
    },
  },
  {
    op: 'Expand',
    versions: [8, 13],
    gen: (g) => {
      const x = { type: 'float', dims: dims(g, 0, 3) };
      const lead = Array.from({ length: g.pick(0, 2) }, () => g.pick(1, 3));
      const mine = x.dims.map((d) => (d.v === 1 ? g.pick(1, 3) : g.chance(0.5) ? 1 : d.v));
      // a shorter target broadcasts too
      const target = g.chance(0.2) && mine.length > 0 ? mine.slice(1) : [...lead, ...mine];
      return { inputs: [x, ints(target)] };
    },
  },
  {
    op: 'Tile',
    versions: [6, 13],
    gen: (g) => {
      const x = { type: 'float', dims: dims(g, 1, 3) };
      return { inputs: [x, ints(x.dims.map(() => g.pick(0, 3)))] };
    },
  },
  {
    op: 'Flatten',
    versions: [1, 9, 11, 13, 21],
    gen: (g, v) => {
      const x = { type: 'float', dims: dims(g, v >= 9 ? 0 : 2, 4, 0) };
      const r = x.dims.length;
      let axis = g.pick(0, r);
      if (v >= 11 && g.chance(0.3)) axis -= r;
      return { inputs: [x], attrs: g.chance(0.8) ? [g.E.attr('axis', axis)] : [] };
    },
  },
  {
    op: 'Split',
    versions: [2, 11, 13, 18],
    gen: (g, v) => {
      const r = g.pick(1, 3);
      const x = { type: 'float', dims: dims(g, r, r) };
      const axis = g.pick(0, r - 1);
      const k = g.pick(1, 3);
      const attrs = [g.E.attr('axis', v >= 11 && g.chance(0.3) ? axis - r : axis)];
      const inputs = [x];
      const mode = g.choice(['list', 'equal']);
      if (mode === 'list') {
        const parts = Array.from({ length: k }, () => g.pick(0, 3));
        x.dims[axis] = g.dim(parts.reduce((a, b) => a + b, 0), parts.reduce((a, b) => a + b, 0));
        if (v >= 13) inputs.push(ints(parts));
        else attrs.push(g.E.attr('split', parts));
      } else if (v >= 18) {
        // num_outputs: ceil(d/k) each, the last at least 1
        const chunk = g.pick(1, 3);
        x.dims[axis] = g.dim((k - 1) * chunk + g.pick(1, chunk), 0);
        x.dims[axis] = g.dim(x.dims[axis].v, x.dims[axis].v);
        attrs.push(g.E.attr('num_outputs', k));
      } else {
        const m = g.pick(1, 3);
        x.dims[axis] = g.dim(k * m, k * m);
      }
      return { inputs, attrs, outputs: k };
    },
  },
  {
    op: 'Pad',
    versions: [2, 11, 13, 18, 19, 21],
    gen: (g, v) => {
      const x = { type: 'float', dims: dims(g, 1, 3) };
      const r = x.dims.length;
      const axes = v >= 18 && g.chance(0.5) ? someAxes(g, r, true) : null;
      const padded = axes === null ? range(r) : axes.map((a) => (a + r) % r);
      // a negative pad crops, never below 0
      const pad = (d) => g.pick(-Math.floor(d.v / 2), 2);
      const pads = [...padded.map((a) => pad(x.dims[a])), ...padded.map((a) => pad(x.dims[a]))]
        .map((p, i) => (i >= padded.length && p < 0 && x.dims[padded[i - padded.length]].v + p < 0 ? 0 : p));
      if (v < 11) return { inputs: [x], attrs: [g.E.attr('pads', pads)] };
      const inputs = [x, ints(pads)];
      if (axes !== null) inputs.push(null, ints(axes));
      return { inputs };
    },
  },
  { op: 'Resize', versions: [10, 11, 13, 18, 19], gen: resize },
  {
    op: 'Upsample',
    versions: [7, 9],
    gen: (g, v) => {
      const c = resize(g, 10);
      c.inputs[1].values = c.inputs[1].values.map((f) => Math.max(f, 1)); // scales >= 1
      if (v >= 9) return c;
      return { inputs: [c.inputs[0]], attrs: [g.E.attrFloats('scales', c.inputs[1].values)] };
    },
  },
  { op: 'ReduceSum', versions: [1, 11, 13], gen: reduction(13) },
  { op: 'ReduceMax', versions: [1, 11, 12, 13, 18, 20], gen: reduction(18) },
  { op: 'ReduceMin', versions: [1, 11, 12, 13, 18, 20], gen: reduction(18) },
  ...REDUCE,
  ...['ArgMax', 'ArgMin'].map((op) => ({
    op,
    versions: [1, 11, 12, 13],
    gen: (g, v) => {
      const r = g.pick(1, 4);
      const x = { type: 'float', dims: dims(g, r, r) };
      const attrs = [g.E.attr('axis', g.pick(v >= 11 ? -r : 0, r - 1))];
      if (g.chance(0.5)) attrs.push(g.E.attr('keepdims', g.pick(0, 1)));
      if (v >= 12 && g.chance(0.5)) attrs.push(g.E.attr('select_last_index', g.pick(0, 1)));
      return { inputs: [x], attrs };
    },
  })),
];
