// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: the sequence and optional operators
// (ops_sequence.c). A sequence is not compared itself: each case builds
// one with SequenceConstruct (c.pre) of tensors x0.. (rank 1 to 3, dims
// shared but for the first, which differs between them by chance), and
// reads the node's sequence output (c.post) through SequenceAt (at a
// position in range), SequenceLength and ConcatFromSequence along axis 0
// into tensors; an optional through OptionalGetElement and
// OptionalHasElement.
'use strict';

const FLOAT = 1;
const TYPE_CODE = { float: 1, int64: 7 };

// k tensors (inputs x0..x{k-1}) of one type, dims [d0_i, rest...].
function tensors(g, k, type) {
  const rest = Array.from({ length: g.pick(0, 2) }, () => g.dim(1, 4));
  const same = g.chance(0.5) ? g.dim(1, 4, 'A') : null;
  return Array.from({ length: k }, () => ({ type, dims: [same || g.dim(1, 4), ...rest] }));
}

// The nodes reading sequence `s` into z0 (its element at position `at`,
// an input in range), z1 (its length), z2 (its elements concatenated along
// axis 0).
function readSequence(g, s, at) {
  const E = g.E;
  return {
    nodes: [E.node('SequenceAt', [s, at], ['z0'], [], 'p0'),
            E.node('SequenceLength', [s], ['z1'], [], 'p1'),
            E.node('ConcatFromSequence', [s], ['z2'], [E.attr('axis', 0)], 'p2')],
    outputs: ['z0', 'z1', 'z2'],
  };
}

// The case of a node taking the sequence of `xs` (made by SequenceConstruct
// as input 0) and then `more` inputs.
function onSequence(g, xs, more) {
  const names = xs.map((_, k) => `x${k}`);
  const ins = [...xs, ...more.filter((m) => m !== null)];
  const moreNames = [];
  let k = xs.length;
  for (const m of more) moreNames.push(m === null ? '' : `x${k++}`);
  return { inputs: ins, names: ['s', ...moreNames],
           pre: [g.E.node('SequenceConstruct', names, ['s'], [], 'c')] };
}

const scalar = (v) => ({ type: 'int64', dims: [], values: [v] });

// A node editing the sequence of `xs` (SequenceInsert, SequenceErase) with
// `more` inputs, its result read back at a position drawn from [lo, hi].
function edited(g, xs, more, lo, hi) {
  const c = onSequence(g, xs, more);
  c.inputs.push(scalar(g.pick(lo, hi)));
  c.post = readSequence(g, 'y0', `x${c.inputs.length - 1}`);
  return c;
}

module.exports = [
  {
    op: 'SequenceEmpty',
    versions: [11],
    // an empty sequence, then one tensor inserted: its dims, length 1
    gen: (g) => {
      const E = g.E;
      const type = g.chance(0.5) ? 'float' : 'int64';
      const attrs = type === 'float' && g.chance(0.5) ? [] : [E.attr('dtype', TYPE_CODE[type])];
      const x = tensors(g, 1, type)[0];
      const post = readSequence(g, 'e1', 'x1');
      post.nodes.unshift(E.node('SequenceInsert', ['y0', 'x0'], ['e1'], [], 'p3'));
      return { inputs: [x, scalar(0)], names: [], attrs, post };
    },
  },
  {
    op: 'SequenceConstruct',
    versions: [11],
    min_exact: 0.3, // z2's first dim: known when the tensors' first dims are all numbers
    gen: (g) => {
      const k = g.pick(1, 3);
      const xs = tensors(g, k, g.chance(0.5) ? 'float' : 'int64');
      return { inputs: [...xs, scalar(g.pick(-k, k - 1))], names: xs.map((_, i) => `x${i}`),
               post: readSequence(g, 'y0', `x${k}`) };
    },
  },
  {
    op: 'SequenceInsert',
    versions: [11],
    min_exact: 0.1, // z2's first dim: unknown when the tensor's first dim is another
    gen: (g) => {
      const k = g.pick(1, 3);
      const xs = tensors(g, k + 1, 'float');
      const pos = g.chance(0.5) ? scalar(g.pick(-k, k)) : null;
      return edited(g, xs.slice(0, k), [xs[k], pos], -k - 1, k);
    },
  },
  {
    op: 'SequenceErase',
    versions: [11],
    min_exact: 0.3,
    gen: (g) => {
      const k = g.pick(2, 4);
      const xs = tensors(g, k, 'float');
      const pos = g.chance(0.5) ? scalar(g.pick(-k, k - 1)) : null;
      return edited(g, xs, [pos], -(k - 1), k - 2);
    },
  },
  {
    op: 'SequenceAt',
    versions: [11],
    min_exact: 0.5,
    gen: (g) => {
      const k = g.pick(1, 3);
      return onSequence(g, tensors(g, k, 'float'), [scalar(g.pick(-k, k - 1))]);
    },
  },
  {
    op: 'ConcatFromSequence',
    versions: [11],
    min_exact: 0.3,
    gen: (g) => {
      const k = g.pick(1, 3);
      const xs = tensors(g, k, 'float');
      const stack = g.chance(0.5);
      const r = xs[0].dims.length + (stack ? 1 : 0);
      // along axis 0 for different first dims; stacked: all dims the same
      const same = stack ? xs.map(() => xs[0]) : xs;
      const axis = stack ? g.pick(-r, r - 1) : 0;
      const attrs = [g.E.attr('axis', axis)];
      if (stack || g.chance(0.5)) attrs.push(g.E.attr('new_axis', stack ? 1 : 0));
      const c = onSequence(g, same, []);
      c.attrs = attrs;
      return c;
    },
  },
  {
    op: 'SplitToSequence',
    versions: [11, 24],
    min_exact: 0.3,
    gen: (g) => {
      const E = g.E;
      const r = g.pick(1, 3);
      const dims = Array.from({ length: r }, () => g.dim(1, 6));
      const axis = g.pick(-r, r - 1);
      const attrs = g.chance(0.5) ? [E.attr('axis', axis)] : [];
      const ax = attrs.length ? axis : 0;
      const len = dims[ax < 0 ? ax + r : ax].v;
      const mode = g.pick(0, 2);
      let split = null;
      if (mode === 1) split = scalar(g.pick(1, len + 1));
      if (mode === 2) {
        const parts = [];
        for (let left = len; left > 0;) {
          const p = g.chance(0.5) ? Math.min(left, 2) : left;
          parts.push(p);
          left -= p;
        }
        split = { type: 'int64', dims: [parts.length], values: parts };
      }
      // keepdims=0 with a split too: the specification ignores it there,
      // onnxruntime drops the axis for a scalar split (of 1; another fails)
      // and keeps it for a 1-D split
      let keep = 1;
      if (g.chance(0.5)) {
        keep = g.pick(0, 1);
        attrs.push(E.attr('keepdims', keep));
      }
      const dropped = !keep && mode !== 2;
      const ins = [{ type: 'float', dims }];
      if (split !== null) ins.push(split);
      const at = scalar(0);
      ins.push(at);
      const post = readSequence(g, 'y0', `x${ins.length - 1}`);
      // the parts joined again along the axis (stacked when it was
      // removed)
      post.nodes[2] = E.node('ConcatFromSequence', ['y0'], ['z2'],
                             [E.attr('axis', ax), E.attr('new_axis', dropped ? 1 : 0)], 'p2');
      return { inputs: ins, names: split !== null ? ['x0', 'x1'] : ['x0'], attrs, post };
    },
  },
  {
    op: 'Optional',
    versions: [15, 18],
    gen: (g) => {
      const E = g.E;
      const x = tensors(g, 1, g.chance(0.5) ? 'float' : 'int64')[0];
      return {
        inputs: [x], attrs: [],
        post: { nodes: [E.node('OptionalGetElement', ['y0'], ['z0'], [], 'p0'),
                        E.node('OptionalHasElement', ['y0'], ['z1'], [], 'p1')],
                outputs: ['z0', 'z1'] },
      };
    },
  },
  {
    op: 'SequenceMap',
    versions: [17],
    // the body's output types only: z0's dims are never known
    min_exact: 0,
    gen: (g) => {
      const E = g.E;
      const k = g.pick(1, 3);
      const xs = tensors(g, k, 'float');
      const body = E.graph([E.node('Add', ['a', 'a'], ['b'], [], 'add')],
                           [E.valueInfo('a', FLOAT)], [E.valueInfo('b', FLOAT)]);
      const c = onSequence(g, xs, []);
      c.inputs.push(scalar(g.pick(-k, k - 1)));
      c.attrs = [E.attrGraph('body', body)];
      c.post = readSequence(g, 'y0', `x${k}`);
      return c;
    },
  },
];
