#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes onnxshape's own conformance cases in the ONNX backend test layout
(model.onnx, test_data_set_0/input_*.pb, output_*.pb): every version of
Shape, Reshape and Size with every element type it allows, raw_data and
typed-field encodings, zero-size and scalar tensors, external data, and
multi-node graphs through Constant and Identity. Expected outputs are
computed here, independently of onnxshape.

Usage: gen_cases.py OUTDIR   (prints the number of cases written)
"""
import os
import random
import shutil
import struct
import sys

from onnxpb import (A_FLOAT, A_FLOATS, A_INT, A_INTS, A_STRING, A_STRINGS, A_TENSOR, TYPES,
                    attr, f_bytes, f_int, model, node, storage_bytes, tensor, value_info, varint)

VERSIONS = {
    "Shape": [1, 13, 15, 19, 21, 23, 24, 25],
    "Reshape": [1, 5, 13, 14, 19, 21, 23, 24, 25],
    "Size": [1, 13, 19, 21, 23, 24, 25],
}
TOP_TYPE = {1: 15, 5: 15, 13: 16, 14: 16, 15: 16, 19: 20, 21: 22, 23: 23, 24: 24, 25: 26}
TYPE_BY_NUM = {num: name for name, (num, _) in TYPES.items()}


def allowed(op, version):
    if op == "Reshape" and version == 1:
        return ["float16", "float", "double"]
    return [TYPE_BY_NUM[t] for t in range(1, TOP_TYPE[version] + 1)]


# ---- values ---------------------------------------------------------------

def count(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def random_payload(rng, type_name, n):
    """Raw storage for n elements, or a list of bytes for strings."""
    if type_name == "string":
        return [("s%d-" % i).encode() + bytes(rng.randrange(32, 127) for _ in range(i % 4))
                for i in range(n)]
    if type_name == "bool":
        return bytes(rng.randrange(2) for _ in range(n))
    nbytes = storage_bytes(type_name, n)
    raw = bytearray(rng.randrange(256) for _ in range(nbytes))
    bits = TYPES[type_name][1]
    used = n * bits - (nbytes - 1) * 8 if nbytes else 8
    if bits < 8 and used < 8:
        raw[-1] &= (1 << used) - 1  # padding bits are zero
    return bytes(raw)


def typed_field(type_name, raw, n):
    """The same values as a typed field: (field number, packed payload)."""
    bits = TYPES[type_name][1]
    if type_name in ("float", "complex64"):
        return (4, raw)  # packed fixed32: the raw bytes themselves
    if type_name in ("double", "complex128"):
        return (10, raw)
    if type_name == "int64":
        vals = struct.unpack("<%dq" % n, raw)
        return (7, b"".join(varint(v) for v in vals))
    if type_name in ("uint32", "uint64"):
        fmt = "<%dI" % n if type_name == "uint32" else "<%dQ" % n
        return (11, b"".join(varint(v) for v in struct.unpack(fmt, raw)))
    if bits < 8:  # one packed byte per int32_data entry
        return (5, b"".join(varint(b) for b in raw))
    fmt = {"int32": "i", "int16": "h", "int8": "b", "uint16": "H", "uint8": "B", "bool": "B",
           "float16": "H", "bfloat16": "H"}.get(type_name, "B")
    vals = struct.unpack("<%d%s" % (n, fmt), raw)
    return (5, b"".join(varint(v) for v in vals))


def data_tensor(name, type_name, dims, payload, encoding):
    n = count(dims)
    if type_name == "string":
        return tensor(name, "string", dims, strings=payload)
    if encoding == "typed" and n > 0:
        return tensor(name, type_name, dims, typed=typed_field(type_name, payload, n))
    return tensor(name, type_name, dims, raw=payload)


def int64_tensor(name, dims, values, encoding="raw"):
    if encoding == "typed":
        return tensor(name, "int64", dims, typed=(7, b"".join(varint(v) for v in values)))
    return tensor(name, "int64", dims, raw=struct.pack("<%dq" % len(values), *values))


# ---- the reference rules --------------------------------------------------

def ref_reshape(dims, target, allowzero=0):
    out = []
    minus = None
    for i, v in enumerate(target):
        assert v >= -1
        if v == -1:
            assert minus is None
            minus = i
            out.append(-1)
        elif v == 0 and not allowzero:
            out.append(dims[i])
        else:
            out.append(v)
    n = count(dims)
    if minus is not None:
        p = count([d for i, d in enumerate(out) if i != minus])
        assert p != 0 and n % p == 0
        out[minus] = n // p
    assert count(out) == n
    return out


def ref_shape(dims, start=None, end=None):
    r = len(dims)

    def clamp(a):
        a = a + r if a < 0 else a
        return min(max(a, 0), r)
    s = clamp(0 if start is None else start)
    e = clamp(r if end is None else end)
    return dims[s:e] if s < e else []


# ---- writing cases --------------------------------------------------------

class Writer:
    def __init__(self, out):
        self.out = out
        self.count = 0

    def case(self, name, model_bytes, inputs, outputs, files=()):
        d = os.path.join(self.out, name)
        shutil.rmtree(d, ignore_errors=True)
        ds = os.path.join(d, "test_data_set_0")
        os.makedirs(ds)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(model_bytes)
        for kind, items in (("input", inputs), ("output", outputs)):
            for j, t in enumerate(items):
                with open(os.path.join(ds, "%s_%d.pb" % (kind, j)), "wb") as f:
                    f.write(t)
        for rel, content in files:
            with open(os.path.join(d, rel), "wb") as f:
                f.write(content)
        self.count += 1


def expected_data(name, type_name, dims, payload):
    if type_name == "string":
        return tensor(name, "string", dims, strings=payload)
    return tensor(name, type_name, dims, raw=payload)


RESHAPE_TARGETS = {1: [5, -1], 5: [5, 3], 13: [-1], 14: [1, 0, -1], 19: [5, -1], 21: [15],
                   23: [3, 1, 5], 24: [-1, 5], 25: [1, 15, 1]}
SHAPE_ATTRS = {15: (None, None), 19: (-2, None), 21: (1, 2), 23: (-100, 100), 24: (2, 1),
               25: (None, -1)}


def gen_per_version(w, rng):
    # covers: OPSET-VERSIONS TYPE-SET STORAGE-RAW STORAGE-TYPED-FIELDS STORAGE-PACKED
    # covers: STORAGE-STRINGS RESHAPE-DATA-UNCHANGED SHAPE-OUTPUT SIZE-OUTPUT
    dims = [3, 5]
    for op, versions in VERSIONS.items():
        for v in versions:
            for type_name in allowed(op, v):
                encodings = ["raw"]
                # Typed fields too: at the oldest and newest version, and at the
                # version that adds the type.
                i = versions.index(v)
                new_here = i > 0 and TYPES[type_name][0] > TOP_TYPE[versions[i - 1]]
                if type_name != "string" and (i == 0 or v == versions[-1] or new_here):
                    encodings.append("typed")
                for enc in encodings:
                    payload = random_payload(rng, type_name, count(dims))
                    x = data_tensor("x", type_name, dims, payload, enc)
                    name = "gen_%s_v%d_%s_%s" % (op.lower(), v, type_name, enc)
                    xin = value_info("x", type_name, dims)
                    if op == "Reshape":
                        target = RESHAPE_TARGETS[v]
                        out_dims = ref_reshape(dims, target)
                        y = expected_data("y", type_name, out_dims, payload)
                        if v == 1:
                            nd = node("Reshape", ["x"], ["y"], [attr("shape", A_INTS, target)])
                            m = model([nd], [xin], [value_info("y", type_name, out_dims)],
                                      opset=1, ir_version=3)
                            w.case(name, m, [x], [y])
                        else:
                            nd = node("Reshape", ["x", "s"], ["y"])
                            m = model([nd], [xin, value_info("s", "int64", [len(target)])],
                                      [value_info("y", type_name, out_dims)], opset=v)
                            w.case(name, m, [x, int64_tensor("s", [len(target)], target, enc)],
                                   [y])
                    elif op == "Shape":
                        start, end = SHAPE_ATTRS.get(v, (None, None))
                        attrs = []
                        if start is not None:
                            attrs.append(attr("start", A_INT, start))
                        if end is not None:
                            attrs.append(attr("end", A_INT, end))
                        sel = ref_shape(dims, start, end)
                        nd = node("Shape", ["x"], ["y"], attrs)
                        m = model([nd], [xin], [value_info("y", "int64", [len(sel)])], opset=v)
                        w.case(name, m, [x], [int64_tensor("y", [len(sel)], sel)])
                    else:
                        nd = node("Size", ["x"], ["y"])
                        m = model([nd], [xin], [value_info("y", "int64", [])], opset=v)
                        w.case(name, m, [x], [int64_tensor("y", [], [count(dims)])])


def gen_edge_cases(w, rng):
    # covers: STORAGE-EMPTY-RAW SIZE-ZERO-FIRST RESHAPE-ZERO-LITERAL SHAPE-SCALAR SIZE-OUTPUT
    # covers: RESHAPE-SCALAR RESHAPE-V1-ATTRIBUTE SHAPE-CLAMP
    # Zero-size tensors, including huge other dims (an empty payload).
    big = 1 << 32
    for name, dims, target, az, want in (
            ("gen_reshape_zero_size_infer", [0, 3, 4], [-1, 0], 0, [0, 3]),
            ("gen_reshape_zero_size_allowzero", [0, 3, 4], [3, 4, 0], 1, [3, 4, 0]),
            ("gen_reshape_zero_size_huge_dims", [big, big, 0], [0, 0, -1], 0, [big, big, 0]),
            ("gen_reshape_zero_size_huge_target", [0, 7], [big, 0, big], 1, [big, 0, big])):
        x = tensor("x", "float", dims, raw=b"")
        attrs = [attr("allowzero", A_INT, az)] if az else []
        nd = node("Reshape", ["x", "s"], ["y"], attrs)
        m = model([nd], [value_info("x", "float", dims), value_info("s", "int64", [len(target)])],
                  [value_info("y", "float", want)], opset=14)
        w.case(name, m, [x, int64_tensor("s", [len(target)], target)],
               [tensor("y", "float", want, raw=b"")])
    x = tensor("x", "uint8", [big, big, 0], raw=b"")
    m = model([node("Size", ["x"], ["n"]), node("Shape", ["x"], ["s"])],
              [value_info("x", "uint8", [big, big, 0])],
              [value_info("n", "int64", []), value_info("s", "int64", [3])], opset=21)
    w.case("gen_size_shape_zero_size_huge_dims", m, [x],
           [int64_tensor("n", [], [0]), int64_tensor("s", [3], [big, big, 0])])
    # A zero-size tensor whose typed field is simply absent.
    x = tensor("x", "int32", [2, 0])
    m = model([node("Reshape", ["x", "s"], ["y"])],
              [value_info("x", "int32", [2, 0]), value_info("s", "int64", [1])],
              [value_info("y", "int32", [0])], opset=13)
    w.case("gen_reshape_zero_size_no_payload", m, [x, int64_tensor("s", [1], [-1])],
           [tensor("y", "int32", [0], raw=b"")])
    # Scalars.
    payload = struct.pack("<f", 2.5)
    for name, dims, target, want in (("gen_reshape_scalar_to_vector", [], [-1], [1]),
                                     ("gen_reshape_to_scalar", [1, 1], [], [])):
        x = tensor("x", "float", dims, raw=payload)
        m = model([node("Reshape", ["x", "s"], ["y"])],
                  [value_info("x", "float", dims), value_info("s", "int64", [len(target)])],
                  [value_info("y", "float", want)], opset=13)
        w.case(name, m, [x, int64_tensor("s", [len(target)], target)],
               [tensor("y", "float", want, raw=payload)])
    x = tensor("x", "double", [], raw=struct.pack("<d", -1.0))
    m = model([node("Shape", ["x"], ["s"]), node("Size", ["x"], ["n"])],
              [value_info("x", "double", [])],
              [value_info("s", "int64", [0]), value_info("n", "int64", [])], opset=15)
    w.case("gen_shape_size_scalar", m, [x],
           [int64_tensor("s", [0], []), int64_tensor("n", [], [1])])
    # Reshape-1 at the opsets that resolve to it.
    for opset in (1, 4):
        payload = random_payload(rng, "double", 6)
        x = tensor("x", "double", [2, 3], raw=payload)
        target = [3, -1] if opset == 1 else [0, 3]
        nd = node("Reshape", ["x"], ["y"], [attr("shape", A_INTS, target),
                                            attr("consumed_inputs", A_INTS, [0])])
        m = model([nd], [value_info("x", "double", [2, 3])],
                  [value_info("y", "double", ref_reshape([2, 3], target))], opset=opset,
                  ir_version=3)
        w.case("gen_reshape1_opset%d" % opset, m, [x],
               [tensor("y", "double", ref_reshape([2, 3], target), raw=payload)])
    # Shape attributes at extremes.
    x = tensor("x", "int8", [2, 3, 4], raw=bytes(24))
    for name, start, end, want in (("int64_min_max", -(1 << 63), (1 << 63) - 1, [2, 3, 4]),
                                   ("end_below_rank", 0, -5, []),
                                   ("start_past_rank", 4, None, [])):
        attrs = [attr("start", A_INT, start)] + ([attr("end", A_INT, end)] if end is not None else [])
        m = model([node("Shape", ["x"], ["s"], attrs)], [value_info("x", "int8", [2, 3, 4])],
                  [value_info("s", "int64", [len(want)])], opset=25)
        w.case("gen_shape_" + name, m, [x], [int64_tensor("s", [len(want)], want)])


def gen_graphs(w, rng):
    f24 = random_payload(rng, "float", 24)
    x = tensor("x", "float", [2, 3, 4], raw=f24)
    xin = value_info("x", "float", [2, 3, 4])
    # Constant value_ints -> Reshape.
    m = model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, [4, -1])]),
               node("Reshape", ["x", "s"], ["y"])], [xin], [value_info("y", "float", [4, 6])],
              opset=13)
    w.case("gen_graph_constant_ints_reshape", m, [x], [tensor("y", "float", [4, 6], raw=f24)])
    # Constant value tensor (typed int64_data) -> Reshape at opset 9 (Constant-9, Reshape-5).
    m = model([node("Constant", [], ["s"], [attr("value", A_TENSOR,
                                                 int64_tensor("", [2], [0, 12], "typed"))]),
               node("Reshape", ["x", "s"], ["y"])], [xin], [value_info("y", "float", [2, 12])],
              opset=9)
    w.case("gen_graph_constant_tensor_reshape", m, [x], [tensor("y", "float", [2, 12], raw=f24)])
    # Shape of one tensor as the target of another.
    z = tensor("z", "uint8", [4, 6], raw=bytes(24))
    m = model([node("Shape", ["z"], ["s"]), node("Reshape", ["x", "s"], ["y"])],
              [xin, value_info("z", "uint8", ["N", 6])], [value_info("y", "float", ["N", 6])],
              opset=15)
    w.case("gen_graph_shape_to_reshape", m, [x, z], [tensor("y", "float", [4, 6], raw=f24)])
    # Size -> Reshape to 1-D -> target of a Reshape; also Shape with start/end.
    m = model([node("Size", ["x"], ["n"]),
               node("Constant", [], ["one"], [attr("value_ints", A_INTS, [1])]),
               node("Reshape", ["n", "one"], ["n1"]),
               node("Reshape", ["x", "n1"], ["flat"]),
               node("Shape", ["x"], ["tail"], [attr("start", A_INT, -2)])],
              [xin], [value_info("flat", "float", [24]), value_info("n1", "int64", [1]),
                      value_info("tail", "int64", [2])], opset=19)
    w.case("gen_graph_size_chain", m, [x],
           [tensor("flat", "float", [24], raw=f24), int64_tensor("n1", [1], [24]),
            int64_tensor("tail", [2], [3, 4])])
    # Identity around a Reshape of int4 data (odd count) at opset 25.
    p = random_payload(rng, "int4", 7)
    xi = tensor("x", "int4", [7], raw=p)
    m = model([node("Identity", ["x"], ["a"]), node("Reshape", ["a", "s"], ["b"]),
               node("Identity", ["b"], ["y"], name="last")],
              [value_info("x", "int4", [7]), value_info("s", "int64", [2])],
              [value_info("y", "int4", [7, 1])], opset=25)
    w.case("gen_graph_identity_int4", m, [xi, int64_tensor("s", [2], [7, 1])],
           [tensor("y", "int4", [7, 1], raw=p)])
    # An initializer target (typed) and an IR-3 style input with a default.
    m = model([node("Reshape", ["x", "s"], ["y"])], [xin, value_info("s", "int64", [3])],
              [value_info("y", "float", [3, 2, 4])], initializers=[int64_tensor("s", [3], [3, 2, 4], "typed")],
              opset=14, ir_version=3)
    w.case("gen_graph_input_with_default", m, [x], [tensor("y", "float", [3, 2, 4], raw=f24)])
    # Constant attribute forms to outputs.
    m = model([node("Constant", [], ["f"], [attr("value_float", A_FLOAT, 1.5)]),
               node("Constant", [], ["fs"], [attr("value_floats", A_FLOATS, [0.5, -2.0])]),
               node("Constant", [], ["i"], [attr("value_int", A_INT, -7)]),
               node("Constant", [], ["s"], [attr("value_string", A_STRING, b"abc")]),
               node("Constant", [], ["ss"], [attr("value_strings", A_STRINGS, [b"x", b""])]),
               node("Identity", ["ss"], ["ss2"])],
              [], [value_info("f", "float", []), value_info("fs", "float", [2]),
                   value_info("i", "int64", []), value_info("s", "string", []),
                   value_info("ss2", "string", [2])], opset=13)
    w.case("gen_graph_constant_forms", m, [],
           [tensor("f", "float", [], raw=struct.pack("<f", 1.5)),
            tensor("fs", "float", [2], raw=struct.pack("<2f", 0.5, -2.0)),
            int64_tensor("i", [], [-7]), tensor("s", "string", [], strings=[b"abc"]),
            tensor("ss2", "string", [2], strings=[b"x", b""])])
    # Strings through Reshape.
    strs = random_payload(rng, "string", 6)
    m = model([node("Reshape", ["x", "s"], ["y"])],
              [value_info("x", "string", [6]), value_info("s", "int64", [2])],
              [value_info("y", "string", [3, 2])], opset=21)
    w.case("gen_graph_reshape_strings", m,
           [tensor("x", "string", [6], strings=strs), int64_tensor("s", [2], [-1, 2])],
           [tensor("y", "string", [3, 2], strings=strs)])


def gen_unknown_fields(w, rng):
    # Fields onnxshape does not know (from newer ONNX versions or other
    # tools) are skipped at every level: model, graph, node, attribute, tensor,
    # value info.
    unknown = f_int(99, 7) + f_bytes(100, b"future") + f_int(1000, 1)
    payload = random_payload(rng, "float", 6)
    x = tensor("x", "float", [2, 3], raw=payload) + unknown
    s = tensor("s", "int64", [1], raw=struct.pack("<q", -1)) + unknown
    nd = node("Reshape", ["x", "s"], ["y"], [attr("allowzero", A_INT, 0) + unknown],
              name="r") + unknown
    m = model([nd], [value_info("x", "float", [2, 3]) + unknown],
              [value_info("y", "float", [6])], initializers=[s], opset=14,
              graph_extra=unknown) + unknown
    w.case("gen_unknown_fields", m, [x], [tensor("y", "float", [6], raw=payload)])


def gen_external(w, rng):
    # The data to reshape lives in an initializer in an external file, at an
    # unaligned offset; the target comes from an input whose data is external too.
    payload = random_payload(rng, "uint16", 12)
    blob = b"\x01\x02\x03" + payload + b"tail"
    init = tensor("x", "uint16", [3, 4], external=[("location", "weights.bin"), ("offset", "3"),
                                                    ("length", str(len(payload)))])
    m = model([node("Reshape", ["x", "s"], ["y"])], [value_info("s", "int64", [2])],
              [value_info("y", "uint16", [2, 6])], initializers=[init], opset=14)
    target = struct.pack("<2q", 2, -1)
    s_in = tensor("s", "int64", [2], external=[("location", "target.bin")])
    w.case("gen_external_data", m, [s_in], [tensor("y", "uint16", [2, 6], raw=payload)],
           files=[("weights.bin", blob)])
    with open(os.path.join(w.out, "gen_external_data", "test_data_set_0", "target.bin"), "wb") as f:
        f.write(target)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261122)
    w = Writer(out)
    gen_per_version(w, rng)
    gen_edge_cases(w, rng)
    gen_graphs(w, rng)
    gen_unknown_fields(w, rng)
    gen_external(w, rng)
    print(w.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
