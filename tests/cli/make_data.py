#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Models and tensors the CLI tests use. Usage: make_data.py OUTDIR"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from onnxpb import (A_FLOAT, A_INT, A_INTS, A_STRING, A_TENSOR, attr, graph, model, node, tensor,  # noqa: E402
                    value_info, value_info_of, tensor_type, seq_type, map_type, optional_type, sparse_type,
                    f_bytes, f_int, f_str)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def reshape_model(target, opset=14, name="reshape", attrs=()):
    return model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, target)]),
                  node("Reshape", ["x", "s"], ["y"], list(attrs), name=name)],
                 [value_info("x", "float", [2, 3, 4])], [value_info("y", "float")], opset=opset)


write("x234.pb", tensor("x", "float", [2, 3, 4], raw=struct.pack("<24f", *range(24))))
write("x6.pb", tensor("x", "float", [6], raw=struct.pack("<6f", *[0.5 * i for i in range(6)])))
write("bad_target.onnx", reshape_model([2, -2, 6], name="r0"))
write("two_minus_one.onnx", reshape_model([-1, -1], name="r1"))
write("mismatch.onnx", reshape_model([5, 5], name="r2"))
write("allowzero2.onnx", reshape_model([24], name="r3", attrs=[attr("allowzero", A_INT, 2)]))
write("unsupported_op.onnx", model([node("Relu", ["x"], ["y"], name="act")],
                                   [value_info("x", "float", [2])], [value_info("y", "float")]))
write("other_domain.onnx", model([node("Shape", ["x"], ["y"], domain="com.example")],
                                 [value_info("x", "float", [2])], [value_info("y", "int64")]))
write("not_produced.onnx", model([node("Reshape", ["x", "later"], ["y"], name="early"),
                                  node("Shape", ["x"], ["later"], name="late")],
                                 [value_info("x", "float", [2, 3, 4])], [value_info("y", "float")],
                                 opset=13))
write("shape_attr_v13.onnx", model([node("Shape", ["x"], ["y"], [attr("start", A_INT, 1)])],
                                   [value_info("x", "float", [2])], [value_info("y", "int64")],
                                   opset=13))
write("wrong_attr_type.onnx", model([node("Shape", ["x"], ["y"], [attr("end", A_FLOAT, 1.0)],
                                          name="sh")],
                                    [value_info("x", "float", [2])], [value_info("y", "int64")],
                                    opset=15))
write("int4_in_v19.onnx", model([node("Size", ["x"], ["y"], name="count")],
                                [value_info("x", "int4", [3])], [value_info("y", "int64", [])],
                                opset=19))
write("int4x3.pb", tensor("x", "int4", [3], raw=bytes([0x21, 0x0F])))
write("opset29.onnx", model([node("Shape", ["x"], ["y"])], [value_info("x", "float", [2])],
                            [value_info("y", "int64")], opset=29))
write("garbage.onnx", b"\xff\xff\xff\xff this is not protobuf")
write("truncated.pb", tensor("x", "float", [2, 3, 4], raw=struct.pack("<24f", *range(24)))[:40])
write("short_raw.pb", tensor("x", "float", [2, 3, 4], raw=struct.pack("<23f", *range(23))))
write("strings_raw.pb", tensor("x", "string", [1], raw=b"abc"))
write("identity_model.onnx", model([node("Identity", ["x"], ["y"])], [value_info("x", "float", [2, 12])],
                                   [value_info("y", "float", [2, 12])], opset=25))

# One tensor per printable type, with values whose decoding is known.
TYPE_VALUES = {
    "float16": (b"\x00\x3c\x00\xc0\x00\x7c\x00\x7e", 4),   # 1, -2, inf, nan
    "bfloat16": (b"\x80\x3f\x40\xc0", 2),                  # 1, -3
    "float8e4m3fn": (b"\x38\xc0\x01\x7f", 4),              # 1, -2, 2^-9, nan
    "float8e4m3fnuz": (b"\x40\x80\x00", 3),                # 1, nan, 0
    "float8e5m2": (b"\x3c\x7c\xfc\x7f", 4),                # 1, inf, -inf, nan
    "float8e5m2fnuz": (b"\x40\x80", 2),                    # 1, nan
    "float8e8m0": (b"\x7f\x80\x00\xff", 4),                # 1, 2, 2^-127, nan
    "float4e2m1": (b"\x21\xf7", 4),                        # 0.5, 1, 6, -6
    "int4": (b"\x7f\x08", 3),                              # -1, 7, -8 (padding nibble 0)
    "uint4": (b"\xf0\x05", 3),                             # 0, 15, 5
    "int2": (b"\xe4", 4),                                  # 0, 1, -2, -1
    "uint2": (b"\xe4\x03", 5),                             # 0, 1, 2, 3, 3
    "bool": (b"\x01\x00\x01", 3),
    "complex64": (struct.pack("<4f", 1.5, -2.0, 0.0, 0.25), 2),
    "uint64": (struct.pack("<2Q", 18446744073709551615, 7), 2),
    "int8": (b"\x80\x7f", 2),
}
for type_name, (raw, n) in TYPE_VALUES.items():
    write("t_%s.pb" % type_name, tensor("x", type_name, [n], raw=raw))
    write("id_%s.onnx" % type_name, model([node("Identity", ["x"], ["y"])],
                                          [value_info("x", type_name, [n])],
                                          [value_info("y", type_name, [n])], opset=25))
write("t_string.pb", tensor("x", "string", [3], strings=[b"plain", b'q"uote', b"tab\there"]))
write("id_string.onnx", model([node("Identity", ["x"], ["y"])], [value_info("x", "string", [3])],
                              [value_info("y", "string", [3])], opset=25))
# A model whose graph input has no type.
write("untyped_input.onnx", model([node("Shape", ["x"], ["y"])], [f_str(1, "x")],
                                  [value_info("y", "int64")], opset=13))

# Static inference with symbolic dims.
write("infer_symbolic.onnx", model(
    [node("Shape", ["y"], ["y_shape"]),
     node("Reshape", ["x", "y_shape"], ["as_y"]),
     node("Constant", [], ["c"], [attr("value_ints", A_INTS, [-1, 4])]),
     node("Reshape", ["x", "c"], ["rows"]),
     node("Reshape", ["x", "free"], ["unknown_target"]),
     node("Size", ["x"], ["n"]),
     node("Shape", ["x"], ["tail"], [attr("start", A_INT, 1)]),
     node("Identity", ["x"], ["same"]),
     node("Shape", ["u"], ["u_shape"]),
     node("Reshape", ["u", "c"], ["u_rows"])],
    [value_info("x", "float", ["N", 3, 4]), value_info("y", "float", ["M", 2]),
     value_info("free", "int64", [3]), value_info("u", "int8")],
    [value_info("as_y", "float"), value_info("rows", "float")], opset=21))
for name, target, attrs, fragment in (
        ("infer_below_minus_one", [2, -2], [], None),
        ("infer_zero_past_rank", [0, 0, 0, 0], [], None),
        ("infer_allowzero_zero_minus_one", [0, -1], [attr("allowzero", A_INT, 1)], None)):
    write(name + ".onnx", model([node("Constant", [], ["c"], [attr("value_ints", A_INTS, target)]),
                                 node("Reshape", ["x", "c"], ["y"], attrs, name="r")],
                                [value_info("x", "float", ["N", 3, 4])],
                                [value_info("y", "float")], opset=21))

# The SONNX profile check (onnxshape check --profile sonnx).
X234 = value_info("x", "float", [2, 3, 4])
write("sonnx_ok.onnx", model(
    [node("Shape", ["x"], ["dims"], [attr("start", A_INT, 0), attr("end", A_INT, 3)], name="s"),
     node("Constant", [], ["t"], [attr("value_ints", A_INTS, [6, -1])]),
     node("Reshape", ["x", "t"], ["y"], [attr("allowzero", A_INT, 0)], name="r"),
     node("Size", ["y"], ["n"], name="count")],
    [X234], [value_info("dims", "int64"), value_info("n", "int64")], opset=21))
# Defaults, then three nodes that cannot succeed: each is reported, and
# inference goes on after each.
write("sonnx_findings.onnx", model(
    [node("Shape", ["x"], ["dims"], [attr("start", A_INT, 1)], name="tail"),
     node("Constant", [], ["t1"], [attr("value_ints", A_INTS, [-1, -1])]),
     node("Reshape", ["x", "t1"], ["y1"], [attr("allowzero", A_INT, 0)], name="two_inferred"),
     node("Constant", [], ["t2"], [attr("value_ints", A_INTS, [0, -1])]),
     node("Reshape", ["x", "t2"], ["y2"], [attr("allowzero", A_INT, 1)], name="zero_and_inferred"),
     node("Constant", [], ["t3"], [attr("value_ints", A_INTS, [5, 5])]),
     node("Reshape", ["x", "t3"], ["y3"], name="count_mismatch")],
    [X234], [value_info("dims", "int64"), value_info("y3", "float")], opset=15))
sparse_values = tensor("w", "float", [1], raw=struct.pack("<f", 1.0))
sparse_init = f_bytes(1, sparse_values) + f_bytes(2, tensor("", "int64", [1], raw=bytes(8))) + \
    f_int(3, 4)
sp_input = f_str(1, "sp") + f_bytes(2, f_bytes(8, f_int(1, 1)))
write("sonnx_sparse.onnx", model(
    [node("Constant", [], ["c"], [f_str(1, "sparse_value") + f_int(20, 11) + f_bytes(22, sparse_init)],
          name="k"),
     # unnamed, of another domain: the finding's node is "" (node_index 1), its domain separate
     node("Pack", ["c"], ["p"], [f_str(1, "table") + f_int(20, 11) + f_bytes(22, sparse_init)],
          domain="com.example")],
    [sp_input], [value_info("c", "float")], opset=13, graph_extra=f_bytes(15, sparse_init),
    extra_opsets=[("com.example", 1)]))

# ---- The front door (tests/cli/cases/door_*, tests/cli/safety.sh) ----------
F = struct.Struct("<f")


def floats(*v):
    return struct.pack("<%df" % len(v), *v)


# Names that would forge output lines if printed raw.
write("forged_names.onnx", model(
    [node("Shape", ["x"], ["y\nonnxshape: error: forged"], name="n\nonnxshape: error: forged"),
     node("Constant", [], ["t"], [attr("value_ints", A_INTS, [-2])]),
     node("Reshape", ["x", "t"], ["bad\tout"], name="r\r\n")],
    [value_info("x", "float", ["N\nM", 3])],
    [value_info("y\nonnxshape: error: forged", "int64")], opset=14))
write("forged_run.onnx", model(
    [node("Shape", ["x"], ["y\nonnxshape: error: forged\t\\"], name="n")],
    [value_info("x", "float", ["N\nM", 3])],
    [value_info("y\nonnxshape: error: forged\t\\", "int64")], opset=14))
write("x23.pb", tensor("x", "float", [2, 3], raw=floats(*range(6))))
# Names and strings that are not UTF-8, for --json.
bad_name = b"s\xff\xc3(\xe2\x80\xa8"
g = f_bytes(1, node("Constant", [], ["cs"],
                    [attr("value_strings", 8, [b"ok", b"\xff\xfe", b"caf\xc3\xa9", b"q\"\\\n"])]))
g += f_bytes(1, f_str(1, "cs") + f_bytes(2, bad_name) + f_str(4, "Identity"))
g += f_bytes(12, f_bytes(1, bad_name) + f_bytes(2, f_bytes(1, f_int(1, 8))))
write("json_bytes.onnx", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 14)) + f_bytes(7, g))
# A 400-byte node name on a node that fails.
long_name = "n" + "x" * 398 + "z"
write("long_name.onnx", model(
    [node("Constant", [], ["t"], [attr("value_ints", A_INTS, [2, -2])]),
     node("Reshape", ["x", "t"], ["y"], name=long_name)],
    [value_info("x", "float", [2, 3])], [value_info("y", "float")], opset=14))
# A declared input int64 [2^62] and [10^8] feeding Reshape's target.
for k, name in ((2 ** 62, "huge_target.onnx"), (10 ** 8, "large_target.onnx")):
    write(name, model([node("Reshape", ["x", "s"], ["y"], name="r")],
                      [value_info("x", "float", [2, 3]), value_info("s", "int64", [k])],
                      [value_info("y", "float")], opset=14))
# Two outputs, for the all-or-nothing writes.
write("two_outputs.onnx", model([node("Identity", ["x"], ["y0"]), node("Shape", ["x"], ["y1"])],
                                [value_info("x", "float")],
                                [value_info("y0", "float"), value_info("y1", "int64")], opset=14))
write("x2.pb", tensor("x", "float", [2], raw=floats(1, 2)))
write("x3.pb", tensor("x", "float", [3], raw=floats(7, 8, 9)))
# A tensor file whose raw_data is used in place (64 KiB and more).
write("big.pb", tensor("x", "float", [32768], raw=floats(*[float(i % 251) for i in range(32768)])))
write("identity_any.onnx", model([node("Identity", ["x"], ["y"])], [value_info("x", "float")],
                                 [value_info("y", "float")], opset=14))
# External data, and a directory for the confinement race: model_dir/sub/w.bin
# inside, secret/w.bin outside.
os.makedirs(os.path.join(out, "ext", "sub"), exist_ok=True)
os.makedirs(os.path.join(out, "secret"), exist_ok=True)
ext_model = model([node("Identity", ["w"], ["y"])], [], [value_info("y", "float")], opset=14,
                  initializers=[tensor("w", "float", [4],
                                       external=[("location", "sub/w.bin")])])
write("ext/model.onnx", ext_model)
write("ext/sub/w.bin", floats(1, 2, 3, 4))
# A decoy for the model's own directory swapped after the model was opened:
# another model (output z) over other data.
os.makedirs(os.path.join(out, "decoy", "sub"), exist_ok=True)
write("decoy/model.onnx", model([node("Identity", ["w"], ["z"])], [], [value_info("z", "float")],
                                opset=14, initializers=[tensor("w", "float", [4], external=[
                                    ("location", "sub/w.bin")])]))
write("decoy/sub/w.bin", floats(666, 666, 666, 666))
# External data beyond 4 GiB in a sparse file (a few KiB on disk): offsets
# that need a 64-bit off_t, on 32-bit hosts too.
FAR = (1 << 32) + 8
os.makedirs(os.path.join(out, "far"), exist_ok=True)
write("far/model.onnx", model([node("Identity", ["w"], ["y"])], [], [value_info("y", "float")],
                              opset=14, initializers=[tensor("w", "float", [4], external=[
                                  ("location", "w.bin"), ("offset", str(FAR)), ("length", "16")])]))
with open(os.path.join(out, "far", "w.bin"), "wb") as f:
    f.seek(FAR)
    f.write(floats(1, 2, 3, 4))
write("secret/w.bin", floats(666, 666, 666, 666))
big_ext = model([node("Identity", ["w"], ["y"])], [], [value_info("y", "float")], opset=14,
                initializers=[tensor("w", "float", [32768], external=[("location", "w.bin")])])
os.makedirs(os.path.join(out, "bigext"), exist_ok=True)
write("bigext/model.onnx", big_ext)
write("bigext/w.bin", floats(*[float(i % 7) for i in range(32768)]))
# A model of 64 KiB and more, which is mapped, not read: its int64
# initializers lie after 128 KiB of float data, on pages of their own.
write("bigmodel.onnx", model(
    [node("Reshape", ["k", "t"], ["r"], name="reshape_k"), node("Shape", ["w"], ["s"], name="shape_w"),
     node("Size", ["w"], ["n"], name="size_w")],
    [], [value_info("r", "int64"), value_info("s", "int64"), value_info("n", "int64")], opset=14,
    initializers=[tensor("w", "float", [32768], raw=floats(*[float(i % 251) for i in range(32768)])),
                  tensor("k", "int64", [6], raw=struct.pack("<6q", 1, 2, 3, 4, 5, 6)),
                  tensor("t", "int64", [2], raw=struct.pack("<2q", 3, -1))]))
# Main-graph inputs and outputs that are not tensors: a sequence, a map, an
# optional and a sparse tensor in, a sequence out. Any model loads (infer, check); run refuses.
write("nontensor_io.onnx", model(
    [node("SequenceLength", ["l"], ["n"], name="length"), node("Shape", ["x"], ["s"], name="shape_x"),
     node("SequenceConstruct", ["x", "x"], ["seq"], name="construct"),
     node("OptionalHasElement", ["o"], ["has"], name="has_o")],
    [value_info("x", "float", [2, 3]), value_info_of("l", seq_type(tensor_type("float"))),
     value_info_of("kv", map_type("int64", tensor_type("float"))),
     value_info_of("o", optional_type(tensor_type("int64"))), value_info_of("sp", sparse_type("float", [4, 4]))],
    [value_info("s", "int64", [2]), value_info("n", "int64", []),
     value_info_of("seq", seq_type(tensor_type("float"))),
     value_info("has", "bool", [])], opset=18))
# Mapped models whose loading reads the mapping after decoding: an If whose
# branches (held as bytes) lie after 128 KiB of float data; a sparse
# initializer there; and a backend-test directory whose model's output is
# its 128 KiB initializer (safety.sh cuts each short after decoding).
W_BIG = tensor("w", "float", [32768], raw=floats(*[float(i % 251) for i in range(32768)]))
def const_branch(name, out, values):
    return graph([node("Constant", [], [out], [attr("value", A_TENSOR, tensor("v", "int64", [2],
                 raw=struct.pack("<2q", *values)))])], [], [value_info(out, "int64", [2])], name=name)
write("bigif.onnx", model([], [], [value_info("y", "int64", [2]), value_info("s", "int64", [1])], opset=16,
      graph_extra=f_bytes(5, W_BIG) + f_bytes(5, tensor("c", "bool", [], raw=b"\x01")) +
      f_bytes(1, node("Shape", ["w"], ["s"], name="shape_w")) +
      f_bytes(1, node("If", ["c"], ["y"], [attr("then_branch", 5, const_branch("t", "a", (1, 2))),
                                          attr("else_branch", 5, const_branch("e", "b", (3, 4)))],
                      name="branch"))))
write("bigsparse.onnx", model([], [], [value_info("s", "int64", [1])], opset=16,
      graph_extra=f_bytes(5, W_BIG) + f_bytes(15, f_bytes(1, tensor("sp", "float", [2], raw=floats(1, 2))) +
                                                   f_bytes(2, tensor("", "int64", [2], raw=struct.pack("<2q", 0, 3))) +
                                                   f_int(3, 4)) +
      f_bytes(1, node("Shape", ["w"], ["s"], name="shape_w"))))
# A mapped .npy of 40,000 two-byte strings ('|S2', each "a" and a NUL
# pad), for a model of one string input (safety.sh rewrites one element
# between the reader's two passes: the header is 128 bytes).
npy_head = "{'descr': '|S2', 'fortran_order': False, 'shape': (40000,), }"
npy_head += " " * (-(10 + len(npy_head) + 1) % 64) + "\n"
write("bigstrings.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(npy_head)) +
      npy_head.encode() + b"a\0" * 40000)
write("identity_string.onnx", model([node("Identity", ["x"], ["y"])],
                                    [value_info("x", "string")], [value_info("y", "string")]))
os.makedirs(os.path.join(out, "bigtest", "test_data_set_0"), exist_ok=True)
write("bigtest/model.onnx", model([], [], [value_info("y", "float", [32768])], opset=14,
      graph_extra=f_bytes(5, W_BIG) + f_bytes(1, node("Identity", ["w"], ["y"], name="copy_w"))))
write("bigtest/test_data_set_0/output_0.pb", tensor("y", "float", [32768],
      raw=floats(*[float(i % 251) for i in range(32768)])))
# Backend-test directories whose data sets do not match the model.
def backend_dir(name, files):
    d = os.path.join(out, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(out, name, "model.onnx"), "wb") as f:
        f.write(model([node("Identity", ["x"], ["y"])], [value_info("x", "float", [2])],
                      [value_info("y", "float", [2])], opset=14))
    for fname, data in files.items():
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)


X2 = tensor("x", "float", [2], raw=floats(1, 2))
Y2 = tensor("y", "float", [2], raw=floats(1, 2))
backend_dir("bt_ok", {"input_0.pb": X2, "output_0.pb": Y2})
backend_dir("bt_extra_output", {"input_0.pb": X2, "output_0.pb": Y2, "output_1.pb": Y2})
backend_dir("bt_extra_input", {"input_0.pb": X2, "input_5.pb": X2, "output_0.pb": Y2})
backend_dir("bt_missing_output", {"input_0.pb": X2})
os.makedirs(os.path.join(out, "bt_no_sets"), exist_ok=True)
with open(os.path.join(out, "bt_no_sets", "model.onnx"), "wb") as f:
    f.write(model([node("Identity", ["x"], ["y"])], [value_info("x", "float", [2])],
                  [value_info("y", "float", [2])], opset=14))
# onnxshape test: outputs whose elements differ, each listed with its index
# and both values; suites of test_* directories (issue 32 item 4).
def backend_case(path, onnx_model, sets):
    """model.onnx and one test_data_set_<k>/ per dict of file name to bytes."""
    for k, files in enumerate(sets):
        os.makedirs(os.path.join(out, path, "test_data_set_%d" % k), exist_ok=True)
        for fname, data in files.items():
            write(os.path.join(path, "test_data_set_%d" % k, fname), data)
    write(os.path.join(path, "model.onnx"), onnx_model)


def identity_case(path, type_name, dims, x, y):
    backend_case(path, model([node("Identity", ["x"], ["y"])], [value_info("x", type_name, dims)],
                             [value_info("y", type_name, dims)], opset=25),
                 [{"input_0.pb": tensor("x", type_name, dims, **x),
                   "output_0.pb": tensor("y", type_name, dims, **y)}])


# int32 [12] reshaped to [3,4]; 7 elements differ, the extremes of int32 among them.
MM_WANT = list(range(12))
for i, v in ((1, 99), (3, -3), (4, 2147483647), (6, -2147483648), (8, 80), (9, 90), (11, 110)):
    MM_WANT[i] = v
backend_case("mm_int", model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, [3, 4])]),
                              node("Reshape", ["x", "s"], ["y"], name="rows")],
                             [value_info("x", "int32", [12])], [value_info("y", "int32", [3, 4])],
                             opset=21),
             [{"input_0.pb": tensor("x", "int32", [12], raw=struct.pack("<12i", *range(12))),
               "output_0.pb": tensor("y", "int32", [3, 4], raw=struct.pack("<12i", *MM_WANT))}])
# float [2,3]: the next float after 0.1, -0 and 0, NaNs of two payloads, 1
# and inf; 1e-45 (the smallest subnormal) and the largest float are equal.
F32 = struct.Struct("<I")
identity_case("mm_float", "float", [2, 3],
              {"raw": floats(0.1, -0.0) + F32.pack(0x7fc00000) + floats(1e-45, 3.4028234663852886e38, 1)},
              {"raw": F32.pack(0x3dcccccd + 1) + floats(0.0) + F32.pack(0x7fc00001) +
                      floats(1e-45, 3.4028234663852886e38, float("inf"))})
# float16 [3]: 1 and the next float16, NaNs of two payloads; the smallest subnormal equal.
identity_case("mm_float16", "float16", [3], {"raw": struct.pack("<3H", 0x3c00, 0x7e00, 0x0001)},
              {"raw": struct.pack("<3H", 0x3c01, 0x7e01, 0x0001)})
# int4 [5], packed low nibble first: [-8, 7, -1, 0, 3] against
# [-8, 6, -1, 0, -4]; the expected padding nibble (0xa) does not count.
identity_case("mm_int4", "int4", [5], {"raw": bytes([0x78, 0x0f, 0x03])},
              {"raw": bytes([0x68, 0x0f, 0xac])})
# string [2]: a newline and a byte that is not UTF-8, escaped when printed.
identity_case("mm_string", "string", [2], {"strings": [b"plain", b"line\nbreak"]},
              {"strings": [b"plain", b"line\nbrea\xff"]})
# A 0-D output (Size): its index is []; the first data set passes.
X23 = tensor("x", "float", [2, 3], raw=floats(*range(6)))
backend_case("mm_scalar", model([node("Size", ["x"], ["n"], name="count")],
                                [value_info("x", "float", [2, 3])], [value_info("n", "int64", [])],
                                opset=21),
             [{"input_0.pb": X23, "output_0.pb": tensor("n", "int64", [], raw=struct.pack("<q", 6))},
              {"input_0.pb": X23, "output_0.pb": tensor("n", "int64", [], raw=struct.pack("<q", 7))}])
# A suite as ONNX's backend test data lays it out (node/test_*/): a case
# that passes, one whose elements differ, one with an operator onnxshape
# does not run, one without model.onnx, a symbolic link to a case; a file
# named test_* and a directory not named test_* are not cases.
BT_MODEL = model([node("Identity", ["x"], ["y"])], [value_info("x", "float", [2])],
                 [value_info("y", "float", [2])], opset=14)
backend_case("suite/test_pass", BT_MODEL, [{"input_0.pb": X2, "output_0.pb": Y2}])
backend_case("suite/test_mismatch", BT_MODEL,
             [{"input_0.pb": X2, "output_0.pb": tensor("y", "float", [2], raw=floats(1, 2.5))}])
backend_case("suite/test_relu", model([node("Relu", ["x"], ["y"], name="act")],
                                      [value_info("x", "float", [2])],
                                      [value_info("y", "float", [2])], opset=14),
             [{"input_0.pb": X2, "output_0.pb": Y2}])
os.makedirs(os.path.join(out, "suite", "test_no_model", "test_data_set_0"), exist_ok=True)
os.makedirs(os.path.join(out, "suite", "data"), exist_ok=True)
write("suite/test_notes.txt", b"not a case\n")
if not os.path.lexists(os.path.join(out, "suite", "test_link")):
    os.symlink("test_pass", os.path.join(out, "suite", "test_link"))
# No model.onnx and no test_* directory: an error naming it.
os.makedirs(os.path.join(out, "suite_empty", "data"), exist_ok=True)
write("suite_empty/test_notes.txt", b"not a case\n")
# Many graph inputs, bound by position.
N_MANY = 3000
write("many_inputs.onnx", model([node("Identity", ["x0"], ["y"])],
                                [value_info("x%d" % i, "float", []) for i in range(N_MANY)],
                                [value_info("y", "float", [])], opset=14))
os.makedirs(os.path.join(out, "many"), exist_ok=True)
for i in range(N_MANY):
    write("many/x%d.pb" % i, tensor("", "float", [], raw=floats(float(i))))

# ---- analysis of a model with other operators and subgraphs (docs/analysis.md)
# x [N,64] -> Relu (evaluated, and value_info declares h [N,64]) -> Shape ->
# Gather/Unsqueeze/Concat -> Reshape [N,4,16]; Cast/Slice/Cast/Div -> [16];
# If on an unknown flag (both branches, neither certain: a Reshape with two -1
# in the else branch is a check finding); If on Equal(64, 64) (the then
# branch only); a value_info that contradicts a computed shape.
def i64(name, values, dims=None):
    return tensor(name, "int64", [len(values)] if dims is None else dims,
                  raw=struct.pack("<%dq" % len(values), *values))


A_GRAPH = 5
then_a = graph([node("Constant", [], ["t8"], [attr("value_ints", A_INTS, [0, -1, 8])], name="t8"),
                node("Reshape", ["h", "t8"], ["tb"], [attr("allowzero", A_INT, 0)], name="then_reshape")],
               [], [value_info("tb", "float")], name="then_a")
else_a = graph([node("Constant", [], ["bad"], [attr("value_ints", A_INTS, [-1, -1])], name="bad"),
                node("Reshape", ["h", "bad"], ["eb"], [attr("allowzero", A_INT, 0)], name="else_reshape")],
               [], [value_info("eb", "float")], name="else_a")
then_b = graph([node("Size", ["h"], ["hs"], name="then_size")], [], [value_info("hs", "int64")],
               name="then_b")
else_b = graph([node("Shape", ["h"], ["hsh"], [attr("start", A_INT, 0), attr("end", A_INT, 1)],
                     name="else_shape")], [], [value_info("hsh", "int64")], name="else_b")
analysis_nodes = [
    node("Relu", ["x"], ["h"], name="act"),
    node("Shape", ["h"], ["s"], [attr("start", A_INT, 0), attr("end", A_INT, 2)], name="shape"),
    node("Gather", ["s", "zero"], ["n0"], [attr("axis", A_INT, 0)], name="gather"),
    node("Unsqueeze", ["n0", "axes0"], ["n0u"], name="unsqueeze"),
    node("Concat", ["n0u", "four", "sixteen"], ["target"], [attr("axis", A_INT, 0)], name="concat"),
    node("Reshape", ["h", "target"], ["r"], [attr("allowzero", A_INT, 0)], name="reshape"),
    node("Cast", ["s"], ["s32"], [attr("to", A_INT, 6)], name="cast32"),
    node("Slice", ["s32", "one", "two"], ["d1"], name="slice"),
    node("Cast", ["d1"], ["d1l"], [attr("to", A_INT, 7)], name="cast64"),
    node("Div", ["d1l", "four"], ["q"], name="div"),
    node("If", ["flag"], ["ya"], [attr("then_branch", A_GRAPH, then_a),
                                  attr("else_branch", A_GRAPH, else_a)], name="if_flag"),
    node("Gather", ["s", "one_s"], ["w"], [attr("axis", A_INT, 0)], name="width"),
    node("Equal", ["w", "sixty_four"], ["is64"], name="is64"),
    node("If", ["is64"], ["yb"], [attr("then_branch", A_GRAPH, then_b),
                                  attr("else_branch", A_GRAPH, else_b)], name="if_known"),
]
analysis_inits = [i64("zero", [0], []), i64("axes0", [0]), i64("four", [4]), i64("sixteen", [16]),
                  i64("one", [1]), i64("two", [2]), i64("one_s", [1], []),
                  i64("sixty_four", [64], [])]
analysis_vi = (f_bytes(13, value_info("h", "float", ["N", 64])) +
               f_bytes(13, value_info("r", "float", ["N", 4, 15])))
write("analysis.onnx", model(analysis_nodes,
                             [value_info("x", "float", ["N", 64]), value_info("flag", "bool", [])],
                             [value_info("r", "float"), value_info("q", "int64"),
                              value_info("ya", "float"), value_info("yb", "int64")],
                             initializers=analysis_inits, opset=16, graph_extra=analysis_vi))

# ---- infer --why: chains that stop at each kind of place (docs/cli.md)
# x [N,3,4] (a symbol), y [?,5] (a dim not declared), z [2,6] (known).
# An operator of another domain (not evaluated) declared [2,K] -> Shape ->
# Reshape(x): stops at the declaration and at x. Another, not declared ->
# Size.
# NonZero (evaluated; its count a symbol of its own) -> Shape: every input
# known. y -> Reshape to [-1]: stops at y. A Reshape to a declared target of
# unknown values ([?,?,?]) whose own declaration fills in [N,4,3]. x + m:
# only m (not known even up to symbols) is why, not x.
y_any = value_info_of("y", f_bytes(1, f_int(1, 1) + f_bytes(2, f_bytes(1, b"") + f_bytes(1, f_int(1, 5)))))
write("why.onnx", model(
    [node("Accumulate", ["z", "axis0"], ["cs"], domain="com.example", name="cumsum"),
     node("Shape", ["cs"], ["cs_shape"], name="cs_shape"),
     node("Reshape", ["x", "cs_shape"], ["r1"], name="reshape_cs"),
     node("Mystery", ["y"], ["m"], domain="com.example", name="mystery"),
     node("Size", ["m"], ["size_m"], name="size_m"),
     node("NonZero", ["z"], ["nz"], name="nonzero"),
     node("Shape", ["nz"], ["nz_shape"], name="nz_shape"),
     node("Reshape", ["y", "flat"], ["flat_y"], name="flat_y"),
     node("Accumulate", ["three", "axis0"], ["t2"], domain="com.example", name="cumsum_target"),
     node("Reshape", ["x", "t2"], ["r2"], name="reshape_declared"),
     node("Add", ["x", "m"], ["xm"], name="add_xm")],
    [value_info("x", "float", ["N", 3, 4]), y_any, value_info("z", "float", [2, 6])],
    [value_info("r1", "float"), value_info("size_m", "int64"), value_info("nz_shape", "int64"),
     value_info("flat_y", "float"), value_info("r2", "float"), value_info("xm", "float")],
    initializers=[i64("axis0", [0], []), i64("flat", [-1]), i64("three", [1, 1, 1])], opset=14,
    extra_opsets=[("com.example", 1)],
    graph_extra=(f_bytes(13, value_info("cs", "float", [2, "K"])) +
                 f_bytes(13, value_info("t2", "int64", [3])) +
                 f_bytes(13, value_info("r2", "float", ["N", 4, 3])))))

# Graph inputs with dims declaring neither a number nor a symbol: each is
# a symbol of its own, "<input>_d<i>" (x_d2), made unique where the model
# names a symbol so ("x_d0", declared by w: x's first dim is 'x_d0#1').
x_undeclared = value_info_of("x", f_bytes(1, f_int(1, 1) + f_bytes(2, f_bytes(1, b"") + f_bytes(1, f_int(1, 3)) + f_bytes(1, b""))))
write("undeclared.onnx", model(
    [node("Shape", ["x"], ["xs"], name="shape_x"),
     node("Reshape", ["x", "flat"], ["xf"], name="flat_x"),
     node("Shape", ["w"], ["ws"], name="shape_w")],
    [x_undeclared, value_info("w", "float", ["x_d0", 2])],
    [value_info("xs", "int64"), value_info("xf", "float"), value_info("ws", "int64")],
    initializers=[i64("flat", [-1])], opset=14))

# Sequences and optionals: what analysis knows of them is listed (the
# element, a sequence's length, whether an optional holds an element).
write("sequences.onnx", model(
    [node("SequenceConstruct", ["x", "x"], ["s"], name="construct"),
     node("SequenceLength", ["s"], ["n"], name="length"),
     node("SequenceAt", ["s", "zero"], ["at"], name="at"),
     node("SplitToSequence", ["x"], ["parts"], [attr("axis", A_INT, 1)], name="split"),
     node("SequenceInsert", ["parts", "x"], ["more"], name="insert"),
     node("SequenceEmpty", [], ["none"], [attr("dtype", A_INT, 7)], name="empty"),
     node("Optional", ["parts"], ["opt"], name="optional"),
     node("OptionalHasElement", ["opt"], ["has"], name="has")],
    [value_info("x", "float", ["N", 3])],
    [value_info("n", "int64"), value_info("at", "float"), value_info("has", "bool")],
    initializers=[i64("zero", [0], [])], opset=18))

# Integer operators on values that are expressions: on uint64 (a Cast of
# dims, certain >= 0) only what does not depend on the value (x + 0, 0 + x,
# x - 0, x * 1, 1 * x, x / 1, min(x, x), x - x); on int64 the comparisons
# of a value with itself, Neg, Abs (of dims, >= 0) and Clip to a constant.
def u64(name, values):
    return tensor(name, "uint64", [], raw=struct.pack("<Q", *values))


write("int_exprs.onnx", model(
    [node("Shape", ["x"], ["s"], name="s"),
     node("Cast", ["s"], ["u"], [attr("to", A_INT, 13)], name="u"),
     node("Add", ["u", "z"], ["u_add0"], name="add0"),
     node("Add", ["z", "u"], ["u_0add"], name="0add"),
     node("Sub", ["u", "z"], ["u_sub0"], name="sub0"),
     node("Mul", ["u", "o"], ["u_mul1"], name="mul1"),
     node("Mul", ["o", "u"], ["u_1mul"], name="1mul"),
     node("Div", ["u", "o"], ["u_div1"], name="div1"),
     node("Min", ["u", "u"], ["u_min"], name="min"),
     node("Sub", ["u", "u"], ["u_subself"], name="subself"),
     node("Mul", ["u", "u"], ["u_square"], name="square"),
     node("GreaterOrEqual", ["s", "s"], ["ge"], name="ge"),
     node("Greater", ["s", "s"], ["gt"], name="gt"),
     node("Neg", ["s"], ["neg"], name="neg"),
     node("Abs", ["s"], ["abs"], name="abs"),
     node("Clip", ["s", "", "five"], ["clip"], name="clip")],
    [value_info("x", "float", ["N", "S"])], [value_info("clip", "int64")],
    initializers=[u64("z", [0]), u64("o", [1]), i64("five", [5], [])], opset=14))

# A chain of 20 Identity nodes from x [N] (past the 16 levels --why indents),
# and a Split whose two outputs a Concat takes (the second output's node
# was explained with the first).
deep = [node("Identity", ["x" if k == 0 else "d%d" % (k - 1)], ["d%d" % k], name="id%d" % k)
        for k in range(20)]
deep += [node("Split", ["x"], ["half_a", "half_b"], [attr("axis", A_INT, 0)], name="split"),
         node("Concat", ["half_a", "half_b"], ["joined"], [attr("axis", A_INT, 0)], name="join")]
write("why_deep.onnx", model(deep, [value_info("x", "float", ["N"])],
                             [value_info("d19", "float"), value_info("joined", "float")], opset=14))

# ---- the other integer operators of analysis, on constants and symbols
def f32(name, values, dims=None):
    return tensor(name, "float", [len(values)] if dims is None else dims,
                  raw=struct.pack("<%df" % len(values), *values))


arith_nodes = [
    node("Shape", ["x"], ["s"], name="shape"),
    node("Add", ["s", "zeros3"], ["add0"], name="add0"),            # [N, 6, 0] + 0 = same
    node("Mul", ["s", "ones3"], ["mul1"], name="mul1"),             # * 1 = same
    node("Sub", ["s", "s"], ["sub_self"], name="sub_self"),         # [0, 0, 0]
    node("Mul", ["s", "big"], ["mul_big"], name="mul_big"),         # [2^62*N, overflow: unknown, 0]
    node("Div", ["minus7", "two_s"], ["div_trunc"], name="div_trunc"),   # -7 / 2 = -3
    node("Div", ["minus7", "zero_s"], ["div_zero"], name="div_zero"),    # unknown
    node("Min", ["s", "fives"], ["min"], name="min"),               # [min(N, 5), 5, 0]
    node("Max", ["s", "fives", "ones3"], ["max"], name="max"),      # [max(N, 5), 6, 5]
    node("Equal", ["s", "s6"], ["eq"], name="eq"),                  # [?, 1, 0]
    node("Not", ["eq"], ["neq"], name="neq"),                       # [?, 0, 1]
    node("Where", ["eq", "s", "fives"], ["where"], name="where"),   # [?, 6, 5]
    node("Range", ["one_s", "ten_s", "three_s"], ["range"], name="range"),   # [1, 4, 7]
    node("Range", ["ten_s", "one_s", "minus3_s"], ["range_down"], name="range_down"),  # [10, 7, 4]
    node("ReduceProd", ["range"], ["prod"], [attr("keepdims", A_INT, 0)], name="prod"),  # 28
    node("ConstantOfShape", ["two_three"], ["cos"], [attr("value", A_TENSOR, i64("", [7], [1]))],
         name="cos"),                                               # [2,3] of 7
    node("ConstantOfShape", ["two_three"], ["cos_float"], name="cos_float"),  # float [2,3]
    node("Unsqueeze", ["prod"], ["prod1"], [attr("axes", A_INTS, [0])], name="unsq_attr"),
    node("Squeeze", ["prod1"], ["prod0"], [attr("axes", A_INTS, [0])], name="sq_attr"),
    node("Squeeze", ["cos3"], ["sq_all"], name="sq_all"),            # [1,3,1] -> [3]
    node("Slice", ["range", "minus1", "minus_big", "zero1", "minus1"], ["rev"], name="reverse"),
    node("Gather", ["s", "idx"], ["gathered"], [attr("axis", A_INT, 0)], name="gather2"),
    node("Cast", ["s"], ["s_u8"], [attr("to", A_INT, 2)], name="to_u8"),  # [?, 6, 0]
    node("Cast", ["s"], ["s_i32"], [attr("to", A_INT, 6)], name="to_i32_sym"),  # [?, 6, 0]: N may pass 2^31
    node("Sub", ["s", "fives"], ["s_m5"], name="s_m5"),  # [N - 5, 1, -5]
    node("Cast", ["s_m5"], ["s_m5_u64"], [attr("to", A_INT, 13)], name="to_u64"),  # [?, 1, ?]
    node("Cast", ["s"], ["s_u64"], [attr("to", A_INT, 13)], name="to_u64_dims"),  # [N, 6, 0]
    node("Cast", ["big"], ["big_i32"], [attr("to", A_INT, 6)], name="to_i32"),  # out of range
    node("Reshape", ["cos", "flat"], ["cos_flat"], name="flatten"),
]
arith_inits = [i64("zeros3", [0, 0, 0]), i64("ones3", [1, 1, 1]),
               i64("big", [2 ** 62, 2 ** 62, 2 ** 62]), i64("minus7", [-7], []),
               i64("two_s", [2], []), i64("zero_s", [0], []), i64("fives", [5, 5, 5]),
               i64("s6", [7, 6, 1]), i64("one_s", [1], []), i64("ten_s", [10], []),
               i64("three_s", [3], []), i64("minus3_s", [-3], []), i64("two_three", [2, 3]),
               i64("cos3", [1, 2, 3], [1, 3, 1]), i64("minus1", [-1]), i64("minus_big", [-(2 ** 63)]),
               i64("zero1", [0]), i64("idx", [-1, 1]), i64("flat", [-1])]
write("arith.onnx", model(arith_nodes, [value_info("x", "float", ["N", 6, 0])],
                          [value_info("cos_flat", "int64")], initializers=arith_inits, opset=13))

# ---- edge cases of analysis found by review: each an exact value or unknown
I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1
edge_nodes = [
    node("Range", ["zero_s", "min_s", "minus1_s"], ["range_huge"], name="range_huge"),  # unknown
    node("Slice", ["ten", "zero1", "ten1", "zero1", "max1"], ["step_max"], name="step_max"),  # [0]
    node("Slice", ["ten", "nine1", "min1", "zero1", "min1"], ["step_min"], name="step_min"),  # [9]
    node("Slice", ["five", "minus10", "min1", "zero1", "minus1"], ["neg_clamp"], name="neg_clamp"),
    node("Reshape", ["bss", "zero_minus_zero"], ["bss_r"], name="bss_reshape"),  # [B,S,S]
    node("Shape", ["y"], ["sy"], name="sy"),
    node("Concat", ["sy", "five1"], ["t_m5"], [attr("axis", A_INT, 0)], name="t_m5"),
    node("Reshape", ["xn5", "t_m5"], ["sym_target"], name="sym_target"),  # [?,5]: M may be 0
    # past the data's rank a 0 would fail the node: there M is the dim
    node("Concat", ["one1", "sy"], ["t_1m"], [attr("axis", A_INT, 0)], name="t_1m"),
    node("Reshape", ["y", "t_1m"], ["past_rank"], name="past_rank"),  # [1,M]
    # M + 1 is at least 1, never a 0 that copies the data's dim
    node("Add", ["sy", "one1"], ["sy1"], name="sy1"),
    node("Concat", ["zero1", "sy1"], ["t_0m1"], [attr("axis", A_INT, 0)], name="t_0m1"),
    node("Reshape", ["xn5", "t_0m1"], ["at_least_1"], name="at_least_1"),  # [N,M+1]
    # found by tests/diff/analysis_diff.js: an end of INT64_MAX with a negative step (D9)
    node("Slice", ["five", "four1", "max1", "zero1", "minus1"], ["end_max_back"],
         name="end_max_back"),  # [?]
]
edge_inits = [i64("zero_s", [0], []), i64("min_s", [I64_MIN], []), i64("minus1_s", [-1], []),
              i64("ten", list(range(10))), i64("zero1", [0]), i64("ten1", [10]),
              i64("max1", [I64_MAX]), i64("nine1", [9]), i64("min1", [I64_MIN]),
              i64("five", [10, 11, 12, 13, 14]), i64("minus10", [-10]), i64("minus1", [-1]),
              i64("zero_minus_zero", [0, -1, 0]), i64("five1", [5]), i64("four1", [4]),
              i64("one1", [1])]
write("edges.onnx", model(edge_nodes, [value_info("bss", "float", ["B", "S", "S"]),
                                       value_info("y", "float", ["M"]),
                                       value_info("xn5", "float", ["N", 5])],
                          [value_info("sym_target", "float")], initializers=edge_inits, opset=13))
# Slice-1 axes must be in [0, r-1]: a -1 fails at run time (onnxruntime
# takes it as the last axis), so nothing is known; a valid one slices.
write("slice1.onnx", model([
    node("Slice", ["five"], ["neg_axis"], [attr("starts", A_INTS, [6]), attr("ends", A_INTS, [100]),
                                          attr("axes", A_INTS, [-1])], name="neg_axis"),
    node("Slice", ["five"], ["axis0"], [attr("starts", A_INTS, [1]), attr("ends", A_INTS, [100]),
                                       attr("axes", A_INTS, [0])], name="axis0")],
    [], [value_info("axis0", "int64")], initializers=[i64("five", [10, 11, 12, 13, 14])], opset=9))

# ---- model-local functions (docs/analysis.md, "Model-local functions"): each
# call analyses the body on its own inputs, attribute references resolved.
def function(name, domain, inputs, outputs, nodes, attrs=(), opset=None, attr_defaults=()):
    b = f_str(1, name) + b"".join(f_str(4, i) for i in inputs)
    b += b"".join(f_str(5, o) for o in outputs) + b"".join(f_str(6, a) for a in attrs)
    b += b"".join(f_bytes(7, n) for n in nodes)
    if opset is not None:
        b += f_bytes(9, f_str(1, "") + f_int(2, opset)) + f_bytes(9, f_str(1, domain) + f_int(2, 1))
    b += f_str(10, domain) + b"".join(f_bytes(11, a) for a in attr_defaults)
    return b


def ref(name, kind, refers_to):
    return f_str(1, name) + f_int(20, kind) + f_str(21, refers_to)


# flatten2(X): Reshape(X, [X.shape[0], -1]), allowzero from the call's `az`.
flatten2 = function("Flatten2", "custom", ["X"], ["Y"], [
    node("Shape", ["X"], ["lead"], [attr("start", A_INT, 0), attr("end", A_INT, 1)], name="lead"),
    node("Constant", [], ["rest"], [attr("value_ints", A_INTS, [-1])], name="rest"),
    node("Concat", ["lead", "rest"], ["t"], [attr("axis", A_INT, 0)], name="target"),
    node("Reshape", ["X", "t"], ["Y"], [ref("allowzero", A_INT, "az")], name="flat")],
    attrs=["az"], opset=15)
# twice(X): Flatten2 called from a function, then Size of the result.
twice = function("Twice", "custom", ["X"], ["Y", "n"], [
    node("Flatten2", ["X"], ["Y"], [attr("az", A_INT, 0)], domain="custom", name="inner"),
    node("Size", ["Y"], ["n"], name="count")], opset=15)


def fn_model(nodes, functions, inputs, outputs, opset=15, initializers=(), graph_extra=b""):
    return model(nodes, inputs, outputs, initializers=initializers, opset=opset,
                 extra_opsets=[("custom", 1)], graph_extra=graph_extra) + \
        b"".join(f_bytes(25, f) for f in functions)


write("functions.onnx", fn_model([
    node("Flatten2", ["x"], ["y1"], [attr("az", A_INT, 0)], domain="custom", name="call1"),
    node("Flatten2", ["w"], ["y2"], domain="custom", name="call2"),
    node("Twice", ["x"], ["y3", "n3"], domain="custom", name="call3")],
    [flatten2, twice], [value_info("x", "float", ["N", 3, 4]), value_info("w", "float", [2, 5])],
    [value_info("y1", "float"), value_info("y2", "float"), value_info("y3", "float"),
     value_info("n3", "int64")]))
# allowzero=2 reaches the body through the reference: the call cannot succeed.
write("function_bad_attr.onnx", fn_model([
    node("Flatten2", ["x"], ["y"], [attr("az", A_INT, 2)], domain="custom", name="call")],
    [flatten2], [value_info("x", "float", [2, 3])], [value_info("y", "float")]))
# A function that calls itself.
loop_fn = function("Again", "custom", ["X"], ["Y"], [
    node("Again", ["X"], ["Y"], domain="custom", name="self_call")], opset=15)
write("function_recursive.onnx", fn_model([
    node("Again", ["x"], ["y"], domain="custom", name="call")],
    [loop_fn], [value_info("x", "float", [2])], [value_info("y", "float")]))
# F0 calls F1 twice, F1 calls F2 twice, ... : 2^29 bodies, which loading
# stops at the memory limit (LIMIT-MEMORY) in well under a second.
chain = []
for k in range(30):
    body = ([node("Shape", ["X"], ["Y"], name="s")] if k == 29 else
            [node("F%d" % (k + 1), ["X"], ["a"], domain="custom", name="c1"),
             node("F%d" % (k + 1), ["X"], ["Y"], domain="custom", name="c2")])
    chain.append(function("F%d" % k, "custom", ["X"], ["Y"], body, opset=15))
write("function_blowup.onnx", fn_model([node("F0", ["x"], ["y"], domain="custom", name="top")],
                                       chain, [value_info("x", "float", [2])],
                                       [value_info("y", "int64")]))
# Each call of a function counts the bytes of its body's names against the
# memory limit, as if it copied them (LIMIT-MEMORY): 4,000 calls of a body
# whose value name is 20,000 bytes long (a 100 KB model) would expand to
# 160 MB of names (and print them, from infer), and stop at the limit.
long_a = "A" * 20000
write("function_long_names.onnx", fn_model(
    [node("F", ["x"], ["y%d" % i], domain="custom") for i in range(4000)],
    [function("F", "custom", [long_a], ["Y"], [node("Identity", [long_a], ["Y"])], opset=15)],
    [value_info("x", "float", [1])], [value_info("y0", "float")]))
# A function that imports the default domain twice (as a model may not).
twice_imported = function("Flatten2", "custom", ["X"], ["Y"], [
    node("Shape", ["X"], ["Y"], name="sh")], opset=15) + f_bytes(9, f_str(1, "") + f_int(2, 1))
write("function_two_imports.onnx", fn_model([
    node("Flatten2", ["x"], ["y"], domain="custom", name="call")],
    [twice_imported], [value_info("x", "float", [2])], [value_info("y", "int64")]))
# Scopes and names: Pick's If takes both branches from the call, and they
# see the caller's names (x), as ONNX's scoping says; the first call's
# condition is known (then: x's shape), the second's is not (both, joined).
# Both calls are named "pick": their bodies' paths differ (pick, pick#2).
# y1 is declared with 3 dims: a conflict named by the call's function. Relu
# here is a function of the default domain, which ONNX's operator shadows.
pick = function("Pick", "custom", ["C"], ["Y"], [
    node("If", ["C"], ["Y"], [ref("then_branch", A_GRAPH, "tb"), ref("else_branch", A_GRAPH, "eb")],
         name="if")], attrs=["tb", "eb"], opset=15)
pick_then = graph([node("Shape", ["x"], ["sx"], name="shape_x")], [], [value_info("sx", "int64")],
                  name="tb")
pick_else = graph([node("Shape", ["x"], ["sx1"], [attr("start", A_INT, 1)], name="shape_x1")], [],
                  [value_info("sx1", "int64")], name="eb")
relu_fn = function("Relu", "", ["X"], ["Y"], [node("Shape", ["X"], ["Y"], name="not_relu")])
pick_branches = [attr("tb", A_GRAPH, pick_then), attr("eb", A_GRAPH, pick_else)]
write("function_scopes.onnx", fn_model([
    node("Equal", ["one", "one"], ["yes"], name="yes"),
    node("Pick", ["yes"], ["y1"], pick_branches, domain="custom", name="pick"),
    node("Relu", ["x"], ["h"], name="relu"),
    node("Pick", ["flag"], ["y2"], pick_branches, domain="custom", name="pick")],
    [pick, relu_fn], [value_info("x", "float", ["N", 3]), value_info("flag", "bool", [])],
    [value_info("y1", "int64"), value_info("y2", "int64"), value_info("h", "float")],
    initializers=[i64("one", [1], [])],
    graph_extra=f_bytes(13, value_info("y1", "int64", [3]))))
# An attribute reference outside any function refers to nothing.
write("function_stray_ref.onnx", fn_model([
    node("Concat", ["x", "x"], ["y"], [ref("axis", A_INT, "ax")], name="cat")],
    [], [value_info("x", "int64", [2])], [value_info("y", "int64")]))
# A load error inside an If in a body names the graph it is in.
bad_branch = function("Guard", "custom", ["C", "X"], ["Y"], [
    node("If", ["C"], ["Y"], [
        attr("then_branch", A_GRAPH, graph([node("Shape", ["nope"], ["s"], name="bad")], [],
                                           [value_info("s", "int64")], name="t")),
        attr("else_branch", A_GRAPH, graph([node("Shape", ["X"], ["s"], name="good")], [],
                                           [value_info("s", "int64")], name="e"))],
         name="if")], opset=15)
write("function_bad_branch.onnx", fn_model([
    node("Guard", ["flag", "x"], ["y"], domain="custom", name="guard")],
    [bad_branch], [value_info("flag", "bool", []), value_info("x", "float", [2])],
    [value_info("y", "int64")]))
# A function output that nothing in the body produces.
write("function_no_output.onnx", fn_model([
    node("Hollow", ["x"], ["y"], domain="custom", name="hollow")],
    [function("Hollow", "custom", ["X"], ["Y"], [node("Shape", ["X"], ["S"], name="s")], opset=15)],
    [value_info("x", "float", [2])], [value_info("y", "int64")]))
# A graph passed in cannot see the call's own outputs (they are defined
# after the call); a GRAPH reference cannot take a GRAPHS attribute.
write("function_self_output.onnx", fn_model([
    node("Pick", ["flag"], ["y"], [
        attr("tb", A_GRAPH, graph([node("Shape", ["y"], ["sy"], name="shape_y")], [],
                                  [value_info("sy", "int64")], name="tb")),
        attr("eb", A_GRAPH, pick_else)], domain="custom", name="pick")],
    [pick], [value_info("x", "float", ["N", 3]), value_info("flag", "bool", [])],
    [value_info("y", "int64")]))
write("function_ref_type.onnx", fn_model([
    node("Pick", ["flag"], ["y"], [f_str(1, "tb") + f_int(20, 10) + f_bytes(11, pick_then),
                                   attr("eb", A_GRAPH, pick_else)], domain="custom", name="pick")],
    [pick], [value_info("x", "float", ["N", 3]), value_info("flag", "bool", [])],
    [value_info("y", "int64")]))
# A declaration of another rank, checked in each call's body: the body's
# value_info (FunctionProto field 12) declares the Shape's 1-D output as
# 2-D; the main graph declares the call's output, computed [2,3], as 1-D.
ranked = function("Ranked", "custom", ["X"], ["Y"], [
    node("Shape", ["X"], ["S"], name="shape"),
    node("Reshape", ["X", "S"], ["Y"], name="same")], opset=15) + \
    f_bytes(12, value_info("S", "int64", [2, 1]))
write("function_body_rank.onnx", fn_model([
    node("Ranked", ["x"], ["y"], domain="custom", name="call")],
    [ranked], [value_info("x", "float", [2, 3])], [value_info("y", "float", [6])]))
# Paths stay unique when a node's name holds "/" (a/then_branch/b here
# names a node of the main graph and a node in a's then_branch).
def two_branches(inner):
    return [attr("then_branch", A_GRAPH, graph(inner, [], [value_info("o", "int64")], name="t")),
            attr("else_branch", A_GRAPH, graph([node("Shape", ["x"], ["o"], name="e")], [],
                                               [value_info("o", "int64")], name="e"))]
write("paths_unique.onnx", model([
    node("If", ["flag"], ["ya"], two_branches([
        node("If", ["flag"], ["o"], two_branches([node("Shape", ["x"], ["o"], name="s")]),
             name="b")]), name="a"),
    node("If", ["flag"], ["yb"], two_branches([node("Shape", ["x"], ["o"], name="s")]),
         name="a/then_branch/b")],
    [value_info("x", "float", [2]), value_info("flag", "bool", [])],
    [value_info("ya", "int64"), value_info("yb", "int64")], opset=15))

# ---- the front door, round two (issue 30) ------------------------------------
# Squeeze with an empty axes list: Squeeze-11 squeezes every 1 (onnxruntime
# and the reference); Squeeze-13 with an empty axes input is not evaluated
# (D11), so the Reshape after it is not called certain to fail.
write("squeeze11_empty.onnx", model(
    [node("Squeeze", ["x"], ["y"], [attr("axes", A_INTS, [])], name="sq"),
     node("Constant", [], ["t"], [attr("value", A_TENSOR, tensor("", "int64", [1], raw=struct.pack("<q", 0)))]),
     node("Reshape", ["y", "t"], ["z"], name="r")],
    [value_info("x", "float", [1, 3])], [value_info("z", "float")], opset=11))
write("squeeze13_empty.onnx", model(
    [node("Squeeze", ["x", "ax"], ["y"], name="sq"),
     node("Constant", [], ["t"], [attr("value", A_TENSOR, tensor("", "int64", [1], raw=struct.pack("<q", 0)))]),
     node("Reshape", ["y", "t"], ["z"], [attr("allowzero", A_INT, 0)], name="r")],
    [value_info("x", "float", [1, 3])], [value_info("z", "float")],
    initializers=[tensor("ax", "int64", [0], raw=b"")], opset=14))
# Sparse tensors below the main graph: in an If's branches (an initializer,
# an attribute), a Loop body's value_info, a function's value_info and
# attribute default, and a main-graph input that is a sequence of them.
SPARSE = (f_bytes(1, tensor("sw", "float", [1], raw=floats(1.0))) +
          f_bytes(2, tensor("", "int64", [1], raw=struct.pack("<q", 0))) + f_int(3, 4))
SPARSE_ATTR = f_str(1, "value") + f_int(20, 11) + f_bytes(22, SPARSE)
THEN = graph([node("Identity", ["c"], ["o1"])], [], [value_info("o1", "float")],
             graph_extra=f_bytes(15, SPARSE))
ELSE = graph([node("Constant", [], ["o2"], [SPARSE_ATTR], name="sparse_const")], [],
             [value_info("o2", "float")])
BODY = graph([node("Identity", ["cond_in"], ["cond_out"])],
             [value_info("iter", "int64", []), value_info("cond_in", "bool", [])],
             [value_info("cond_out", "bool", [])],
             graph_extra=f_bytes(13, value_info_of("v", sparse_type("float", [4]))))
SPARSE_FN = (f_str(1, "SF") + f_str(4, "A") + f_str(5, "B") +
             f_bytes(7, node("Identity", ["A"], ["B"])) +
             f_bytes(9, f_str(1, "") + f_int(2, 16)) + f_str(10, "custom") +
             f_bytes(11, SPARSE_ATTR) + f_bytes(12, value_info_of("B", sparse_type("float", [2]))))
write("sparse_everywhere.onnx", model(
    [node("If", ["flag"], ["io"], [attr("then_branch", A_GRAPH, THEN),
                                   attr("else_branch", A_GRAPH, ELSE)], name="branch"),
     node("Loop", ["", "flag"], [], [attr("body", A_GRAPH, BODY)], name="loop"),
     node("SF", ["c"], ["f"], domain="custom", name="call")],
    [value_info("flag", "bool", []), value_info("c", "float", [4]),
     value_info_of("seqs", seq_type(sparse_type("float", [3])))],
    [value_info("io", "float"), value_info("f", "float")], opset=16,
    extra_opsets=[("custom", 1)]) + f_bytes(25, SPARSE_FN))
# Sparse tensor types as TYPE_PROTO(S) attributes (review finding 12): an
# Optional making an optional sparse tensor, one in an If branch making a
# sequence of them, a custom node listing a map to them among its types, a
# function's default; an Optional of a dense tensor (in the other branch and
# in the main graph) is no finding.


def type_attr(name, tp):
    """A TYPE_PROTO attribute, or TYPE_PROTOS for a list of TypeProtos."""
    if isinstance(tp, list):
        return f_str(1, name) + f_int(20, 14) + b"".join(f_bytes(15, t) for t in tp)
    return f_str(1, name) + f_int(20, 13) + f_bytes(14, tp)


TP_THEN = graph([node("Optional", [], ["so"], [type_attr("type", seq_type(sparse_type("float", [2])))],
                      name="seq_opt")], [], [value_info("so")])
TP_ELSE = graph([node("Optional", [], ["do"], [type_attr("type", tensor_type("float"))])], [],
                [value_info("do")])
TP_FN = (f_str(1, "TF") + f_str(5, "B") + f_bytes(7, node("Optional", [], ["B"], [])) +
         f_bytes(9, f_str(1, "") + f_int(2, 18)) + f_str(10, "custom") +
         f_bytes(11, type_attr("type", sparse_type("int64", [3]))))
write("sparse_types.onnx", model(
    [node("Optional", [], ["o"], [type_attr("type", sparse_type("float", [4, 4]))]),
     node("If", ["flag"], ["io"], [attr("then_branch", A_GRAPH, TP_THEN),
                                   attr("else_branch", A_GRAPH, TP_ELSE)], name="branch"),
     node("Types", [], ["t"], [type_attr("types", [tensor_type("float"), map_type(
         "int64", sparse_type("float", [1]))])], domain="custom", name="types"),
     node("Optional", [], ["dense"], [type_attr("type", tensor_type("float"))], name="dense"),
     node("TF", [], ["f"], domain="custom", name="call")],
    [value_info("flag", "bool", [])], [value_info("io", "float")], opset=18,
    extra_opsets=[("custom", 1)]) + f_bytes(25, TP_FN))
# Forty short input names and a long one (review finding 9): the list of
# inputs in "no graph input named ..." gets the room the two shortened
# names leave.
write("long_inputs.onnx", model(
    [node("Shape", ["L" * 100 + "_tensor_input_A"], ["s"])],
    [value_info("in%02d" % i, "float", [2]) for i in range(40)] +
    [value_info("L" * 100 + "_tensor_input_A", "float", [2])], [value_info("s", "int64")],
    opset=13))
# Findings longer than a message once placed (review finding 9): a
# portability risk of a Shape node with an 80-byte name in the branch of an
# If with an 80-byte name (its text was dropped whole after "in PATH: "),
# and Reshape-19 refusing an int4 input, whose list of allowed types leaves
# no room for " (known without input data)" (dropped).
LONG_THEN = graph([node("Shape", ["x"], ["y"], [attr("start", A_INT, 1)], name="S" * 80)], [],
                  [value_info("y")])
LONG_ELSE = graph([node("Shape", ["x"], ["z"], [attr("start", A_INT, 0), attr("end", A_INT, 1)])],
                  [], [value_info("z")])
write("long_risk.onnx", model(
    [node("If", ["c"], ["o"], [attr("then_branch", A_GRAPH, LONG_THEN),
                               attr("else_branch", A_GRAPH, LONG_ELSE)], name="I" * 80)],
    [value_info("x", "float"), value_info("c", "bool", [])], [value_info("o", "int64")], opset=15))
write("long_refusal.onnx", model(
    [node("Reshape", ["x", "s"], ["y"], name="R" * 80)], [value_info("x", "int4", [4])],
    [value_info("y", "int4")], initializers=[tensor("s", "int64", [1], raw=struct.pack("<q", 4))],
    opset=19))
# Bindings: two inputs that share N, a sequence input, an input with a
# near name.
write("two_n.onnx", model([node("Shape", ["a"], ["sa"]), node("Shape", ["b"], ["sb"])],
                          [value_info("a", "float", ["N", 3]), value_info("b", "float", ["N", 4])],
                          [value_info("sa", "int64"), value_info("sb", "int64")], opset=13))
# A declared type and shape joined with what an evaluated node leaves
# unknown (Gather of the output of an operator of another domain, which
# nothing declares), and a declaration that contradicts a computed type.
write("declared_join.onnx", model(
    [node("Relu", ["x"], ["r"], name="relu", domain="com.example"),
     node("Gather", ["r", "i"], ["g"], name="gather"),
     node("Shape", ["x"], ["s"], name="shape")],
    [value_info("x", "float", [2, 3])],
    [value_info("g", "float", ["B", 1]), value_info("s", "float", [2])],
    initializers=[tensor("i", "int64", [1], raw=struct.pack("<q", 0))], opset=13,
    extra_opsets=[("com.example", 1)]))
# run's refusal of a model with many operators of long names: the list
# ends with how many it left out, and the sentence ends.
write("many_ops.onnx", model(
    [node("Operator%02d_with_a_rather_long_name" % k, ["x"], ["y%d" % k]) for k in range(40)],
    [value_info("x", "float", [2])], [value_info("y0", "float")], opset=13))
# The work budget: Max over 1,024 inputs of 1,024 elements at rank 1,024,
# 8 times (2^30 units a node): the values are left unknown, and check says
# its analysis is incomplete.
A1024 = tensor("a", "int64", [1] * 1023 + [1024], raw=struct.pack("<1024q", *range(1024)))
write("work_budget.onnx", model([node("Max", ["a"] * 1024, ["m%d" % k], name="max%d" % k)
                                 for k in range(8)], [], [value_info("m7", "int64")],
                                initializers=[A1024], opset=13))
# A computed element type stays when a declaration of unknown rank is
# joined (Cast to int64 of a float input of unknown shape, value_info y
# float [2]): y is int64 [2], and check reports the declared type.
write("decl_type.onnx", model(
    [node("Cast", ["x"], ["y"], [attr("to", A_INT, 7)], name="cast"),
     node("Identity", ["y"], ["z"], name="id")],
    [value_info("x", "float")], [value_info("z", "int64")], opset=13,
    graph_extra=f_bytes(13, value_info("y", "float", [2]))))
# A conflict on a call of a model-local function whose node, output,
# domain and function names are all long: the finding still ends with
# what the value is.
LONG_FN = ("d" * 80, "F" * 80)
write("long_conflict.onnx", model(
    [node(LONG_FN[1], ["x"], ["o" * 80], domain=LONG_FN[0], name="c" * 80)],
    [value_info("x", "float", [5])], [value_info("o" * 80, "float", [6])], opset=13,
    extra_opsets=[(LONG_FN[0], 1)]) + f_bytes(25, f_str(1, LONG_FN[1]) + f_str(4, "A") +
                                           f_str(5, "Y") +
                                           f_bytes(7, node("Identity", ["A"], ["Y"])) +
                                           f_bytes(9, f_str(1, "") + f_int(2, 13)) +
                                           f_str(10, LONG_FN[0])))
# Nodes out of topological order (issue 31 item 5): the Identity that
# reads the Reshape's output comes first, the Shape last; in an If branch
# too (unnamed nodes are "#INDEX" by their place in the file). And two
# cycles: through three nodes, and a node that takes its own output.
ORDER_NODES = [node("Identity", ["y"], ["z"], name="last"),
               node("Reshape", ["x", "s"], ["y"], name="reshape"),
               node("Shape", ["x"], ["s"], name="shape")]
write("unordered.onnx", model(ORDER_NODES, [value_info("x", "float", ["N", 3])],
                              [value_info("z", "float")], opset=17))
unordered_branch = graph([node("Neg", ["t"], ["u"]), node("Shape", ["x"], ["t"])], [],
                         [value_info("u", "int64")], name="then_u")
write("unordered_branch.onnx", model(
    [node("If", ["c"], ["v"], [attr("then_branch", A_GRAPH, unordered_branch),
                               attr("else_branch", A_GRAPH, unordered_branch)], name="if_c")],
    [value_info("x", "float", ["N", 3]), value_info("c", "bool", [])],
    [value_info("v", "int64")], opset=17))
write("cycle.onnx", model([node("Identity", ["c"], ["a"], name="first"),
                           node("Identity", ["a"], ["b"], name="second"),
                           node("Identity", ["b"], ["c"], name="third")],
                          [value_info("x", "float", [2])], [value_info("c", "float")], opset=17))
write("self_cycle.onnx", model([node("Add", ["x", "y"], ["y"])],
                               [value_info("x", "float", [2])], [value_info("y", "float")], opset=17))
# check's validity rules (issue 32 item 3): a default-domain operator ONNX
# does not define (FooBar, named with a quote and a newline, and in an If
# branch, unnamed), and one used before its first version (Gelu is
# defined from opset 20; this model imports 17), spelled "ai.onnx".
foobar_branch = graph([node("FooBar", ["x"], ["t"])], [], [value_info("t", "float")],
                      name="then_t")
write("invalid_ops.onnx", model(
    [node("FooBar", ["x"], ["a"], name="foo\"\n"),
     node("Gelu", ["x"], ["b"], name="gelu", domain="ai.onnx"),
     node("If", ["c"], ["v"], [attr("then_branch", A_GRAPH, foobar_branch),
                               attr("else_branch", A_GRAPH, foobar_branch)], name="if_c")],
    [value_info("x", "float", [2]), value_info("c", "bool", [])],
    [value_info("a", "float"), value_info("b", "float"), value_info("v", "float")], opset=17))
# Operators ONNX deprecated: Upsample from opset 10, Scatter from 11 (both
# here at opset 11); Upsample at opset 9 is fine.
write("deprecated_ops.onnx", model(
    [node("Upsample", ["x", "scales"], ["u"], [attr("mode", A_STRING, b"nearest")], name="up"),
     node("Scatter", ["x", "idx", "upd"], ["s"])],
    [value_info("x", "float", [1, 2]), value_info("scales", "float", [2]),
     value_info("idx", "int64", [1, 1]), value_info("upd", "float", [1, 1])],
    [value_info("u", "float"), value_info("s", "float")], opset=11))
write("upsample9.onnx", model(
    [node("Upsample", ["x", "scales"], ["u"], [attr("mode", A_STRING, b"nearest")], name="up")],
    [value_info("x", "float", [1, 2]), value_info("scales", "float", [2])],
    [value_info("u", "float")], opset=9))
# Gelu at opset 20 is fine: no finding.
write("gelu20.onnx", model([node("Gelu", ["x"], ["y"], name="gelu")],
                           [value_info("x", "float", [2])], [value_info("y", "float")], opset=20))
# The same in a function's body, which imports opset 15 while the model
# imports 21: Gelu there is before its first version (the body's opset
# counts), and FooBar unknown; each named by the call's path.
early_fn = function("Early", "custom", ["X"], ["Y"], [
    node("Gelu", ["X"], ["g"], name="gelu"),
    node("FooBar", ["g"], ["Y"], name="foo")], opset=15)
# A deprecated operator in a function's body, whose own import (opset 11)
# counts: Upsample and Scatter there; the model's opset 9 has them both.
old_fn = function("Old", "custom", ["X", "S", "I", "U"], ["Y", "Z"], [
    node("Upsample", ["X", "S"], ["Y"], [attr("mode", A_STRING, b"nearest")], name="up"),
    node("Scatter", ["X", "I", "U"], ["Z"], name="sc")], opset=11)
write("deprecated_function.onnx", fn_model(
    [node("Old", ["x", "s", "i", "u"], ["y", "z"], domain="custom", name="call")],
    [old_fn], [value_info("x", "float", [1, 2]), value_info("s", "float", [2]),
               value_info("i", "int64", [1, 1]), value_info("u", "float", [1, 1])],
    [value_info("y", "float"), value_info("z", "float")], opset=9))
write("invalid_ops_function.onnx", fn_model(
    [node("Early", ["x"], ["y"], domain="custom", name="call"),
     node("Gelu", ["x"], ["z"], name="gelu_ok")],
    [early_fn], [value_info("x", "float", [2])],
    [value_info("y", "float"), value_info("z", "float")], opset=21))
# Shape's start of the wrong type, in every version that has start and end
# (15 and later): the message names start, not end (issue 33).
for v in (15, 19, 21, 23, 24, 25):
    write("shape_start_float_%d.onnx" % v,
          model([node("Shape", ["x"], ["y"], [attr("start", A_FLOAT, 1.0)], name="sh")],
                [value_info("x", "float", [2])], [value_info("y", "int64")], opset=v))
# A scalar target (an empty shape) for data of 24 elements, and of 0.
write("scalar_target.onnx",
      model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, [])]),
             node("Reshape", ["x", "s"], ["y"], name="to_scalar")],
            [value_info("x", "float")], [value_info("y", "float")], opset=14))
write("x0.pb", tensor("x", "float", [2, 0, 4], raw=b""))
# A model without graph inputs, for --input's message (issue 33).
write("no_inputs.onnx",
      model([node("Constant", [], ["c"], [attr("value_ints", A_INTS, [2, 3])]),
             node("Shape", ["c"], ["y"], name="sh")], [], [value_info("y", "int64")], opset=15))
# Portability findings of check: Shape's start outside [-r, r] (D6); allowzero=1
# with a target computed at run time, and with a known 0 beside a value that
# may be -1 (D1).
write("portability_risks.onnx",
      model([node("Shape", ["x"], ["s"], [attr("start", A_INT, 5)], name="far_start"),
             node("Reshape", ["x", "t"], ["r1"], [attr("allowzero", A_INT, 1)], name="runtime_target"),
             node("Shape", ["x"], ["d"], name="dims"),
             node("Gather", ["d", "zero"], ["d0"], [attr("axis", A_INT, 0)], name="first_dim"),
             node("Sub", ["d0", "one"], ["m"], name="minus"),
             node("Concat", ["zero1", "m"], ["t2"], [attr("axis", A_INT, 0)], name="zero_and_any"),
             node("Reshape", ["x", "t2"], ["r2"], [attr("allowzero", A_INT, 1)], name="known_zero")],
            [value_info("x", "float", ["N", 3]), value_info("t", "int64", [2])],
            [value_info("s", "int64"), value_info("r1", "float"), value_info("r2", "float")],
            initializers=[tensor("zero", "int64", [1], raw=struct.pack("<q", 0)),
                          tensor("one", "int64", [1], raw=struct.pack("<q", 1)),
                          tensor("zero1", "int64", [1], raw=struct.pack("<q", 0))],
            opset=15))
# SONNX's sparse findings of declarations (issue 33): a graph output that is
# a sparse tensor, one that holds one (an optional), a value_info that holds
# one (a sequence).
write("sonnx_sparse_decls.onnx", model(
    [node("Identity", ["sp"], ["so"], name="i1"), node("Identity", ["sp"], ["sq"], name="i2"),
     node("Identity", ["sp"], ["sv"], name="i3"), node("Identity", ["sv"], ["y"], name="i4")],
    [sp_input],
    [value_info_of("so", sparse_type("float", [4])),
     value_info_of("sq", optional_type(sparse_type("float", [4]))), value_info("y", "float")],
    opset=15, graph_extra=f_bytes(13, value_info_of("sv", seq_type(sparse_type("float", [4]))))))
# Twelve symbols of 16 letters, more than --dim's message lists.
write("many_symbols.onnx", model(
    [node("Shape", ["x"], ["y"], name="sh")],
    [value_info("x", "float", ["symbol_number_%02d" % i for i in range(12)])],
    [value_info("y", "int64")], opset=15))
# 70 operators run does not execute, more than its message lists.
write("seventy_ops.onnx", model(
    [node("Op%02d" % i, ["x"], ["y%d" % i], name="n%d" % i, domain="com.example")
     for i in range(70)],
    [value_info("x", "float", [2])], [value_info("y0", "float")], opset=15,
    extra_opsets=[("com.example", 1)]))
# A sparse initializer that does not decode: check's sparse scan still finds
# it, unnamed (issue 33).
write("sparse_garbage.onnx", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)) +
      f_bytes(7, f_bytes(11, value_info("x", "float", [2])) + f_bytes(12, value_info("x", "float", [2])) +
              f_bytes(15, b"\x0a\xff\xff\xff\xff\x0f")))
