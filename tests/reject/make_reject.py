#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the rejected-input corpus: tests/reject/files/* and
tests/reject/MANIFEST, one line per case:
    NAME <TAB> EXIT <TAB> MESSAGE FRAGMENT <TAB> ONNXSHAPE ARGUMENTS
run from tests/reject/files. The fragment is the whole message after
"onnxshape: error: ", so that each case pins its message's every word
(scripts/check-messages, DIAG-PINNED). Usage: make_reject.py OUTDIR (normally tests/reject)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance"))
from onnxpb import (A_FLOAT, A_INT, A_INTS, A_TENSOR, attr, f_bytes, f_int, f_str, graph,  # noqa: E402
                    storage_bytes,
                    model, node, tensor, value_info, varint)

out = sys.argv[1]
files = os.path.join(out, "files")
os.makedirs(files, exist_ok=True)
for old in os.listdir(files):
    if old != "outside-link.bin":
        os.remove(os.path.join(files, old))
cases = []


def write(name, data):
    with open(os.path.join(files, name), "wb") as f:
        f.write(data)


def case(name, exit_code, fragment, args):
    assert "\t" not in fragment
    cases.append("%s\t%d\t%s\t%s" % (name, exit_code, fragment, args))


def reject_model(name, data, fragment, exit_code=1, inputs=""):
    write(name + ".onnx", data)
    case(name, exit_code, fragment, "run %s.onnx%s" % (name, inputs))


def reject_tensor(name, data, fragment, exit_code=1):
    write(name + ".pb", data)
    case(name, exit_code, fragment, "run float_identity.onnx -i %s.pb" % name)


F6 = struct.pack("<6f", *range(6))
X = value_info("x", "float", [2, 3])
Y = value_info("y", "float")
write("float_identity.onnx", model([node("Identity", ["x"], ["y"])], [value_info("x", "float")],
                                   [Y], opset=13))
write("x23.pb", tensor("x", "float", [2, 3], raw=F6))
good = model([node("Shape", ["x"], ["y"])], [X], [value_info("y", "int64")], opset=13)

# ---- protobuf ------------------------------------------------------------
reject_model("garbage", b"\xde\xad\xbe\xef" * 16, "'garbage.onnx' is not a valid ONNX model (protobuf decoding failed)")
reject_model("truncated_model", good[:len(good) - 7], "'truncated_model.onnx' is not a valid ONNX model (protobuf decoding failed)")
reject_model("wrong_wire_type", f_int(1, 8) + f_int(7, 5), "'wrong_wire_type.onnx' is not a valid ONNX model (protobuf decoding failed)")
reject_model("empty_model", b"", "empty_model.onnx: ir_version 0 is not supported (opset imports need IR version 3 or later)")
reject_tensor("garbage_tensor", b"\x0a\xff\xff\xff\xff\xff", "'garbage_tensor.pb' is not a valid TensorProto file (6 bytes)")
reject_tensor("truncated_tensor", tensor("x", "float", [2, 3], raw=F6)[:20],
              "'truncated_tensor.pb' is not a valid TensorProto file (20 bytes)")

# ---- model structure -----------------------------------------------------
# covers: OPSET-DOMAIN OPSET-RANGE ERROR-MESSAGE
# covers: MODEL-WELL-FORMED MODEL-NAMES MODEL-DECODE
reject_model("ir_version_2", model([node("Shape", ["x"], ["y"])], [X], [value_info("y", "int64")],
                                   ir_version=2), "ir_version_2.onnx: ir_version 2 is not supported (opset imports need IR version 3 or later)")
reject_model("no_graph", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)),
             "no_graph.onnx: the model has no graph")
no_default = f_int(1, 8) + f_bytes(8, f_str(1, "com.microsoft") + f_int(2, 1))
reject_model("no_default_opset", no_default + f_bytes(7, f_str(2, "g")),
             "no_default_opset.onnx: the model has no default-domain opset import")
reject_model("opset_0", model([], [X], [X], opset=0), "opset_0.onnx: the model imports default-domain opset 0; this build supports 1 to 28")
reject_model("opset_29", model([], [X], [X], opset=29), "opset_29.onnx: the model imports default-domain opset 29; this build supports 1 to 28")
reject_model("opset_twice", model([], [X], [X], opset=13, extra_opsets=[("ai.onnx", 14)]),
             "opset_twice.onnx: the default domain is imported twice")
reject_model("other_domain", model([node("Shape", ["x"], ["y"], domain="com.example")], [X], [Y]),
             "other_domain.onnx: run executes Shape, Reshape, Size, Constant and Identity only; "
             "this model also has com.example:Shape (1) (use infer or check to analyse it)")
reject_model("unsupported_operator", model([node("Relu", ["x"], ["y"], name="act")], [X], [Y]),
             "unsupported_operator.onnx: run executes Shape, Reshape, Size, Constant and Identity only; this model also has Relu (1) (use infer or check to analyse it)")
reject_model("input_never_produced",
             model([node("Reshape", ["x", "s"], ["y"], name="r"), node("Shape", ["x"], ["t"])],
                   [X], [Y]),
             "input_never_produced.onnx: Reshape-13 (node 'r'): input 's' is not a graph input, "
             "an initializer or the output of an earlier node")
reject_model("node_cycle",
             model([node("Reshape", ["x", "s"], ["y"], name="r"), node("Shape", ["y"], ["s"], name="sh")],
                   [X], [Y]),
             "node_cycle.onnx: node 'sh' takes 'y', which depends on the node's own outputs: the nodes form a cycle")
reject_model("duplicate_node_output",
             model([node("Shape", ["x"], ["y"]), node("Size", ["x"], ["y"], name="second")],
                   [X], [value_info("y", "int64")]),
             "duplicate_node_output.onnx: Size-13 (node 'second'): output 'y' is already defined")
reject_model("duplicate_graph_input", model([], [X, X], [X]), "duplicate_graph_input.onnx: the name 'x' is defined twice")
reject_model("duplicate_initializer",
             model([], [], [X], initializers=[tensor("x", "float", [2, 3], raw=F6)] * 2),
             "duplicate_initializer.onnx: the name 'x' is defined twice")
reject_model("output_not_produced", model([], [X], [value_info("z", "float")]),
             "output_not_produced.onnx: graph output 'z' is not produced by any node, input or initializer")
reject_model("untyped_input", model([node("Shape", ["x"], ["y"])], [f_str(1, "x")],
                                    [value_info("y", "int64")]),
             "untyped_input.onnx: graph input 'x' has no type (ONNX requires one for graph inputs and outputs)")
seq_input = f_str(1, "x") + f_bytes(2, f_bytes(4, b""))
reject_model("sequence_input", model([], [seq_input], [X]), "sequence_input.onnx: run takes and gives tensors only; graph input 'x' is a sequence (use infer or check to analyse the model)")
reject_model("no_outputs", model([], [X], []), "no_outputs.onnx: the graph has no outputs")
reject_model("unnamed_input", model([], [value_info("", "float")], [X]), "unnamed_input.onnx: a graph input has no name")
g_sparse = (f_bytes(11, X) + f_bytes(12, X) + f_bytes(15, b"\x0a\x00"))
reject_model("sparse_initializer_unnamed", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)) +
             f_bytes(7, g_sparse), "sparse_initializer_unnamed.onnx: sparse initializer 0 has no name")
# a SparseTensorProto: values (a TensorProto named "w" of int64), dims [4]
g_sparse_w = (f_bytes(11, X) + f_bytes(12, X) +
              f_bytes(15, f_bytes(1, f_int(2, 7) + f_str(8, "w")) + f_int(3, 4)))
reject_model("sparse_initializer", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)) +
             f_bytes(7, g_sparse_w), "sparse_initializer.onnx: run does not take sparse initializers ('w'); use infer or check to analyse the model")

# ---- attributes and inputs ----------------------------------------------
# covers: SHAPE-ATTRS-VERSION RESHAPE-ALLOWZERO-VERSION RESHAPE-INPUTS RESHAPE-V1-ATTRIBUTE
reject_model("shape_start_before_15",
             model([node("Shape", ["x"], ["y"], [attr("start", A_INT, 1)])], [X], [Y], opset=13),
             "shape_start_before_15.onnx: Shape-13 (node '#0'): attribute 'start' is not defined for Shape-13")
reject_model("allowzero_before_14",
             model([node("Reshape", ["x", "x"], ["y"], [attr("allowzero", A_INT, 0)])], [X], [Y],
                   opset=13),
             "allowzero_before_14.onnx: Reshape-13 (node '#0'): attribute 'allowzero' is not defined for Reshape-13")
reject_model("wrong_attribute_type",
             model([node("Shape", ["x"], ["y"], [attr("end", A_FLOAT, 1.0)])], [X], [Y], opset=15),
             "wrong_attribute_type.onnx: Shape-15 (node '#0'): attribute 'end' has type FLOAT; it must be INT")
reject_model("missing_required_attribute",
             model([node("Reshape", ["x"], ["y"])], [X], [Y], opset=1, ir_version=3),
             "missing_required_attribute.onnx: Reshape-1 (node '#0'): required attribute 'shape' is missing")
reject_model("attribute_twice",
             model([node("Shape", ["x"], ["y"], [attr("end", A_INT, 1), attr("end", A_INT, 2)])],
                   [X], [Y], opset=15), "attribute_twice.onnx: Shape-15 (node '#0'): attribute 'end' is set twice")
reject_model("reshape_one_input", model([node("Reshape", ["x"], ["y"])], [X], [Y], opset=14),
             "reshape_one_input.onnx: Reshape-14 (node '#0'): takes 2 inputs; the node has 1")
reject_model("shape_two_outputs", model([node("Shape", ["x"], ["y", "z"])], [X], [Y], opset=13),
             "shape_two_outputs.onnx: Shape-13 (node '#0'): has 1 output; the node has 2")
reject_model("empty_input_name", model([node("Reshape", ["x", ""], ["y"])], [X], [Y], opset=14),
             "empty_input_name.onnx: Reshape-14 (node '#0'): input 1 is empty; it is not optional")
reject_model("constant_two_values",
             model([node("Constant", [], ["y"], [attr("value_int", A_INT, 1),
                                                  attr("value_ints", A_INTS, [1])])], [], [Y]),
             "constant_two_values.onnx: Constant-13 (node '#0'): Constant takes exactly one value attribute; both 'value_int' and 'value_ints' are set")
reject_model("constant_no_value", model([node("Constant", [], ["y"])], [], [Y]),
             "constant_no_value.onnx: Constant-13 (node '#0'): Constant needs one value attribute")
sparse_attr = f_str(1, "sparse_value") + f_int(20, 11) + f_bytes(22, b"")
reject_model("constant_sparse", model([node("Constant", [], ["y"], [sparse_attr])], [], [Y]),
             "constant_sparse.onnx: Constant-13 (node '#0'): sparse_value is not supported")
reject_model("ref_attr_name",
             model([node("Shape", ["x"], ["y"], [attr("start", A_INT, 0) + f_str(21, "s")])], [X],
                   [Y], opset=15), "ref_attr_name.onnx: Shape-15 (node '#0'): attribute 'start' refers to a function attribute, which is only valid inside a function")

# ---- type sets per version -----------------------------------------------
# covers: TYPE-SET TYPE-SET-RESHAPE1
for name, op, opset, type_name, fragment in (
        ("shape1_bfloat16", "Shape", 12, "bfloat16", "shape1_bfloat16.onnx: Shape-1 (node '#0'): input type bfloat16 is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128)"),
        ("reshape13_float8", "Reshape", 18, "float8e4m3fn", "reshape13_float8.onnx: Reshape-14 (node '#0'): input type float8e4m3fn is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128, bfloat16)"),
        ("size19_int4", "Size", 20, "int4", "size19_int4.onnx: Size-19 (node '#0'): input type int4 is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz)"),
        ("reshape21_float4", "Reshape", 22, "float4e2m1", "reshape21_float4.onnx: Reshape-21 (node '#0'): input type float4e2m1 is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, uint4, int4)"),
        ("shape23_float8e8m0", "Shape", 23, "float8e8m0", "shape23_float8e8m0.onnx: Shape-23 (node '#0'): input type float8e8m0 is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, uint4, int4, float4e2m1)"),
        ("size24_uint2", "Size", 24, "uint2", "size24_uint2.onnx: Size-24 (node '#0'): input type uint2 is not allowed (allowed: float, uint8, int8, uint16, int16, int32, int64, string, bool, float16, double, uint32, uint64, complex64, complex128, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, uint4, int4, float4e2m1, float8e8m0)"),
        ("reshape1_int32", "Reshape", 4, "int32", "reshape1_int32.onnx: Reshape-1 (node '#0'): input type int32 is not allowed (allowed: float, float16, double)"),
        ("identity13_float8", "Identity", 18, "float8e5m2", "identity13_float8.onnx: Identity-16 (node '#0'): input type float8e5m2 is not allowed")):
    ins = ["x"] if op != "Reshape" or opset < 5 else ["x", "s"]
    attrs = [attr("shape", A_INTS, [-1])] if op == "Reshape" and opset < 5 else []
    inits = [tensor("s", "int64", [1], raw=struct.pack("<q", -1))] if len(ins) == 2 else []
    write(name + ".onnx", model([node(op, ins, ["y"], attrs)], [value_info("x", type_name, [4])],
                                [value_info("y", "int64" if op in ("Shape", "Size") else type_name)],
                                initializers=inits, opset=opset))
    write(name + ".pb", tensor("x", type_name, [4], raw=bytes(storage_bytes(type_name, 4))))
    case(name, 1, fragment, "run %s.onnx -i %s.pb" % (name, name))
reject_model("constant1_int64",
             model([node("Constant", [], ["y"], [attr("value", A_TENSOR,
                                                      tensor("", "int64", [1], raw=bytes(8)))])],
                   [], [value_info("y", "int64")], opset=1, ir_version=3),
             "constant1_int64.onnx: Constant-1 (node '#0'): value type int64 is not allowed (allowed: float, float16, double)")

# ---- tensors ---------------------------------------------------------------
# covers: DIMS-COUNT STORAGE-RAW STORAGE-TYPED-FIELDS STORAGE-STRINGS STORAGE-PACKED STORAGE-BYTES
reject_tensor("negative_dim", tensor("x", "float", [2, -3], raw=b""), "tensor 'x': dims[1] = -3 is negative")
reject_tensor("overflowing_dims", tensor("x", "float", [1 << 40, 1 << 40], raw=b""),
              "tensor 'x': the element count overflows int64")
reject_tensor("raw_data_short", tensor("x", "float", [2, 3], raw=F6[:-4]),
              "tensor 'x': raw_data holds 20 bytes; 6 elements of float need 24")
reject_tensor("raw_data_long", tensor("x", "float", [2, 3], raw=F6 + b"\0"),
              "tensor 'x': raw_data holds 25 bytes; 6 elements of float need 24")
reject_tensor("int4_raw_data_long", tensor("x", "int4", [3], raw=b"\0\0\0"),
              "tensor 'x': raw_data holds 3 bytes; 3 elements of int4 need 2")
reject_tensor("typed_count_mismatch", tensor("x", "float", [2, 3], typed=(4, F6[:-4])),
              "tensor 'x': float_data holds 5 values; dims need 6")
reject_tensor("wrong_typed_field", tensor("x", "int64", [2], typed=(4, struct.pack("<2f", 1, 2))),
              "tensor 'x': a int64 tensor keeps its values in int64_data, not float_data")
reject_tensor("unknown_data_type", f_int(1, 1) + f_int(2, 27) + f_bytes(9, b"\0"),
              "tensor '(unnamed)': data_type 27 is not a known type (1 to 26)")
# covers: TENSOR-FILE-KIND (a tensor file without a data_type is no tensor)
reject_tensor("no_data_type", f_int(1, 1) + f_bytes(9, b"\0"),
              "'no_data_type.pb' does not look like a TensorProto (no data_type; an ONNX model or another file?)")
reject_tensor("strings_in_raw_data", tensor("x", "string", [1], raw=b"abc"),
              "tensor 'x': string tensors keep their values in string_data, never raw_data")
reject_tensor("int8_out_of_range", tensor("x", "int8", [2], typed=(5, varint(1) + varint(300))),
              "tensor 'x': int32_data[1] = 300 is out of range for int8 (-128 to 127)")
reject_tensor("bool_out_of_range", tensor("x", "bool", [1], typed=(5, varint(2))),
              "tensor 'x': int32_data[0] = 2 is out of range for bool (0 to 1)")
reject_tensor("uint32_out_of_range", tensor("x", "uint32", [1], typed=(11, varint(1 << 32))),
              "tensor 'x': uint64_data[0] = 4294967296 does not fit uint32")
reject_tensor("two_payloads", tensor("x", "float", [2, 3], raw=F6, typed=(4, F6)),
              "tensor 'x': more than one of raw_data, external data and the typed fields is set")
reject_tensor("no_payload", tensor("x", "float", [2, 3]), "tensor 'x': 6 elements but no data")
reject_tensor("segment", tensor("x", "float", [1], raw=bytes(4)) + f_bytes(3, f_int(1, 0)),
              "tensor 'x': segmented tensors are not supported")


def ext(location, **kw):
    pairs = [("location", location)] if location is not None else []
    pairs += [(k, v) for k, v in kw.items()]
    return tensor("x", "float", [2, 3], external=pairs)


write("data24.bin", F6)
reject_tensor("external_outside_dir", ext("../../../README.md"),
              "external data location '../../../README.md' has a '..' component; it must stay inside "
              "the model directory")
reject_tensor("external_absolute", ext("/etc/hostname"), "external data location '/etc/hostname' is absolute; it must be relative to the model")
reject_tensor("external_missing_file", ext("no-such-file.bin"),
              "cannot open external data file 'no-such-file.bin' in '.': No such file or directory", exit_code=2)
reject_tensor("external_length_mismatch", ext("data24.bin", length="20"),
              "tensor 'x': external data length 20 does not match the 24 bytes its dims need")
reject_tensor("external_offset_past_end", ext("data24.bin", offset="100"),
              "tensor 'x': external data offset 100 is past the end of 'data24.bin' (24 bytes)")
reject_tensor("external_bad_offset", ext("data24.bin", offset="-4"),
              "tensor 'x': external data offset '-4' is not a non-negative integer")
reject_tensor("external_no_location", ext(None), "tensor 'x': external data without a location")
reject_tensor("external_strings", tensor("x", "string", [1], external=[("location", "data24.bin")]),
              "tensor 'x': string tensors cannot use external data")
reject_tensor("external_through_link", ext("outside-link.bin"),
              "external data location 'outside-link.bin' goes through a symbolic link; links are not followed out of or inside the model directory '.'")
reject_model("initializer_outside_dir",
             model([node("Identity", ["x"], ["y"])], [], [Y],
                   initializers=[tensor("x", "float", [2, 3],
                                        external=[("location", "../make_reject.py")])]),
             "initializer_outside_dir.onnx: external data location '../make_reject.py' has a '..' component; it must stay inside the model directory")
# covers: EXTERNAL-KEYS
# A repeated key: ONNX's loader takes the last, others the first.
reject_tensor("external_location_twice",
              tensor("x", "float", [2, 3], external=[("location", "data24.bin"),
                                                     ("location", "x23.pb")]),
              "tensor 'x': external data key 'location' is given twice; readers disagree on which one holds")
reject_tensor("external_offset_twice",
              tensor("x", "float", [2, 3], external=[("location", "data24.bin"), ("offset", "0"),
                                                     ("offset", "4")]),
              "tensor 'x': external data key 'offset' is given twice; readers disagree on which one holds")
reject_tensor("external_unknown_key", ext("data24.bin", basepath="/tmp"),
              "tensor 'x': external data key 'basepath' is not one of location, offset, length, checksum")
# Messages state the file's real size and the length as given.
reject_tensor("external_offset_past_end_size", ext("data24.bin", offset="25"),
              "tensor 'x': external data offset 25 is past the end of 'data24.bin' (24 bytes)")
reject_tensor("external_length_huge", ext("data24.bin", length="18446744073709551615"),
              "tensor 'x': external data length 18446744073709551615 does not match the 24 bytes its dims need")
reject_tensor("external_length_too_big", ext("data24.bin", length="18446744073709551616"),
              "tensor 'x': external data length '18446744073709551616' is not a non-negative integer")
reject_tensor("external_runs_past_end", ext("data24.bin", offset="4"),
              "tensor 'x': its 24 bytes at offset 4 run past the end of 'data24.bin' (24 bytes)")
# covers: MODEL-INPUT-DEFAULT
# An initializer giving a graph input its default must fit the declaration.
reject_model("default_wrong_type",
             model([node("Identity", ["c"], ["y"])], [value_info("c", "float", [2, 3])], [Y],
                   initializers=[tensor("c", "int64", [2], raw=bytes(16))]),
             "default_wrong_type.onnx: input 'c' is declared float but its initializer is int64")
reject_model("default_wrong_rank",
             model([node("Identity", ["c"], ["y"])], [value_info("c", "float", [2, 3])], [Y],
                   initializers=[tensor("c", "float", [6], raw=bytes(24))]),
             "default_wrong_rank.onnx: input 'c' is declared with rank 2 but its initializer is rank 1")
reject_model("default_wrong_dim",
             model([node("Identity", ["c"], ["y"])], [value_info("c", "float", ["N", 3])], [Y],
                   initializers=[tensor("c", "float", [3, 2], raw=bytes(24))]),
             "default_wrong_dim.onnx: input 'c' is declared with dim 1 = 3 but its initializer is 2")

# ---- Reshape rules at run time ---------------------------------------------
# covers: RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-ZERO-COPY-RANGE
# covers: RESHAPE-ALLOWZERO-INFERRED RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT
# covers: RESHAPE-OVERFLOW RESHAPE-SCALAR RESHAPE-ALLOWZERO-VALUES RESHAPE-SHAPE-INPUT ERROR-MESSAGE
def reshape_case(name, target, fragment, allowzero=None, dims=(2, 3), data=F6, opset=14):
    attrs = [attr("allowzero", A_INT, allowzero)] if allowzero is not None else []
    m = model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, target)]),
               node("Reshape", ["x", "s"], ["y"], attrs, name="r")],
              [value_info("x", "float", list(dims))], [Y], opset=opset)
    write(name + ".onnx", m)
    write(name + ".pb", tensor("x", "float", list(dims), raw=data))
    case(name, 1, fragment, "run %s.onnx -i %s.pb" % (name, name))


reshape_case("reshape_below_minus_one", [2, -2], "reshape_below_minus_one.onnx: Reshape-14 (node 'r'): shape[1] = -2; a dimension cannot be below -1")
reshape_case("reshape_two_minus_one", [-1, -1], "reshape_two_minus_one.onnx: Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one dimension can be inferred")
reshape_case("reshape_zero_out_of_range", [6, 0, 0], "reshape_zero_out_of_range.onnx: Reshape-14 (node 'r'): shape[2] = 0 copies input dimension 2, but the input has rank 2")
reshape_case("reshape_allowzero_zero_and_minus_one", [0, -1], "reshape_allowzero_zero_and_minus_one.onnx: Reshape-14 (node 'r'): with allowzero=1, shape[0] = 0 and shape[1] = -1 cannot be combined", allowzero=1, dims=(0, 3), data=b"")
reshape_case("reshape_minus_one_from_zero", [0, -1], "reshape_minus_one_from_zero.onnx: Reshape-14 (node 'r'): shape[1] = -1 cannot be inferred: the other dimensions multiply to 0", dims=(0, 3), data=b"")
reshape_case("reshape_not_divisible", [4, -1], "reshape_not_divisible.onnx: Reshape-14 (node 'r'): shape[1] = -1 cannot be inferred: 6 elements do not divide by 4")
reshape_case("reshape_count_mismatch", [4, 2], "reshape_count_mismatch.onnx: Reshape-14 (node 'r'): the target holds 8 elements, but the data has 6")
reshape_case("reshape_overflow_wraps", [2305843009213693955, 8], "reshape_overflow_wraps.onnx: Reshape-14 (node 'r'): the product of the target dimensions overflows int64 at shape[1] = 8", dims=(24,), data=bytes(96))
reshape_case("reshape_empty_target", [], "reshape_empty_target.onnx: Reshape-14 (node 'r'): an empty shape means a scalar (1 element), but the data has 6 elements")
reshape_case("reshape_allowzero_2", [6], "reshape_allowzero_2.onnx: Reshape-14 (node 'r'): allowzero = 2; it must be 0 or 1", allowzero=2)
reshape_case("reshape_allowzero_minus_1", [6], "reshape_allowzero_minus_1.onnx: Reshape-14 (node 'r'): allowzero = -1; it must be 0 or 1", allowzero=-1)
write("shape_int32.onnx", model([node("Constant", [], ["s"], [attr("value", A_TENSOR, tensor("", "int32", [1], raw=struct.pack("<i", 6)))]),
                                 node("Reshape", ["x", "s"], ["y"])], [X], [Y], opset=14))
case("reshape_shape_int32", 1, "shape_int32.onnx: Reshape-14 (node '#1'): the 'shape' input is int32; it must be int64", "run shape_int32.onnx -i x23.pb")
write("shape_2d.onnx", model([node("Constant", [], ["s"], [attr("value", A_TENSOR, tensor("", "int64", [1, 2], raw=struct.pack("<2q", 3, 2)))]),
                              node("Reshape", ["x", "s"], ["y"])], [X], [Y], opset=14))
case("reshape_shape_2d", 1, "shape_2d.onnx: Reshape-14 (node '#1'): the 'shape' input has rank 2; it must be 1-D", "run shape_2d.onnx -i x23.pb")

# ---- bindings and declarations ---------------------------------------------
write("x23_int64.pb", tensor("x", "int64", [2, 3], raw=bytes(48)))
case("input_wrong_type", 1, "reshape_count_mismatch.onnx: input 'x' is declared float but bound to int64",
     "run reshape_count_mismatch.onnx -i x23_int64.pb")
write("x32.pb", tensor("x", "float", [3, 2], raw=F6))
case("input_wrong_dims", 1, "reshape_count_mismatch.onnx: input 'x' is declared with dim 0 = 2 but bound to 3",
     "run reshape_count_mismatch.onnx -i x32.pb")
reject_model("output_declared_type",
             model([node("Shape", ["x"], ["y"])], [X], [value_info("y", "float")], opset=13),
             "output_declared_type.onnx: graph output 'y' is declared float but the graph produces int64", inputs=" -i x23.pb")
reject_model("output_declared_dims",
             model([node("Shape", ["x"], ["y"])], [X], [value_info("y", "int64", [3])], opset=13),
             "output_declared_dims.onnx: graph output 'y' is declared with dim 0 = 3 but the graph produces 2",
             inputs=" -i x23.pb")

# ---- names holding a NUL byte (refused whichever decoder reads them) ------
# covers: MODEL-NAMES-NUL
XI = value_info("x", "float")
reject_model("nul_undefined_input",
             model([node("Identity", ["x\0evil"], ["y"])], [XI], [Y], opset=13),
             "nul_undefined_input.onnx: the name 'x\\x00evil' holds a NUL byte; onnxshape refuses such names (as C strings they would end there, and two names could read as one)", exit_code=1)
reject_model("nul_two_inputs",
             model([node("Identity", ["x\0a"], ["y"])],
                   [value_info("x\0a", "float"), value_info("x\0b", "float")], [Y], opset=13),
             "nul_two_inputs.onnx: the name 'x\\x00a' holds a NUL byte; onnxshape refuses such names (as C strings they would end there, and two names could read as one)")
# A singular field given twice: the fast decoder leaves the node to
# protobuf-c, whose strings end at the NUL; the names are checked after it.
reject_model("nul_protobuf_c_path",
             model([node("Identity", ["x\0evil"], ["y"], name="a") + f_str(3, "b")], [XI], [Y],
                   opset=13),
             "nul_protobuf_c_path.onnx: the name 'x\\x00evil' holds a NUL byte; onnxshape refuses such names (as C strings they would end there, and two names could read as one)")
# In a model-local function's body (FunctionProto: protobuf-c only).
FN = (f_str(1, "F") + f_str(4, "i") + f_str(5, "o") +
      f_bytes(7, node("Identity", ["i\0z"], ["o"])) + f_bytes(9, f_str(1, "") + f_int(2, 13)) +
      f_str(10, "custom"))
reject_model("nul_function_body",
             model([node("F", ["x"], ["y"], domain="custom")], [XI], [Y], opset=13,
                   extra_opsets=[("custom", 1)]) + f_bytes(25, FN),
             "nul_function_body.onnx: the name 'i\\x00z' holds a NUL byte; onnxshape refuses such names (as C strings they would end there, and two names could read as one)", inputs="")
reject_tensor("nul_tensor_name", tensor("x\0y", "float", [2, 3], raw=F6),
              "'nul_tensor_name.pb': the name 'x\\x00y' holds a NUL byte; onnxshape refuses such names (as C strings they would end there, and two names could read as one)")

# ---- declarations, nodes and attributes (issue 33: every message pinned) ---
def vi_raw(name, elem=None, dims=None, typed=True):
    """A ValueInfoProto of a tensor: elem the element type number (None:
    not set), dims the dim values; typed False: no type at all."""
    if not typed:
        return f_str(1, name)
    t = b"" if elem is None else f_int(1, elem)
    if dims is not None:
        t += f_bytes(2, b"".join(f_bytes(1, f_int(1, d)) for d in dims))
    return f_str(1, name) + f_bytes(2, f_bytes(1, t))


SH = [node("Shape", ["x"], ["y"])]
YI = value_info("y", "int64")
for where, place in (("input", "in"), ("output", "out"), ("value_info", "vi")):
    for what, v in (("unknown_type", vi_raw("v", 99, [2])), ("no_elem_type", vi_raw("v", None, [2])),
                    ("negative_dim", vi_raw("v", 1, [2, -2]))):
        if place == "vi" and what != "negative_dim":
            continue  # value_info may say less: no type rule (graph.c, load_decl)
        name = "declared_%s_%s" % (where, what)
        vv = v.replace(b"\x0a\x01v", b"\x0a\x01x") if place == "in" else v
        if place == "in":
            data = model(SH, [vv], [YI], opset=13)
        elif place == "out":
            data = model([node("Shape", ["x"], ["v"])], [X], [vv], opset=13)
        else:
            data = model([node("Shape", ["x"], ["v"]), node("Identity", ["v"], ["y"])], [X], [YI],
                         opset=13, graph_extra=f_bytes(13, vv))
        who = "graph %s '%s'" % (where, "x" if place == "in" else "v")
        said = {"unknown_type": "has unknown element type 99", "no_elem_type": "has no element type 0",
                "negative_dim": "declares dim 1 = -2"}[what]
        reject_model(name, data, "%s.onnx: %s %s" % (name, who, said))
reject_model("unnamed_output", model(SH, [X], [f_bytes(2, f_bytes(1, f_int(1, 7)))], opset=13), "unnamed_output.onnx: a graph output has no name")
reject_model("untyped_output", model(SH, [X], [vi_raw("y", typed=False)], opset=13), "untyped_output.onnx: graph output 'y' has no type (ONNX requires one for graph inputs and outputs)")
reject_model("unnamed_value_info", model(SH, [X], [YI], opset=13,
                                         graph_extra=f_bytes(13, f_bytes(2, f_bytes(1, f_int(1, 7))))),
             "unnamed_value_info.onnx: a graph value_info has no name")
reject_model("shape_two_inputs", model([node("Shape", ["x", "x"], ["y"])], [X], [YI], opset=13), "shape_two_inputs.onnx: Shape-13 (node '#0'): takes 1 input; the node has 2")
reject_model("empty_output_name", model([node("Shape", ["x"], [""])], [X], [YI], opset=13), "empty_output_name.onnx: Shape-13 (node '#0'): output 0 is empty")
reject_model("constant_value_twice",
             model([node("Constant", [], ["y"],
                         [attr("value", A_TENSOR, tensor("v", "int64", [1], raw=bytes(8))),
                          attr("value", A_TENSOR, tensor("v", "int64", [1], raw=bytes(8)))])],
                   [], [YI], opset=13), "constant_value_twice.onnx: Constant-13 (node '#0'): attribute 'value' is set twice")
reject_model("constant_no_tensor",
             model([node("Constant", [], ["y"], [f_str(1, "value") + f_int(20, A_TENSOR)])],
                   [], [YI], opset=13), "constant_no_tensor.onnx: Constant-13 (node '#0'): attribute 'value' has no tensor")
reject_model("constant_bad_tensor",
             model([node("Constant", [], ["y"],
                         [attr("value", A_TENSOR, tensor("v", "int64", [-1], raw=b""))])],
                   [], [YI], opset=13), "constant_bad_tensor.onnx: Constant-13 (node '#0'): attribute 'value': tensor 'v': dims[0] = -1 is negative")
reject_model("output_declared_rank", model(SH, [X], [value_info("y", "int64", [2, 1])], opset=13),
             "output_declared_rank.onnx: graph output 'y' is declared with rank 2 but the graph produces rank 1", inputs=" -i x23.pb")

# ---- model-local functions ---------------------------------------------------
def fn_proto(name="F", inputs=("i",), outputs=("o",), body=None, opset=13):
    body = body if body is not None else [node("Identity", ["i"], ["o"])]
    return ((f_str(1, name) if name is not None else b"") +
            b"".join(f_str(4, i) for i in inputs) + b"".join(f_str(5, o) for o in outputs) +
            b"".join(f_bytes(7, n) for n in body) + f_bytes(9, f_str(1, "") + f_int(2, opset)) +
            f_str(10, "custom"))


def fn_model(call_inputs, fns):
    return (model([node("F", list(call_inputs), ["y"], domain="custom", name="call")], [X], [Y],
                  opset=13, extra_opsets=[("custom", 1)]) +
            b"".join(f_bytes(25, fn) for fn in fns))


reject_model("function_call_arity", fn_model(["x", "x"], [fn_proto()]), "function_call_arity.onnx: node 'call': calls function 'custom:F' with 2 input(s) and 1 output(s); it has 1 and 1")
reject_model("function_body_unknown_input",
             fn_model(["x"], [fn_proto(body=[node("Identity", ["q"], ["o"])])]), "function_body_unknown_input.onnx: in call/custom:F: Identity-13 (node '#0'): input 'q' is not a function input, or the output of an earlier node")
reject_model("function_no_name", fn_model(["x"], [fn_proto(), fn_proto(name=None)]), "function_no_name.onnx: function 1 has no name")
reject_model("function_twice", fn_model(["x"], [fn_proto(), fn_proto()]), "function_twice.onnx: function 'custom:F' is defined twice")
reject_model("function_opset_29", fn_model(["x"], [fn_proto(opset=29)]), "function_opset_29.onnx: node 'call': function 'custom:F' imports default-domain opset 29; this build supports 1 to 28")
reject_model("sparse_initializer_negative_dim", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)) +
             f_bytes(7, f_bytes(11, X) + f_bytes(12, X) +
                     f_bytes(15, f_bytes(1, f_int(2, 7) + f_str(8, "w")) + f_int(3, -1))), "sparse_initializer_negative_dim.onnx: sparse initializer 'w' has dim 0 = -1")

reject_tensor("double_past_memory", tensor("x", "double", [1 << 62], raw=b""),
              "tensor 'x': 4611686018427387904 elements of double do not fit in memory")

# ---- bytes held inside a model that do not decode -------------------------
BAD = b"\x0a\xff\xff\xff\xff\x0f"  # a length past the end
IF_X = [node("If", ["c"], ["y"], [f_str(1, "then_branch") + f_int(20, 5) + f_bytes(6, BAD),
                                  attr("else_branch", 5, b"")], name="branch")]
C = value_info("c", "bool", [])
reject_model("subgraph_garbage", model(IF_X, [C], [Y], opset=13), "If-13 (node 'branch'): attribute 'then_branch' is not a valid GraphProto")
reject_model("function_garbage", fn_model(["x"], [fn_proto()]) + f_bytes(25, BAD), "function 1 is not a valid FunctionProto")
reject_model("sparse_initializer_garbage", f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 13)) +
             f_bytes(7, f_bytes(11, X) + f_bytes(12, X) + f_bytes(15, BAD)), "sparse initializer 0 is not a valid SparseTensorProto")


LEAF = graph([node("Identity", ["x"], ["y"])], [], [Y])


def nested_if(depth):
    """An If whose then_branch holds an If ... depth deep."""
    g = LEAF
    for _ in range(depth):
        g = graph([node("If", ["c"], ["y"], [attr("then_branch", 5, g), attr("else_branch", 5, LEAF)])],
                  [], [Y])
    return g


reject_model("subgraphs_too_deep", model([node("If", ["c"], ["y"],
                                              [attr("then_branch", 5, nested_if(40)),
                                               attr("else_branch", 5, nested_if(0))])],
                                        [C, X], [Y], opset=13), "subgraphs_too_deep.onnx: in If#0/then_branch/If#0/then_bra...0/then_branch/If#0/then_branch: If-13 (node '#0'): attribute 'then_branch': subgraphs nest more than 32 deep")

# Functions calling each other 40 deep: past the depth limit of 32.
def fn_chain(k):
    body = ([node("F%d" % (k + 1), ["i"], ["o"], domain="custom")] if k < 40
            else [node("Identity", ["i"], ["o"])])
    return fn_proto(name="F%d" % k, body=body)


reject_model("function_calls_too_deep",
             model([node("F0", ["x"], ["y"], domain="custom", name="call")], [X], [Y], opset=13,
                   extra_opsets=[("custom", 1)]) + b"".join(f_bytes(25, fn_chain(k)) for k in range(41)),
             "function_calls_too_deep.onnx: in call/custom:F0/F1#0/custom:F1/...#0/custom:F30/F31#0/custom:F31: node '#0': function calls and subgraphs nest more than 32 deep")

# A function that calls itself, and one importing the default domain twice.
reject_model("function_calls_itself",
             fn_model(["x"], [fn_proto(body=[node("F", ["i"], ["o"], domain="custom")])]),
             "function_calls_itself.onnx: in call/custom:F: node '#0': calls function 'custom:F' inside its own body (a function cannot call itself)")
reject_model("function_opset_twice",
             fn_model(["x"], [fn_proto() + f_bytes(9, f_str(1, "") + f_int(2, 14))]),
             "function_opset_twice.onnx: node 'call': function 'custom:F' imports the default domain twice")
# ConstantOfShape's 'value' (checked by infer): given twice, or not a valid tensor.
SI = value_info("s", "int64", [2])
case("constant_of_shape_value_twice", 1,
     "constant_of_shape_value_twice.onnx: ConstantOfShape-9 (node '#0'): attribute 'value' is set twice",
     "run constant_of_shape_value_twice.onnx")
write("constant_of_shape_value_twice.onnx",
      model([node("ConstantOfShape", ["s"], ["y"],
                  [attr("value", A_TENSOR, tensor("v", "float", [1], raw=b"\0\0\0\0")),
                   attr("value", A_TENSOR, tensor("v", "float", [1], raw=b"\0\0\0\0"))])],
            [SI], [Y], opset=13))
case("constant_of_shape_bad_tensor", 1,
     "constant_of_shape_bad_tensor.onnx: ConstantOfShape-9 (node '#0'): attribute 'value': tensor 'v': dims[0] = -1 is negative",
     "run constant_of_shape_bad_tensor.onnx")
write("constant_of_shape_bad_tensor.onnx",
      model([node("ConstantOfShape", ["s"], ["y"],
                  [attr("value", A_TENSOR, tensor("v", "float", [-1], raw=b""))])],
            [SI], [Y], opset=13))

# check reads the same bytes for its sparse scan, and says which it cannot.
case("check_subgraph_garbage", 1, "in branch/then_branch: not a valid GraphProto",
     "check --profile sonnx subgraph_garbage.onnx")
case("check_function_garbage", 1, "function 1 is not a valid FunctionProto",
     "check --profile sonnx function_garbage.onnx")

with open(os.path.join(out, "MANIFEST"), "w") as f:
    f.write("# NAME\tEXIT\tMESSAGE FRAGMENT\tARGUMENTS (run in tests/reject/files)\n")
    f.write("\n".join(cases) + "\n")
print(len(cases))
