// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the indexing operators (ops_index.c), with
// indices drawn in range; data-dependent dims (NonZero, Compress, Unique)
// are fresh symbols, exact only where the data is an initializer.
'use strict';

const dims = (g, lo, hi, min = 1) => Array.from({ length: g.pick(lo, hi) }, () => g.dim(min, 4));
const ints = (vals, type = 'int64') => ({ type, dims: [vals.length], values: vals });
// dims no larger than `of` (a number each)
const within = (g, of) => of.map((d) => g.pick(1, d.v));
const minOf = (ds) => Math.min(...ds.map((d) => d.v));

// ScatterElements and Scatter: indices and updates of one shape within
// the data's, indices in range along axis.
function scatterElements(g, v) {
  const r = g.pick(1, 3);
  const data = { type: 'float', dims: dims(g, r, r) };
  const axis = g.pick(0, r - 1);
  const shape = within(g, data.dims);
  const idx = { type: 'int64', dims: shape, range: [0, data.dims[axis].v - 1] };
  const attrs = [g.E.attr('axis', v >= 11 && g.chance(0.3) ? axis - r : axis)];
  return { inputs: [data, idx, { type: 'float', dims: shape }], attrs };
}

module.exports = [
  {
    op: 'GatherElements',
    versions: [11, 13],
    gen: (g) => {
      const r = g.pick(1, 3);
      const data = { type: 'float', dims: dims(g, r, r) };
      const axis = g.pick(0, r - 1);
      const shape = within(g, data.dims);
      shape[axis] = g.pick(1, 4);
      return { inputs: [data, { type: 'int64', dims: shape, range: [0, data.dims[axis].v - 1] }],
               attrs: [g.E.attr('axis', axis)] };
    },
  },
  {
    op: 'GatherND',
    versions: [11, 12, 13],
    gen: (g, v) => {
      const r = g.pick(1, 4);
      const data = { type: 'float', dims: dims(g, r, r) };
      const b = v >= 12 ? g.pick(0, r - 1) : 0;
      const m = g.pick(1, r - b);
      const lead = [...data.dims.slice(0, b), ...dims(g, 0, 2)];
      const idx = { type: 'int64', dims: [...lead, m],
                    range: [0, minOf(data.dims.slice(b, b + m)) - 1] };
      return { inputs: [data, idx], attrs: b > 0 ? [g.E.attr('batch_dims', b)] : [] };
    },
  },
  { op: 'Scatter', versions: [9], gen: scatterElements },
  { op: 'ScatterElements', versions: [11, 13, 16, 18], gen: scatterElements },
  {
    op: 'ScatterND',
    versions: [11, 13, 16, 18],
    gen: (g) => {
      const r = g.pick(1, 3);
      const data = { type: 'float', dims: dims(g, r, r) };
      const m = g.pick(1, r);
      // one index tuple per row: distinct rows are not needed for shapes
      const lead = dims(g, 0, 1).map(() => 1);
      const idx = { type: 'int64', dims: [...lead, m], range: [0, minOf(data.dims.slice(0, m)) - 1] };
      return { inputs: [data, idx, { type: 'float', dims: [...lead, ...data.dims.slice(m)] }] };
    },
  },
  {
    op: 'OneHot',
    versions: [9, 11],
    gen: (g, v) => {
      const depth = g.pick(1, 5);
      const idx = { type: 'int64', dims: dims(g, 0, 3), range: [0, depth - 1] };
      const r = idx.dims.length;
      const attrs = g.chance(0.5) ? [g.E.attr('axis', g.pick(v >= 11 ? -r - 1 : -1, r))] : [];
      return { inputs: [idx, { type: 'int64', dims: [], values: [depth] },
                        { type: 'float', dims: [2], values: [0, 1] }], attrs };
    },
  },
  {
    op: 'TopK',
    versions: [1, 10, 11],
    gen: (g, v) => {
      const r = g.pick(1, 3);
      const x = { type: 'float', dims: dims(g, r, r) };
      const axis = g.pick(0, r - 1);
      const k = g.pick(0, x.dims[axis].v);
      const attrs = [g.E.attr('axis', g.chance(0.3) ? axis - r : axis)];
      if (v < 10) return { inputs: [x], attrs: [...attrs, g.E.attr('k', k)], outputs: 2 };
      return { inputs: [x, ints([k])], attrs, outputs: 2 };
    },
  },
  {
    op: 'DepthToSpace',
    versions: [1, 11, 13],
    gen: (g) => {
      const b = g.pick(1, 3);
      const ch = b * b * g.pick(1, 2); // a multiple of b*b
      const x = { type: 'float', dims: [g.dim(1, 2), g.dim(ch, ch), g.dim(1, 3), g.dim(1, 3)] };
      return { inputs: [x], attrs: [g.E.attr('blocksize', b)] };
    },
  },
  {
    op: 'SpaceToDepth',
    versions: [1, 13],
    gen: (g) => {
      const b = g.pick(1, 3);
      const h = b * g.pick(1, 2), w = b * g.pick(1, 2);
      const x = { type: 'float', dims: [g.dim(1, 2), g.dim(1, 3), g.dim(h, h), g.dim(w, w)] };
      return { inputs: [x], attrs: [g.E.attr('blocksize', b)] };
    },
  },
  {
    op: 'NonZero',
    versions: [9, 13],
    // the count of a graph input's nonzero elements is a fresh symbol
    // (data-dependent, not exact); an initializer's is its number
    min_exact: 0.3,
    gen: (g) => {
      const shape = dims(g, 1, 2).map((d) => d.v);
      const n = shape.reduce((a, d) => a * d, 1);
      if (g.chance(0.5)) return { inputs: [{ type: 'float', dims: dims(g, 0, 3) }] };
      return { inputs: [{ type: 'int64', dims: shape, values: g.randomData('int64', n, [0, 1]) }] };
    },
  },
  {
    op: 'Compress',
    versions: [9, 11],
    // a known condition beside a symbolic dim counts as a fresh symbol: a
    // condition longer than the dim is counted only as far as the dim
    // goes, so its count depends on the dim's value (a third of the cases
    // are symbolic)
    min_exact: 0.6,
    gen: (g, v) => {
      const r = g.pick(1, 3);
      const x = { type: 'float', dims: dims(g, r, r) };
      const axis = g.pick(0, r - 1);
      if (g.chance(0.3)) {
        const n = x.dims.reduce((a, d) => a * d.v, 1);
        x.dims = x.dims.map((d) => d.v);
        return { inputs: [x, ints(g.randomData('bool', g.pick(1, n), [0, 1]), 'bool')] };
      }
      const len = g.pick(1, x.dims[axis].v);
      return { inputs: [x, ints(g.randomData('bool', len, [0, 1]), 'bool')],
               attrs: [g.E.attr('axis', v >= 11 && g.chance(0.3) ? axis - r : axis)] };
    },
  },
  {
    op: 'Unique',
    versions: [11],
    // every output but inverse_indices has the data-dependent count U: a
    // fresh symbol, never exact
    min_exact: 0,
    gen: (g) => {
      const r = g.pick(1, 3);
      const x = { type: 'float', dims: dims(g, r, r) };
      return { inputs: [x], attrs: g.chance(0.5) ? [g.E.attr('axis', g.pick(-r, r - 1))] : [],
               outputs: 4 };
    },
  },
];
