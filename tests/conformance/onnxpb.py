# SPDX-License-Identifier: Apache-2.0
"""A minimal writer of ONNX protobuf messages, field by field, with ONNX's
field numbers. It needs no onnx package, so it can write every element type
and opset, including those newer than the installed onnx knows."""
import struct

# TensorProto.DataType: name -> (number, bits per element)
TYPES = {
    "float": (1, 32), "uint8": (2, 8), "int8": (3, 8), "uint16": (4, 16), "int16": (5, 16),
    "int32": (6, 32), "int64": (7, 64), "string": (8, 0), "bool": (9, 8), "float16": (10, 16),
    "double": (11, 64), "uint32": (12, 32), "uint64": (13, 64), "complex64": (14, 64),
    "complex128": (15, 128), "bfloat16": (16, 16), "float8e4m3fn": (17, 8),
    "float8e4m3fnuz": (18, 8), "float8e5m2": (19, 8), "float8e5m2fnuz": (20, 8),
    "uint4": (21, 4), "int4": (22, 4), "float4e2m1": (23, 4), "float8e8m0": (24, 8),
    "uint2": (25, 2), "int2": (26, 2),
}
TYPE_NAMES = {num: name for name, (num, _) in TYPES.items()}


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def f_int(field, v):
    return key(field, 0) + varint(v)


def f_bytes(field, b):
    return key(field, 2) + varint(len(b)) + b


def f_str(field, s):
    return f_bytes(field, s.encode())


def f_float(field, v):
    return key(field, 5) + struct.pack("<f", v)


def storage_bytes(type_name, n):
    bits = TYPES[type_name][1]
    return (n * bits + 7) // 8


def tensor(name, type_name, dims, raw=None, typed=None, strings=None, external=None,
           location=None):
    """A TensorProto. raw: raw_data bytes; typed: (field_number, payload
    bytes already encoded as a packed field); strings: list of bytes;
    external: list of (key, value) pairs."""
    b = b"".join(f_int(1, d) for d in dims)
    b += f_int(2, TYPES[type_name][0])
    if name is not None:
        b += f_str(8, name)
    if raw is not None:
        b += f_bytes(9, raw)
    if typed is not None:
        field, payload = typed
        b += f_bytes(field, payload)
    if strings is not None:
        b += b"".join(f_bytes(6, s) for s in strings)
    if external is not None:
        b += b"".join(f_bytes(13, f_str(1, k) + f_str(2, v)) for k, v in external)
        b += f_int(14, 1)
    return b


def value_info(name, type_name=None, dims=None):
    t = b""
    if type_name is not None:
        t += f_int(1, TYPES[type_name][0])
    if dims is not None:
        shape = b""
        for d in dims:
            shape += f_bytes(1, f_str(2, d) if isinstance(d, str) else f_int(1, d))
        t += f_bytes(2, shape)
    return f_str(1, name) + f_bytes(2, f_bytes(1, t))


def value_info_of(name, type_proto):
    """A ValueInfoProto whose TypeProto is given as bytes (seq_type, ...)."""
    return f_str(1, name) + f_bytes(2, type_proto)


def tensor_type(type_name):
    """A TypeProto of a tensor of type_name, shape unknown."""
    return f_bytes(1, f_int(1, TYPES[type_name][0]))


def seq_type(elem):
    """A TypeProto of a sequence of the TypeProto elem."""
    return f_bytes(4, f_bytes(1, elem))


def map_type(key_type_name, value):
    """A TypeProto of a map from key_type_name to the TypeProto value."""
    return f_bytes(5, f_int(1, TYPES[key_type_name][0]) + f_bytes(2, value))


def sparse_type(type_name, dims):
    """A TypeProto of a sparse tensor of type_name and dims."""
    shape = b"".join(f_bytes(1, f_int(1, d)) for d in dims)
    return f_bytes(8, f_int(1, TYPES[type_name][0]) + f_bytes(2, shape))


def optional_type(elem):
    """A TypeProto of an optional of the TypeProto elem."""
    return f_bytes(9, f_bytes(1, elem))


# AttributeProto types
A_FLOAT, A_INT, A_STRING, A_TENSOR, A_FLOATS, A_INTS, A_STRINGS = 1, 2, 3, 4, 6, 7, 8
A_GRAPH = 5


def attr(name, kind, value):
    b = f_str(1, name) + f_int(20, kind)
    if kind == A_INT:
        b += f_int(3, value)
    elif kind == A_INTS:
        b += b"".join(f_int(8, v) for v in value)
    elif kind == A_FLOAT:
        b += f_float(2, value)
    elif kind == A_FLOATS:
        b += b"".join(f_float(7, v) for v in value)
    elif kind == A_STRING:
        b += f_bytes(4, value)
    elif kind == A_STRINGS:
        b += b"".join(f_bytes(9, v) for v in value)
    elif kind == A_TENSOR:
        b += f_bytes(5, value)
    elif kind == A_GRAPH:
        b += f_bytes(6, value)
    return b


def node(op_type, inputs, outputs, attrs=(), name=None, domain=None):
    b = b"".join(f_str(1, i) for i in inputs) + b"".join(f_str(2, o) for o in outputs)
    if name is not None:
        b += f_str(3, name)
    b += f_str(4, op_type)
    b += b"".join(f_bytes(5, a) for a in attrs)
    if domain is not None:
        b += f_str(7, domain)
    return b


def graph(nodes, inputs, outputs, initializers=(), name="g", graph_extra=b""):
    """A GraphProto (also a subgraph, for an A_GRAPH attribute)."""
    g = b"".join(f_bytes(1, n) for n in nodes) + f_str(2, name) + graph_extra
    g += b"".join(f_bytes(5, t) for t in initializers)
    g += b"".join(f_bytes(11, v) for v in inputs)
    g += b"".join(f_bytes(12, v) for v in outputs)
    return g


def model(nodes, inputs, outputs, initializers=(), opset=13, ir_version=8, name="g",
          extra_opsets=(), graph_extra=b""):
    g = graph(nodes, inputs, outputs, initializers, name, graph_extra)
    m = f_int(1, ir_version)
    m += f_bytes(8, f_str(1, "") + f_int(2, opset))
    for dom, ver in extra_opsets:
        m += f_bytes(8, f_str(1, dom) + f_int(2, ver))
    return m + f_bytes(7, g)
