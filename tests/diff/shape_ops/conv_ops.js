// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: convolution and pooling (src/runtime/ops_conv.c).
// Random geometry (kernel, strides, dilations, pads or auto_pad,
// ceil_mode, group) over 1 to 3 spatial dims, mostly valid: onnxruntime
// refuses the rest, which is counted. Versions onnxruntime has no kernel
// for are left out: AveragePool-1, LpPool-1, GlobalLpPool-1 and -22.
'use strict';

const A = (g, name, v) => g.E.attr(name, v);

// r spatial dims of the input: symbols s0.. in the symbolic modes.
const spatial = (g, r, lo = 1, hi = 9) => Array.from({ length: r }, (_, i) => g.dim(lo, hi, `s${i}`));

// The padding attributes: nothing, explicit NOTSET with pads, VALID or
// SAME (SAME only where `sameOk`).
function padding(g, r, kernel, sameOk) {
  const mode = g.choice(sameOk ? ['none', 'pads', 'VALID', 'SAME_UPPER', 'SAME_LOWER'] : ['none', 'pads', 'VALID']);
  if (mode === 'none') return { attrs: [], mode };
  if (mode === 'pads') {
    const pads = [...kernel, ...kernel].map((k) => g.pick(0, k - 1));
    const attrs = [A(g, 'pads', pads)];
    if (g.chance(0.3)) attrs.push(g.E.attrString('auto_pad', 'NOTSET'));
    return { attrs, mode };
  }
  return { attrs: [g.E.attrString('auto_pad', mode)], mode };
}

// A convolution's geometry: kernel, attributes (strides, dilations,
// padding, kernel_shape sometimes written out). With SAME, ConvTranspose
// (`transpose`) gets strides no larger than the kernel: past it
// onnxruntime does not give the specification's in*stride (the analysis
// leaves those unknown).
function convGeometry(g, r, transpose) {
  const kernel = Array.from({ length: r }, () => g.pick(1, 3));
  const pad = padding(g, r, kernel, true);
  const attrs = [...pad.attrs];
  const cap = (k) => (transpose && pad.mode.startsWith('SAME') ? k : 3);
  if (g.chance(0.6)) attrs.push(A(g, 'strides', kernel.map((k) => g.pick(1, cap(k)))));
  if (!pad.mode.startsWith('SAME') && g.chance(0.4)) attrs.push(A(g, 'dilations', kernel.map(() => g.pick(1, 2))));
  if (g.chance(0.5)) attrs.push(A(g, 'kernel_shape', kernel));
  return { kernel, attrs };
}

// Weights: an initializer (zeros) or a graph input whose kernel dims are
// sometimes symbols.
function weights(g, type, dims, kernelAt) {
  if (g.chance(0.5)) return { type, dims, values: new Array(dims.reduce((a, d) => a * d, 1)).fill(0) };
  return { type, dims: dims.map((d, k) => (k >= kernelAt && g.chance(0.5) ? g.dim(d, d, `k${k}`) : d)) };
}

function convCase(g, v, xType, wType) {
  const r = g.pick(1, 3);
  const geo = convGeometry(g, r, false);
  const group = g.chance(0.3) ? 2 : 1;
  const cin = group * g.pick(1, 2);
  const m = group * g.pick(1, 3);
  const x = { type: xType, dims: [g.dim(1, 3, 'N'), cin, ...spatial(g, r, 1, 8)] };
  const w = weights(g, wType, [m, cin / group, ...geo.kernel], 2);
  const attrs = [...geo.attrs];
  if (group > 1 || g.chance(0.2)) attrs.push(A(g, 'group', group));
  return { x, w, m, attrs };
}

const scalar = (g, type, value) => ({ type, dims: [], values: [value] });

// Pools: pads below the kernel (onnxruntime's rule), SAME with strides no
// larger than the kernel (else its padding is negative and it refuses).
function poolCase(g, v, op) {
  const r = g.pick(1, 3);
  const kernel = Array.from({ length: r }, () => g.pick(1, 3));
  const pad = padding(g, r, kernel, true);
  const same = pad.mode.startsWith('SAME');
  const attrs = [A(g, 'kernel_shape', kernel), ...pad.attrs];
  if (g.chance(0.6)) attrs.push(A(g, 'strides', kernel.map((k) => g.pick(1, same ? k : 3))));
  const hasCeil = op === 'LpPool' ? v >= 18 : v >= 10;
  const hasDil = op === 'MaxPool' ? v >= 10 : op === 'AveragePool' ? v >= 19 : v >= 18;
  if (hasCeil && g.chance(0.5)) attrs.push(A(g, 'ceil_mode', 1));
  if (hasDil && !same && g.chance(0.4)) attrs.push(A(g, 'dilations', kernel.map(() => g.pick(1, 2))));
  if (op === 'AveragePool' && v >= 7 && g.chance(0.3)) attrs.push(A(g, 'count_include_pad', 1));
  if (op === 'LpPool' && g.chance(0.3)) attrs.push(v === 1 ? g.E.attrFloat('p', 3.0) : A(g, 'p', 3));
  const x = { type: 'float', dims: [g.dim(1, 3, 'N'), g.dim(1, 3, 'C'), ...spatial(g, r, 1, 9)] };
  const outputs = op === 'MaxPool' && v >= 8 && g.chance(0.5) ? 2 : 1;
  return { inputs: [x], attrs, outputs };
}

const globalCase = (g) => ({
  inputs: [{ type: 'float', dims: [g.dim(1, 3, 'N'), g.dim(1, 4, 'C'), ...spatial(g, g.pick(1, 3), 1, 6)] }],
});

// A recurrent layer with `gates` gates: X [seq, batch, input] (batch
// first with layout 1), W, R (initializers or inputs), B sometimes; every
// output asked for.
function rnnCase(g, v, gates, outputs) {
  const dirs = g.choice([['forward', 1], ['reverse', 1], ['bidirectional', 2], [null, 1]]);
  const hidden = g.pick(1, 4);
  const input = g.pick(1, 3);
  // onnxruntime refuses layout 1 (batch first): seldom drawn
  const layout = v >= 14 && g.chance(0.1) ? 1 : 0;
  const seq = g.dim(1, 5, 'S');
  const batch = g.dim(1, 3, 'B');
  const x = { type: 'float', dims: layout ? [batch, seq, input] : [seq, batch, input] };
  const wt = (dims) => (g.chance(0.5) ? { type: 'float', dims, values: new Array(dims.reduce((a, d) => a * d, 1)).fill(0.1) }
                                      : { type: 'float', dims });
  const inputs = [x, wt([dirs[1], gates * hidden, input]), wt([dirs[1], gates * hidden, hidden])];
  if (g.chance(0.3)) inputs.push(wt([dirs[1], 2 * gates * hidden]));
  const attrs = [A(g, 'hidden_size', hidden)];
  if (dirs[0]) attrs.push(g.E.attrString('direction', dirs[0]));
  if (layout || (v >= 14 && g.chance(0.2))) attrs.push(A(g, 'layout', layout));
  return { inputs, attrs, outputs };
}

const windowCase = (g) => {
  const attrs = [];
  if (g.chance(0.5)) attrs.push(A(g, 'output_datatype', g.choice([1, 11])));
  if (g.chance(0.5)) attrs.push(A(g, 'periodic', g.pick(0, 1)));
  return { inputs: [{ type: g.choice(['int32', 'int64']), dims: [], values: [g.pick(0, 9)] }], attrs };
};

module.exports = [
  {
    op: 'Conv',
    versions: [1, 11, 22],
    gen: (g, v) => {
      const c = convCase(g, v, 'float', 'float');
      const inputs = [c.x, c.w];
      if (g.chance(0.3)) inputs.push({ type: 'float', dims: [c.m] });
      return { inputs, attrs: c.attrs };
    },
  },
  {
    // offset [N, 2*offset_group*prod(kernel), out...] (and mask) must match
    // the output, so the generator computes it: numbers, pads only.
    op: 'DeformConv',
    versions: [19, 22],
    gen: (g) => {
      const r = 2;
      const kernel = [g.pick(1, 3), g.pick(1, 3)];
      const strides = [g.pick(1, 2), g.pick(1, 2)];
      const dil = [g.pick(1, 2), g.pick(1, 2)];
      const pads = [...kernel, ...kernel].map((k) => g.pick(0, k - 1));
      const n = g.dim(1, 2, 'N');
      const x = { type: 'float', dims: [n, 2, ...spatial(g, r, 3, 8)] };
      const out = x.dims.slice(2).map((d, i) => Math.floor((d.v + pads[i] + pads[i + r] - dil[i] * (kernel[i] - 1) - 1) / strides[i]) + 1);
      if (out.some((o) => o < 1)) return null;
      const kk = kernel[0] * kernel[1];
      const attrs = [A(g, 'strides', strides), A(g, 'dilations', dil), A(g, 'pads', pads)];
      if (g.chance(0.5)) attrs.push(A(g, 'kernel_shape', kernel));
      const inputs = [x, { type: 'float', dims: [g.pick(1, 3), 2, ...kernel] },
                      { type: 'float', dims: [n.v, 2 * kk, ...out] }];
      if (g.chance(0.5)) inputs.push({ type: 'float', dims: [inputs[1].dims[0]] });
      return { inputs, attrs };
    },
  },
  {
    op: 'ConvInteger',
    versions: [10],
    gen: (g, v) => {
      const c = convCase(g, v, 'uint8', 'uint8');
      const inputs = [c.x, c.w];
      if (g.chance(0.5)) inputs.push(scalar(g, 'uint8', 1));
      return { inputs, attrs: c.attrs };
    },
  },
  {
    op: 'QLinearConv',
    versions: [10],
    gen: (g, v) => {
      const c = convCase(g, v, 'uint8', g.choice(['uint8', 'int8']));
      if (c.w.values === undefined) c.w.dims = c.w.dims.map((d) => (typeof d === 'object' ? d.v : d));
      c.w.values = new Array(c.w.dims.reduce((a, d) => a * d, 1)).fill(1);
      const inputs = [c.x, scalar(g, 'float', 0.5), scalar(g, 'uint8', 1), c.w, scalar(g, 'float', 0.5),
                      scalar(g, c.w.type, 0), scalar(g, 'float', 0.25), scalar(g, 'uint8', 2)];
      return { inputs, attrs: c.attrs };
    },
  },
  {
    op: 'ConvTranspose',
    versions: [1, 11, 22],
    gen: (g, v) => {
      const r = g.pick(1, 2);
      const geo = convGeometry(g, r, true);
      const group = g.chance(0.3) ? 2 : 1;
      const cin = group * g.pick(1, 2);
      const mPer = g.pick(1, 3);
      const x = { type: 'float', dims: [g.dim(1, 3, 'N'), cin, ...spatial(g, r, 1, 6)] };
      const w = weights(g, 'float', [cin, mPer, ...geo.kernel], 2);
      const attrs = [...geo.attrs];
      if (group > 1) attrs.push(A(g, 'group', group));
      if (g.chance(0.3)) attrs.push(A(g, 'output_padding', geo.kernel.map(() => g.pick(0, 1))));
      else if (g.chance(0.2)) attrs.push(A(g, 'output_shape', geo.kernel.map(() => g.pick(1, 12))));
      const inputs = [x, w];
      if (g.chance(0.3)) inputs.push({ type: 'float', dims: [mPer * group] });
      return { inputs, attrs };
    },
  },
  { op: 'MaxPool', versions: [1, 8, 10, 11, 12, 22], gen: (g, v) => poolCase(g, v, 'MaxPool') },
  { op: 'AveragePool', versions: [7, 10, 11, 19, 22], gen: (g, v) => poolCase(g, v, 'AveragePool') },
  { op: 'LpPool', versions: [2, 11, 18, 22], gen: (g, v) => poolCase(g, v, 'LpPool') },
  { op: 'GlobalAveragePool', versions: [1, 22], gen: globalCase },
  { op: 'GlobalMaxPool', versions: [1, 22], gen: globalCase },
  { op: 'GlobalLpPool', versions: [2], gen: globalCase },
  { op: 'LSTM', versions: [7, 14, 22], gen: (g, v) => rnnCase(g, v, 4, 3) },
  { op: 'GRU', versions: [7, 14, 22], gen: (g, v) => rnnCase(g, v, 3, 2) },
  { op: 'RNN', versions: [7, 14, 22], gen: (g, v) => rnnCase(g, v, 1, 2) },
  {
    op: 'ReverseSequence',
    versions: [10],
    gen: (g) => {
      const seq = g.dim(1, 5, 'S');
      const batch = g.pick(1, 3);
      const x = { type: g.choice(['float', 'int64']), dims: [seq, batch, ...spatial(g, g.pick(0, 2), 1, 3)] };
      const lens = { type: 'int64', dims: [batch], values: Array.from({ length: batch }, () => g.pick(1, seq.v)) };
      return { inputs: [x, lens] };
    },
  },
  {
    op: 'Det',
    versions: [11, 22],
    gen: (g) => {
      const m = g.dim(1, 4, 'M');
      return { inputs: [{ type: 'float', dims: [...spatial(g, g.pick(0, 2), 1, 3), m, m] }] };
    },
  },
  {
    // The count of selected boxes depends on the scores: a fresh symbol,
    // never exact (only its rank, type and the 3 are checked).
    op: 'NonMaxSuppression',
    versions: [10, 11],
    min_exact: 0,
    gen: (g) => {
      const b = g.dim(1, 2, 'B');
      const nb = g.dim(1, 6, 'N');
      const inputs = [{ type: 'float', dims: [b, nb, 4] }, { type: 'float', dims: [b, g.dim(1, 3, 'C'), nb] }];
      if (g.chance(0.6)) inputs.push({ type: 'int64', dims: [], values: [g.pick(0, 4)] });
      return { inputs };
    },
  },
  { op: 'HannWindow', versions: [17], gen: windowCase },
  { op: 'HammingWindow', versions: [17], gen: windowCase },
  { op: 'BlackmanWindow', versions: [17], gen: windowCase },
  {
    op: 'RoiAlign',
    versions: [10, 16], // onnxruntime has no RoiAlign-22 nor MaxRoiPool-22
    gen: (g) => {
      const r = g.dim(1, 4, 'R');
      const n = g.pick(1, 2);
      const x = { type: 'float', dims: [n, g.dim(1, 3, 'C'), g.dim(2, 6, 'H'), g.dim(2, 6, 'W')] };
      const rois = { type: 'float', dims: [r, 4], range: [0, 2] };
      const idx = { type: 'int64', dims: [r], range: [0, n - 1] };
      const attrs = [];
      if (g.chance(0.5)) attrs.push(A(g, 'output_height', g.pick(1, 4)));
      if (g.chance(0.5)) attrs.push(A(g, 'output_width', g.pick(1, 4)));
      return { inputs: [x, rois, idx], attrs };
    },
  },
  {
    op: 'MaxRoiPool',
    versions: [1],
    gen: (g) => {
      const x = { type: 'float', dims: [1, g.dim(1, 3, 'C'), g.dim(2, 6, 'H'), g.dim(2, 6, 'W')] };
      const r = g.pick(1, 3);
      const rois = { type: 'float', dims: [r, 5], values: Array.from({ length: r }, () => [0, 0, 0, 1, 1]).flat() };
      return { inputs: [x, rois], attrs: [A(g, 'pooled_shape', [g.pick(1, 3), g.pick(1, 3)])] };
    },
  },
  {
    op: 'MaxUnpool',
    versions: [9, 11, 22],
    gen: (g) => {
      const r = g.pick(1, 2);
      const kernel = Array.from({ length: r }, () => g.pick(1, 3));
      const strides = kernel.map(() => g.pick(1, 3));
      const x = { type: 'float', dims: [g.dim(1, 2, 'N'), g.dim(1, 3, 'C'), ...spatial(g, r, 1, 4)] };
      // indices 0: valid for any output size
      const idx = { type: 'int64', dims: x.dims, range: [0, 0] };
      const attrs = [A(g, 'kernel_shape', kernel), A(g, 'strides', strides)];
      if (g.chance(0.4)) attrs.push(A(g, 'pads', [...kernel, ...kernel].map((k) => g.pick(0, k - 1))));
      const inputs = [x, idx];
      if (g.chance(0.3)) {
        const vals = x.dims.map((d, k) => (k < 2 ? d.v : (d.v - 1) * strides[k - 2] + kernel[k - 2] + g.pick(0, 1)));
        inputs.push({ type: 'int64', dims: [vals.length], values: vals });
      }
      return { inputs, attrs };
    },
  },
  {
    op: 'AffineGrid',
    versions: [20],
    gen: (g) => {
      const r = g.pick(2, 3);
      const n = g.pick(1, 2);
      const size = [n, g.pick(1, 3), ...Array.from({ length: r }, () => g.pick(1, 5))];
      const theta = { type: 'float', dims: [n, r, r + 1] };
      const attrs = g.chance(0.5) ? [A(g, 'align_corners', g.pick(0, 1))] : [];
      return { inputs: [theta, { type: 'int64', dims: [size.length], values: size }], attrs };
    },
  },
  {
    op: 'CenterCropPad',
    versions: [18],
    gen: (g) => {
      const r = g.pick(1, 4);
      const x = { type: g.choice(['float', 'int64']), dims: spatial(g, r, 1, 6) };
      const attrs = [];
      let axes = Array.from({ length: r }, (_, k) => k);
      if (g.chance(0.5)) {
        axes = axes.filter(() => g.chance(0.6));
        if (axes.length === 0) axes = [0];
        attrs.push(A(g, 'axes', axes.map((a) => (g.chance(0.3) ? a - r : a))));
      }
      const shape = axes.map(() => g.pick(1, 7));
      return { inputs: [x, { type: 'int64', dims: [shape.length], values: shape }], attrs };
    },
  },
  {
    op: 'Col2Im',
    versions: [18],
    gen: (g) => {
      const r = g.pick(1, 2);
      const block = Array.from({ length: r }, () => g.pick(1, 3));
      const image = block.map((b) => b + g.pick(0, 3));
      const blocks = image.reduce((a, d, k) => a * (d - block[k] + 1), 1);
      const c = g.pick(1, 3);
      const x = { type: 'float', dims: [g.dim(1, 2, 'N'), c * block.reduce((a, b) => a * b, 1), g.dim(blocks, blocks, 'L')] };
      const ints = (v) => ({ type: 'int64', dims: [v.length], values: v });
      return { inputs: [x, ints(image), ints(block)] };
    },
  },
  {
    op: 'DFT',
    versions: [17, 20],
    gen: (g, v) => {
      const r = g.pick(1, 2);
      const complex = g.chance(0.3);
      const x = { type: 'float', dims: [g.dim(1, 2, 'B'), ...spatial(g, r, 1, 6), complex ? 2 : 1] };
      const axis = g.pick(1, r);
      const attrs = [];
      if (!complex && g.chance(0.4)) attrs.push(A(g, 'onesided', 1));
      if (g.chance(0.3)) attrs.push(A(g, 'inverse', g.pick(0, 1)));
      const inputs = [x];
      if (g.chance(0.4)) inputs.push({ type: 'int64', dims: [], values: [g.pick(1, 8)] });
      if (v < 20) {
        if (axis !== 1 || g.chance(0.3)) attrs.push(A(g, 'axis', axis));
      } else if (axis !== r || g.chance(0.3)) {
        if (inputs.length === 1) inputs.push(null);
        inputs.push({ type: 'int64', dims: [], values: [g.chance(0.5) ? axis : axis - (r + 2)] });
      }
      return { inputs, attrs };
    },
  },
  {
    op: 'STFT',
    versions: [17],
    gen: (g) => {
      const len = g.pick(2, 6);
      const x = { type: 'float', dims: [g.dim(1, 2, 'B'), g.dim(len, len + 8, 'L'), 1] };
      const inputs = [x, { type: 'int64', dims: [], values: [g.pick(1, 4)] }];
      const window = g.chance(0.6);
      inputs.push(window ? { type: 'float', dims: [len] } : null);
      if (!window || g.chance(0.4)) inputs.push({ type: 'int64', dims: [], values: [len] });
      return { inputs, attrs: g.chance(0.4) ? [A(g, 'onesided', g.pick(0, 1))] : [] };
    },
  },
  {
    op: 'MelWeightMatrix',
    versions: [17],
    gen: (g) => {
      const t = g.choice(['int32', 'int64']);
      const inputs = [{ type: t, dims: [], values: [g.pick(1, 10)] }, { type: t, dims: [], values: [g.pick(4, 64)] },
                      { type: t, dims: [], values: [16000] }, { type: 'float', dims: [], values: [0] },
                      { type: 'float', dims: [], values: [4000] }];
      return { inputs, attrs: g.chance(0.4) ? [A(g, 'output_datatype', g.choice([1, 11]))] : [] };
    },
  },
  {
    op: 'GridSample',
    versions: [16, 20, 22],
    gen: (g, v) => {
      const r = v >= 20 ? g.pick(2, 3) : 2;
      const n = g.dim(1, 2, 'N');
      const x = { type: 'float', dims: [n, g.dim(1, 3, 'C'), ...spatial(g, r, 2, 5)] };
      const grid = { type: 'float', dims: [n, ...Array.from({ length: r }, (_, i) => g.dim(1, 5, `o${i}`)), r] };
      return { inputs: [x, grid] };
    },
  },
];
