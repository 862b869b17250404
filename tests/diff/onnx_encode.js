// SPDX-License-Identifier: Apache-2.0
// A minimal protobuf writer for the ONNX messages the differential test
// needs (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto), with ONNX's field numbers. Integers are BigInt-safe.
'use strict';

function varint(v) {
  let x = BigInt.asUintN(64, BigInt(v));
  const out = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    out.push(b);
  } while (x !== 0n);
  return Buffer.from(out);
}
const key = (field, wire) => varint((field << 3) | wire);
const fInt = (field, v) => Buffer.concat([key(field, 0), varint(v)]);
const fBytes = (field, b) => {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b, 'utf8');
  return Buffer.concat([key(field, 2), varint(buf.length), buf]);
};

const ATTR_INT = 2;
const ATTR_TENSOR = 4;
const ATTR_INTS = 7;

// attr(name, value): an int (Number or BigInt) or an array of ints.
function attr(name, value) {
  if (Array.isArray(value)) {
    return Buffer.concat([fBytes(1, name), ...value.map((v) => fInt(8, v)), fInt(20, ATTR_INTS)]);
  }
  return Buffer.concat([fBytes(1, name), fInt(3, value), fInt(20, ATTR_INT)]);
}

// A TENSOR attribute: `t` is an encoded TensorProto (tensor() below).
function attrTensor(name, t) {
  return Buffer.concat([fBytes(1, name), fBytes(5, t), fInt(20, ATTR_TENSOR)]);
}

function node(op, inputs, outputs, attrs = [], name = 'n0') {
  return Buffer.concat([...inputs.map((i) => fBytes(1, i)), ...outputs.map((o) => fBytes(2, o)),
    fBytes(3, name), fBytes(4, op), ...attrs.map((a) => fBytes(5, a))]);
}

// A value_info with element type only (no shape: any rank).
function valueInfo(name, elemType) {
  const tensorType = fInt(1, elemType);
  return Buffer.concat([fBytes(1, name), fBytes(2, fBytes(1, tensorType))]);
}

function model(nodes, inputs, outputs, opset, irVersion = 8, initializers = []) {
  const graph = Buffer.concat([...nodes.map((n) => fBytes(1, n)), fBytes(2, 'g'),
    ...initializers.map((t) => fBytes(5, t)), ...inputs.map((i) => fBytes(11, i)),
    ...outputs.map((o) => fBytes(12, o))]);
  const opsetId = Buffer.concat([fBytes(1, ''), fInt(2, opset)]);
  return Buffer.concat([fInt(1, irVersion), fBytes(7, graph), fBytes(8, opsetId)]);
}

// TensorProto: raw_data for every type but strings (string_data).
function tensor(name, elemType, dims, raw, strings) {
  const parts = [...dims.map((d) => fInt(1, d)), fInt(2, elemType)];
  if (strings) for (const s of strings) parts.push(fBytes(6, s));
  parts.push(fBytes(8, name));
  if (!strings) parts.push(fBytes(9, raw));
  return Buffer.concat(parts);
}

const ATTR_FLOAT = 1;
const ATTR_STRING = 3;
const ATTR_FLOATS = 6;
const ATTR_STRINGS = 8;
const fFloat = (field, v) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v, 0);
  return Buffer.concat([key(field, 5), b]);
};

// FLOAT, FLOATS, STRING and STRINGS attributes.
function attrFloat(name, v) {
  return Buffer.concat([fBytes(1, name), fFloat(2, v), fInt(20, ATTR_FLOAT)]);
}
function attrFloats(name, vs) {
  return Buffer.concat([fBytes(1, name), ...vs.map((v) => fFloat(7, v)), fInt(20, ATTR_FLOATS)]);
}
function attrString(name, s) {
  return Buffer.concat([fBytes(1, name), fBytes(4, s), fInt(20, ATTR_STRING)]);
}
function attrStrings(name, ss) {
  return Buffer.concat([fBytes(1, name), ...ss.map((s) => fBytes(9, s)), fInt(20, ATTR_STRINGS)]);
}

// A value_info with element type and dims: each a number (dim_value), a
// string (dim_param) or null (neither).
function valueInfoShape(name, elemType, dims) {
  const shape = Buffer.concat(dims.map((d) => fBytes(1, d === null ? Buffer.alloc(0)
    : typeof d === 'string' ? fBytes(2, d) : fInt(1, d))));
  const tensorType = Buffer.concat([fInt(1, elemType), fBytes(2, shape)]);
  return Buffer.concat([fBytes(1, name), fBytes(2, fBytes(1, tensorType))]);
}

// A value_info with a name only (onnxruntime infers an output's type).
const valueInfoName = (name) => fBytes(1, name);

// A subgraph (GraphProto) and a GRAPH attribute holding it (Loop, Scan).
const ATTR_GRAPH = 5;
function graph(nodes, inputs, outputs, name = 'body') {
  return Buffer.concat([...nodes.map((n) => fBytes(1, n)), fBytes(2, name),
    ...inputs.map((i) => fBytes(11, i)), ...outputs.map((o) => fBytes(12, o))]);
}
function attrGraph(name, g) {
  return Buffer.concat([fBytes(1, name), fBytes(6, g), fInt(20, ATTR_GRAPH)]);
}

module.exports = { attr, attrTensor, attrFloat, attrFloats, attrString, attrStrings, attrGraph,
                   graph, node, valueInfo, valueInfoShape, valueInfoName, model, tensor };
