// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the elementwise family (ops_elementwise.c):
// unary operators and activations, the normalizations, comparisons and
// logic, broadcasting arithmetic, CastLike, Dropout, the quantizers.
'use strict';

// A random shape: rank lo..hi, dims 1..4 (0 sometimes), each a symbol in
// the symbolic modes.
const shape = (g, lo, hi) => Array.from({ length: g.pick(lo, hi) },
  () => g.dim(g.chance(0.05) ? 0 : 1, 4));

// k shapes that broadcast together: suffixes of one shape (its dims named
// by position, so that equal dims are one symbol), some dims 1.
function broadcastable(g, k, maxRank = 4) {
  const r = g.pick(0, maxRank);
  const full = Array.from({ length: r }, (_, i) => g.dim(1, 4, `b${i}`));
  return Array.from({ length: k }, () => {
    const ri = g.pick(0, r);
    return full.slice(r - ri).map((d) => (g.chance(0.25) ? 1 : d));
  });
}

const INT = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
// t, or sometimes (an integer type) an initializer of its dims with random
// elements (in range, when given), so that the integer rules' elements are
// compared too.
function maybeConst(g, t, range) {
  if (!INT.includes(t.type) || !g.chance(0.4)) return range ? { ...t, range } : t;
  const dims = t.dims.map((d) => (typeof d === 'object' ? d.v : d));
  const n = dims.reduce((a, b) => a * b, 1);
  return { type: t.type, dims, values: g.randomData(t.type, n, range) };
}

const scalarInit = (type, v) => ({ type, dims: [], values: [v] });
const vectorInit = (type, n, v) => ({ type, dims: [n], values: Array(n).fill(v) });
const value = (d) => (typeof d === 'object' ? d.v : d);

// Unary operators: x of `type` (a function of the version, or a list to
// draw from), optional extra attributes.
function unary(op, versions, types = ['float'], attrs = () => []) {
  return {
    op,
    versions,
    gen: (g, v) => ({ inputs: [maybeConst(g, { type: g.choice(types), dims: shape(g, 0, 4) })],
                      attrs: attrs(g, v) }),
  };
}

// Operators over an X of rank lo..hi whose output is X's dims, with an
// axis attribute drawn in range (Softmax and the like).
function withAxis(op, versions, def13) {
  return {
    op,
    versions,
    gen: (g, v) => {
      const dims = shape(g, 1, 4);
      const r = dims.length;
      const attrs = [];
      const defaultAxis = def13 && v >= 13 ? -1 : def13 ? 1 : -1;
      if (g.chance(0.5) || defaultAxis >= r) attrs.push(g.E.attr('axis', g.pick(v >= 11 || !def13 ? -r : 0, r - 1)));
      return { inputs: [{ type: 'float', dims }], attrs };
    },
  };
}

// Broadcasting operators: k inputs of the types `types(g)` gives.
function broadcasting(op, versions, types, k = () => 2, attrs = () => [], range) {
  return {
    op,
    versions,
    gen: (g, v) => {
      const n = k(g);
      const ts = types(g, v, n);
      return { inputs: broadcastable(g, n).map((dims, i) => maybeConst(g, { type: ts[i], dims }, range)),
               attrs: attrs(g, v) };
    },
  };
}

const same = (t) => (g, v, n) => Array(n).fill(typeof t === 'function' ? t(g) : t);

const UNARY = [
  ['Abs', [6, 13], ['float', 'int32', 'int64']], ['Acos', [7, 22]], ['Acosh', [9, 22]],
  ['Asin', [7, 22]], ['Asinh', [9, 22]], ['Atan', [7, 22]], ['Atanh', [9, 22]],
  ['Ceil', [6, 13]], ['Cos', [7, 22]], ['Cosh', [9, 22]], ['Elu', [6, 22]], ['Erf', [9, 13]],
  ['Exp', [6, 13]], ['Floor', [6, 13]], ['HardSigmoid', [6, 22]], ['HardSwish', [14, 22]],
  ['LeakyRelu', [6, 16]], ['Log', [6, 13]], ['Mish', [18, 22]], ['Neg', [6, 13], ['float', 'int32', 'int64']],
  ['Reciprocal', [6, 13]], ['Relu', [6, 13, 14]], ['Round', [11, 22]], ['Selu', [6, 22]],
  ['Sigmoid', [6, 13]], ['Sign', [9, 13], ['float', 'int32']], ['Sin', [7, 22]], ['Sinh', [9, 22]],
  ['Softplus', [1, 22]], ['Softsign', [1, 22]], ['Sqrt', [6, 13]], ['Tan', [7, 22]],
  ['Tanh', [6, 13]], ['ThresholdedRelu', [10, 22]], ['Celu', [12]], ['Shrink', [9]],
  ['BitwiseNot', [18], ['int32', 'uint8']], ['Gelu', [20]], ['IsNaN', [9, 13, 20]],
  ['IsInf', [10, 20]], ['Clip', [6]], ['Swish', [24]],
];

// X of [N, C, rest...] and per-channel initializers.
function channels(g, lo, hi) {
  const dims = shape(g, lo, hi).map((d) => (value(d) === 0 ? g.dim(1, 3) : d));
  return { dims, c: value(dims[1]) };
}

module.exports = [
  ...UNARY.map(([op, versions, types]) => unary(op, versions, types)),
  {
    op: 'Clip',
    versions: [11, 12, 13],
    gen: (g, v) => {
      // integer types from 12
      const t = v >= 12 ? g.choice(['float', 'int32', 'int64']) : 'float';
      const [lo, hi] = t === 'float' ? [-0.5, 0.5] : [g.pick(-5, 2), g.pick(-2, 5)];
      return { inputs: [maybeConst(g, { type: t, dims: shape(g, 0, 4) }),
                        g.chance(0.7) ? scalarInit(t, lo) : null,
                        g.chance(0.7) ? scalarInit(t, hi) : null] };
    },
  },
  withAxis('Softmax', [11, 13], true),
  withAxis('LogSoftmax', [11, 13], true),
  withAxis('Hardmax', [11, 13], true),
  withAxis('LpNormalization', [1, 22], false),
  {
    op: 'Trilu',
    versions: [14],
    gen: (g) => ({
      inputs: [{ type: g.choice(['float', 'int64']), dims: shape(g, 2, 4) },
               ...(g.chance(0.5) ? [scalarInit('int64', g.pick(-3, 3))] : [])],
      attrs: g.chance(0.5) ? [g.E.attr('upper', g.pick(0, 1))] : [],
    }),
  },
  {
    op: 'LRN',
    versions: [1, 13],
    gen: (g) => ({ inputs: [{ type: 'float', dims: shape(g, 4, 4) }],
                   attrs: [g.E.attr('size', g.choice([1, 3, 5]))] }),
  },
  {
    op: 'MeanVarianceNormalization',
    versions: [9, 13],
    gen: (g) => ({ inputs: [{ type: 'float', dims: shape(g, 4, 4) }] }),
  },
  {
    op: 'InstanceNormalization',
    versions: [6, 22],
    gen: (g) => {
      const { dims, c } = channels(g, 3, 4);
      return { inputs: [{ type: 'float', dims }, vectorInit('float', c, 1), vectorInit('float', c, 0)] };
    },
  },
  {
    op: 'GroupNormalization',
    versions: [18, 21],
    gen: (g, v) => {
      const groups = g.pick(1, 2);
      const dims = shape(g, 3, 4).map((d) => (value(d) === 0 ? 1 : d));
      dims[1] = groups * g.pick(1, 2);
      const n = v >= 21 ? dims[1] : groups;
      return { inputs: [{ type: 'float', dims }, vectorInit('float', n, 1), vectorInit('float', n, 0)],
               attrs: [g.E.attr('num_groups', groups)] };
    },
  },
  // integer types from 9
  broadcasting('Greater', [7, 9, 13], (g, v, n) => Array(n).fill(v >= 9 ? g.choice(['float', 'int32']) : 'float')),
  broadcasting('Less', [7, 9, 13], (g, v, n) => Array(n).fill(v >= 9 ? g.choice(['float', 'int64']) : 'float')),
  broadcasting('GreaterOrEqual', [12, 16], same('float')),
  broadcasting('LessOrEqual', [12, 16], same('int32')),
  broadcasting('And', [7], same('bool')),
  broadcasting('Or', [7], same('bool')),
  broadcasting('Xor', [7], same('bool')),
  broadcasting('Pow', [7, 12, 13, 15],
               (g, v) => ['float', v >= 12 ? g.choice(['float', 'int32', 'int64']) : 'float']),
  broadcasting('Mod', [10, 13], same((g) => g.choice(['int32', 'int64'])), () => 2,
               (g) => (g.chance(0.3) ? [g.E.attr('fmod', 1)] : []), [1, 9]),
  broadcasting('BitShift', [11], same((g) => g.choice(['uint8', 'uint32'])), () => 2,
               (g) => [g.E.attrString('direction', g.choice(['LEFT', 'RIGHT']))]),
  broadcasting('BitwiseAnd', [18], same('int32')),
  broadcasting('BitwiseOr', [18], same('int64')),
  broadcasting('BitwiseXor', [18], same('uint8')),
  broadcasting('Sum', [8, 13], same('float'), (g) => g.pick(1, 3)),
  broadcasting('Mean', [8, 13], same('float'), (g) => g.pick(1, 3)),
  {
    op: 'Sum',
    versions: [6],
    gen: (g) => {
      // equal dims (legacy Sum does not broadcast), one symbol each
      const dims = shape(g, 0, 3).map((d, i) => g.dim(d.v, d.v, `s${i}`));
      return { inputs: [{ type: 'float', dims }, { type: 'float', dims }] };
    },
  },
  {
    op: 'PRelu',
    versions: [7, 9, 16],
    gen: (g) => {
      const dims = shape(g, 1, 4).map((d, i) => g.dim(value(d) || 1, value(d) || 1, `p${i}`));
      const k = g.pick(0, dims.length);
      const slope = dims.slice(dims.length - k).map((d) => (g.chance(0.4) ? 1 : d));
      return { inputs: [{ type: 'float', dims }, { type: 'float', dims: slope }] };
    },
  },
  {
    op: 'CastLike',
    versions: [15, 19, 21, 23, 24, 25],
    gen: (g) => ({ inputs: [{ type: g.choice(['float', 'int32', 'int64']), dims: shape(g, 0, 4) },
                            { type: g.choice(['float', 'double', 'int64', 'int32', 'bool']), dims: [1] }] }),
  },
  {
    op: 'Dropout',
    versions: [7, 10, 12, 13, 22],
    gen: (g, v) => ({
      inputs: [{ type: 'float', dims: shape(g, 0, 4) },
               ...(v >= 12 && g.chance(0.5) ? [scalarInit('float', 0.5)] : [])],
      outputs: g.chance(0.6) ? 2 : 1,
    }),
  },
  {
    op: 'BatchNormalization',
    versions: [7, 9, 14, 15],
    gen: (g, v) => {
      const { dims, c } = channels(g, 2, 4);
      const train = v >= 14 && g.chance(0.3);
      // (onnxruntime implements no mean and var of another type than X's)
      return { inputs: [{ type: 'float', dims }, vectorInit('float', c, 1), vectorInit('float', c, 0),
                        vectorInit('float', c, 0), vectorInit('float', c, 1)],
               attrs: train ? [g.E.attr('training_mode', 1)] : [], outputs: train ? 3 : 1 };
    },
  },
  {
    op: 'LayerNormalization',
    versions: [17],
    gen: (g) => {
      const dims = shape(g, 1, 4).map((d) => (value(d) === 0 ? 1 : d));
      const r = dims.length;
      const axis = g.pick(-r, r - 1);
      const norm = dims.slice(axis < 0 ? axis + r : axis).map(value);
      const n = norm.reduce((a, b) => a * b, 1);
      const type = g.choice(['float', 'float', 'double']);
      return { inputs: [{ type, dims }, { type, dims: norm, values: Array(n).fill(1) }],
               attrs: [g.E.attr('axis', axis)], outputs: g.pick(1, 3) };
    },
  },
  {
    op: 'RMSNormalization',
    versions: [23],
    gen: (g) => {
      const dims = shape(g, 1, 4).map((d) => (value(d) === 0 ? 1 : d));
      const r = dims.length;
      const axis = g.pick(-r, r - 1);
      const norm = dims.slice(axis < 0 ? axis + r : axis).map(value);
      return { inputs: [{ type: 'float', dims },
                        { type: 'float', dims: norm, values: Array(norm.reduce((a, b) => a * b, 1)).fill(1) }],
               attrs: [g.E.attr('axis', axis)] };
    },
  },
  {
    op: 'QuantizeLinear',
    versions: [10, 13, 19, 21, 23, 24, 25],
    gen: (g, v) => {
      const zp = g.choice([null, 'int8', 'uint8']);
      const attrs = [];
      if (v >= 21 && zp === null && g.chance(0.5)) attrs.push(g.E.attr('output_dtype', g.choice([2, 3])));
      return { inputs: [{ type: 'float', dims: shape(g, 0, 4) }, scalarInit('float', 0.5),
                        ...(zp ? [scalarInit(zp, 0)] : [])], attrs };
    },
  },
  {
    op: 'DequantizeLinear',
    versions: [10, 13, 19, 21, 23, 24, 25],
    gen: (g, v) => {
      const t = g.choice(['int8', 'uint8']);
      return { inputs: [{ type: t, dims: shape(g, 0, 4) }, scalarInit('float', 0.5),
                        ...(g.chance(0.5) ? [scalarInit(t, 1)] : [])],
               attrs: v >= 23 && g.chance(0.3) ? [g.E.attr('output_dtype', 1)] : [] };
    },
  },
  {
    op: 'DynamicQuantizeLinear',
    versions: [11],
    gen: (g) => ({ inputs: [{ type: 'float', dims: shape(g, 0, 4) }], outputs: 3 }),
  },
];
