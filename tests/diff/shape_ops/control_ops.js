// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: Loop and Scan (ops_control.c), each with a
// small body whose inputs are declared with the case's numbers. Scan: a
// state [B, F] and one scan input with the sequence at a random axis, the
// body adding the element to the state and returning the sum as its scan
// output, stacked at a random axis; Scan-8 batches (scan8). One case in
// four the body instead returns a Constant of the state's element count in
// another shape as the state (its state input declared without a shape):
// onnxruntime then gives the Constant's shape, not the initial state's
// (stateBody). Loop: a known trip count (0 to 3) and
// no condition input, a carried [A, C] doubled each iteration and returned
// as the scan output. (If is covered by tests/analysis/cases and the CLI
// cases.)
'use strict';

const FLOAT = 1;

// Where axis `a` (maybe negative) of a rank-r tensor is.
const norm = (a, r) => (a < 0 ? a + r : a);

// A body whose state output is a Constant of `count` elements shaped `dims`
// (zeros), and whose scan output is its element x; its state input has no
// declared shape. null (the usual body) three cases in four.
function stateBody(g, xDims, dims) {
  if (!g.chance(0.25)) return null;
  const E = g.E;
  const count = dims.reduce((a, d) => a * d, 1);
  const k = E.tensor('k', FLOAT, dims, Buffer.alloc(4 * count));
  return E.graph(
    [E.node('Constant', [], ['s2'], [E.attrTensor('value', k)], 'k'),
     E.node('Identity', ['x'], ['y'], [], 'id')],
    [E.valueInfo('s', FLOAT), E.valueInfoShape('x', FLOAT, xDims)],
    [E.valueInfo('s2', FLOAT), E.valueInfo('y', FLOAT)]);
}

// Scan-8, batched: sequence_lens (absent, or each entry 1 to the sequence
// dim), a state [N, F] and a scan input [N, L, F]; the body sees one batch
// entry's [F] state and element.
function scan8(g) {
  const E = g.E;
  const n = g.dim(1, 3, 'N'), f = g.dim(1, 4, 'F'), len = g.dim(1, 4, 'L');
  const body = stateBody(g, [f.v], [1, f.v]) || E.graph(
    [E.node('Add', ['s', 'x'], ['s2'], [], 'add'), E.node('Identity', ['s2'], ['y'], [], 'id')],
    [E.valueInfoShape('s', FLOAT, [f.v]), E.valueInfoShape('x', FLOAT, [f.v])],
    [E.valueInfo('s2', FLOAT), E.valueInfo('y', FLOAT)]);
  const lens = g.chance(0.5)
    ? { type: 'int64', dims: [n], values: Array.from({ length: n.v }, () => g.pick(1, len.v)) }
    : null;
  return { inputs: [lens, { type: 'float', dims: [n, f] }, { type: 'float', dims: [n, len, f] }],
           attrs: [E.attr('num_scan_inputs', 1), E.attrGraph('body', body)], outputs: 2 };
}

module.exports = [
  {
    op: 'Scan',
    versions: [8, 9, 11, 16, 19, 21, 23, 24, 25],
    // the final state: the initial state's shape where the body passes
    // its state through, the Constant's where an iteration is certain (a
    // sequence of known length >= 1); a Constant body at a symbolic
    // length is unknown (no iteration may run)
    gen: (g, v) => {
      if (v === 8) return scan8(g);
      const E = g.E;
      const b = g.dim(1, 3, 'B'), f = g.dim(1, 4, 'F');
      // onnxruntime fails on a sequence of length 0 (its tensor slicer)
      const len = g.dim(1, 4, 'L');
      const neg = v >= 11;
      const inAxis = g.pick(neg ? -3 : 0, 2), outAxis = g.pick(neg ? -3 : 0, 2);
      const xs = [b, f];
      xs.splice(norm(inAxis, 3), 0, len);
      const swapped = g.chance(0.5) ? [f.v, b.v] : [b.v * f.v];
      const body = stateBody(g, [b.v, f.v], swapped) || E.graph(
        [E.node('Add', ['s', 'x'], ['s2'], [], 'add'), E.node('Identity', ['s2'], ['y'], [], 'id')],
        [E.valueInfoShape('s', FLOAT, [b.v, f.v]), E.valueInfoShape('x', FLOAT, [b.v, f.v])],
        [E.valueInfo('s2', FLOAT), E.valueInfo('y', FLOAT)]);
      const attrs = [E.attr('num_scan_inputs', 1), E.attrGraph('body', body)];
      if (inAxis !== 0 || g.chance(0.5)) attrs.push(E.attr('scan_input_axes', [inAxis]));
      if (outAxis !== 0 || g.chance(0.5)) attrs.push(E.attr('scan_output_axes', [outAxis]));
      return { inputs: [{ type: 'float', dims: [b, f] }, { type: 'float', dims: xs }], attrs,
               outputs: 2 };
    },
  },
  {
    op: 'Loop',
    versions: [11, 13, 16, 19, 21, 23, 24, 25],
    // element types only (a carried value may change shape between
    // iterations): never exact, but a type must be onnxruntime's
    min_exact: 0,
    gen: (g) => {
      const E = g.E;
      const a = g.dim(1, 3), c = g.dim(1, 4);
      const body = E.graph(
        [E.node('Identity', ['c'], ['c2'], [], 'id0'), E.node('Add', ['v', 'v'], ['v2'], [], 'add'),
         E.node('Identity', ['v2'], ['y'], [], 'id1')],
        [E.valueInfoShape('i', 7, []), E.valueInfoShape('c', 9, []),
         E.valueInfoShape('v', FLOAT, [a.v, c.v])],
        [E.valueInfo('c2', 9), E.valueInfo('v2', FLOAT), E.valueInfo('y', FLOAT)]);
      const trips = { type: 'int64', dims: [], values: [g.pick(0, 3)] };
      return { inputs: [trips, null, { type: 'float', dims: [a, c] }],
               attrs: [E.attrGraph('body', body)], outputs: 2 };
    },
  },
];
