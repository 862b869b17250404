// SPDX-License-Identifier: Apache-2.0
// ONNX element type -> onnxruntime-node tensor type and typed array, for
// the scripts that feed the corpus models to onnxruntime-node
// (record_truth.js, run_pair.js).
'use strict';
module.exports = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 9: ['bool', Uint8Array], 10: ['float16', Uint16Array],
  11: ['float64', Float64Array], 12: ['uint32', Uint32Array], 13: ['uint64', BigUint64Array],
};
