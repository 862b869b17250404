// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the operators of ops_other.c onnxruntime runs
// on the CPU: the random generators, EyeLike, CumSum and the losses. (The
// string operators are covered by tests/analysis/cases/other_ops.txt only:
// shape_diff.js makes no string data.)
'use strict';

const shape = (g, lo, hi) => Array.from({ length: g.pick(lo, hi) }, () => g.dim(1, 4));
const FLOAT_TYPES = { 1: 'float', 10: 'float16', 11: 'double' };

// A random output type for dtype: absent (the default or the input's), or
// one of the float types.
function dtype(g, attrs) {
  if (g.chance(0.5)) return;
  attrs.push(g.E.attr('dtype', g.chance(0.5) ? 1 : 11));
}

// The losses: input [N, C, d1..dk], target [N, d1..dk] with classes in
// range, reduction drawn from none, mean (default or set) and sum.
function loss(g) {
  const n = g.dim(1, 4, 'N');
  const c = g.pick(2, 4);
  const rest = shape(g, 0, 2);
  const attrs = [];
  const r = g.pick(0, 3);
  if (r > 0) attrs.push(g.E.attrString('reduction', ['none', 'mean', 'sum'][r - 1]));
  return { inputs: [{ type: 'float', dims: [n, c, ...rest] },
                    { type: 'int64', dims: [n, ...rest], range: [0, c - 1] }], attrs };
}

module.exports = [
  {
    op: 'RandomNormal',
    versions: [1],
    gen: (g) => {
      const attrs = [g.E.attr('shape', Array.from({ length: g.pick(0, 3) }, () => g.pick(1, 4)))];
      dtype(g, attrs);
      return { inputs: [], attrs };
    },
  },
  {
    op: 'RandomUniformLike',
    versions: [1],
    gen: (g) => {
      const attrs = [];
      dtype(g, attrs);
      return { inputs: [{ type: g.chance(0.5) ? 'float' : 'double', dims: shape(g, 0, 3) }], attrs };
    },
  },
  {
    op: 'RandomNormalLike',
    versions: [1],
    gen: (g) => ({ inputs: [{ type: 'float', dims: shape(g, 0, 3) }], attrs: [] }),
  },
  {
    op: 'Bernoulli',
    versions: [15],
    gen: (g) => {
      const attrs = g.chance(0.5) ? [] : [g.E.attr('dtype', g.chance(0.5) ? 1 : 11)];
      return { inputs: [{ type: 'float', dims: shape(g, 0, 3), range: [0, 1] }], attrs };
    },
  },
  {
    op: 'Multinomial',
    versions: [7],
    gen: (g) => {
      const attrs = [];
      if (g.chance(0.5)) attrs.push(g.E.attr('sample_size', g.pick(1, 4)));
      if (g.chance(0.5)) attrs.push(g.E.attr('dtype', g.chance(0.5) ? 6 : 7));
      return { inputs: [{ type: 'float', dims: [g.dim(1, 3), g.dim(2, 4)] }], attrs };
    },
  },
  {
    op: 'EyeLike',
    versions: [9],
    gen: (g) => {
      const attrs = g.chance(0.5) ? [] : [g.E.attr('dtype', g.chance(0.5) ? 7 : 1)];
      return { inputs: [{ type: 'float', dims: [g.dim(1, 4), g.dim(1, 4)] }], attrs };
    },
  },
  {
    op: 'CumSum',
    versions: [11, 14],
    gen: (g) => {
      const x = { type: g.chance(0.5) ? 'float' : 'int64', dims: shape(g, 1, 3) };
      const r = x.dims.length;
      const axis = g.pick(-r, r - 1);
      const attrs = [];
      if (g.chance(0.3)) attrs.push(g.E.attr('exclusive', 1));
      if (g.chance(0.3)) attrs.push(g.E.attr('reverse', 1));
      return { inputs: [x, { type: 'int64', dims: [], values: [axis] }], attrs };
    },
  },
  { op: 'NegativeLogLikelihoodLoss', versions: [12, 13], gen: loss },
  {
    op: 'SoftmaxCrossEntropyLoss',
    versions: [12, 13],
    gen: (g) => ({ ...loss(g), outputs: g.chance(0.5) ? 2 : 1 }),
  },
  {
    // a tensor input passes through (onnxruntime takes one from version 18)
    op: 'OptionalGetElement',
    versions: [18],
    gen: (g) => ({ inputs: [{ type: g.chance(0.5) ? 'float' : 'int64', dims: shape(g, 0, 3) }],
                   attrs: [] }),
  },
  {
    // 1-grams of a pool of k distinct integers, mapped to k distinct output
    // coordinates below k + 3 (the output's last dim is the largest + 1)
    op: 'TfIdfVectorizer',
    versions: [9],
    gen: (g) => {
      const k = g.pick(1, 4);
      const coords = [];
      while (coords.length < k) {
        const v = g.pick(0, k + 2);
        if (!coords.includes(v)) coords.push(v);
      }
      const x = { type: g.chance(0.5) ? 'int32' : 'int64', dims: shape(g, 1, 2), range: [0, k] };
      const attrs = [g.E.attrString('mode', 'TF'), g.E.attr('min_gram_length', 1),
                     g.E.attr('max_gram_length', 1), g.E.attr('max_skip_count', 0),
                     g.E.attr('ngram_counts', [0]), g.E.attr('ngram_indexes', coords),
                     g.E.attr('pool_int64s', Array.from({ length: k }, (_, i) => i))];
      return { inputs: [x], attrs };
    },
  },
];
