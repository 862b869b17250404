// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the kernels, Identity and the shape arithmetic
// operators on float inputs with symbolic dims (their integer elements are
// analysis_diff.js's).
'use strict';

const rank = (g, lo, hi) => Array.from({ length: g.pick(lo, hi) }, () => g.dim(0, 5));

module.exports = [
  {
    op: 'Shape',
    versions: [1, 13, 15, 19, 21],
    gen: (g, v) => {
      const x = { type: 'float', dims: rank(g, 0, 4) };
      const attrs = [];
      if (v >= 15 && g.chance(0.5)) attrs.push(g.E.attr('start', g.pick(-5, 5)));
      if (v >= 15 && g.chance(0.5)) attrs.push(g.E.attr('end', g.pick(-5, 5)));
      return { inputs: [x], attrs };
    },
  },
  {
    op: 'Size',
    versions: [1, 13, 19, 21],
    gen: (g) => ({ inputs: [{ type: 'float', dims: rank(g, 0, 4) }] }),
  },
  {
    op: 'Identity',
    versions: [1, 13, 14, 16, 19, 21],
    gen: (g) => ({ inputs: [{ type: g.choice(['float', 'int64', 'bool']), dims: rank(g, 0, 4) }] }),
  },
  {
    op: 'Reshape',
    versions: [5, 13, 14, 19, 21],
    gen: (g, v) => {
      // a target that keeps the element count: each dim copied by a 0,
      // written as its number, or the one -1. A dim the target writes as a
      // number is a number in the input too (a symbol there would leave
      // the -1 a quotient no analysis can simplify: N*M/5 for [N, M] to
      // [-1, 5]); copied dims and the -1's stay symbols in the symbolic
      // modes.
      const drawn = rank(g, 1, 4).map((d) => (d.v === 0 ? { v: 1 } : d));
      const target = [];
      const minus = g.pick(-1, drawn.length - 1);
      const dims = drawn.map((d, k) => {
        if (k === minus) { target.push(-1); return d; }
        if (g.chance(0.3)) { target.push(0); return d; }
        target.push(d.v);
        return d.v;
      });
      const x = { type: 'float', dims };
      return { inputs: [x, { type: 'int64', dims: [target.length], values: target }],
               attrs: v >= 14 && g.chance(0.2) ? [g.E.attr('allowzero', 0)] : [] };
    },
  },
  {
    op: 'Concat',
    versions: [4, 11, 13],
    gen: (g, v) => {
      const r = g.pick(1, 3);
      const shared = Array.from({ length: r }, (_, k) => g.dim(1, 4, `c${k}`));
      const axis = g.pick(0, r - 1);
      const n = g.pick(1, 3);
      const inputs = Array.from({ length: n }, (_, i) => ({
        type: 'float',
        dims: shared.map((d, k) => (k === axis ? g.dim(0, 4, `a${i}`) : d)),
      }));
      // a negative axis counts from the back from version 11 (before, the
      // spec does not say, and the analysis leaves the output unknown)
      return { inputs, attrs: [g.E.attr('axis', v >= 11 && g.chance(0.5) ? axis - r : axis)] };
    },
  },
];
