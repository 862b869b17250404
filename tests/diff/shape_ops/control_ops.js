// SPDX-License-Identifier: Apache-2.0
// shape_diff.js generators: Loop and Scan (ops_control.c), each with a
// small body whose inputs are declared with the case's numbers. Scan: a
// state [B, F] and one scan input with the sequence at a random axis, the
// body adding the element to the state and returning the sum as its scan
// output, stacked at a random axis; Scan-8 batches (scan8). Loop: a known trip count (0 to 3) and
// no condition input, a carried [A, C] doubled each iteration and returned
// as the scan output. (If is covered by tests/analysis/cases and the CLI
// cases.)
'use strict';

const FLOAT = 1;

// Where axis `a` (maybe negative) of a rank-r tensor is.
const norm = (a, r) => (a < 0 ? a + r : a);

// Scan-8, batched: sequence_lens (absent, or each entry 1 to the sequence
// dim), a state [N, F] and a scan input [N, L, F]; the body sees one batch
// entry's [F] state and element.
function scan8(g) {
  const E = g.E;
  const n = g.dim(1, 3, 'N'), f = g.dim(1, 4, 'F'), len = g.dim(1, 4, 'L');
  const body = E.graph(
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
    // the final state has the initial state's shape (states keep their
    // shape): every case exact (540 of 540 over every version, 2026-12-07),
    // so the default share of 90% holds
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
      const body = E.graph(
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
