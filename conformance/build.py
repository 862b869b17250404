#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the onnxshape conformance suite: ONNX's backend test layout (one
directory test_NAME per case: model.onnx, test_data_set_0/input_*.pb and
output_*.pb), so that any runtime can test its Shape, Reshape and Size.

Positive cases are tests/conformance/gen_cases.py's (every version x element
type x encoding, expected outputs computed there, independently of
onnxshape). Negative cases are inputs docs/semantics.md requires an
implementation to reject: instead of output files they hold
expected_error.json (conformance/README.md): the NEGATIVE cases below, and
the rows of tests/reject/MANIFEST that run a model (with its input tensors),
as conformance/rejected-files.txt classifies them. Every case also holds a
file `requirement`: the docs/requirements.md identifier it exercises.

Usage: build.py SUITE_DIR [--tar FILE.tar.gz]
Prints the counts; --tar also packs the suite into a tarball with sorted
entries, mtime 0 and no owner, so that the same sources give the same bytes.
"""
import gzip
import io
import json
import os
import random
import re
import shutil
import stat
import struct
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "conformance"))

import gen_cases  # noqa: E402  (the positive cases: one home)
from onnxpb import A_FLOAT, A_INT, A_INTS, attr, model, node, tensor, value_info  # noqa: E402

REJECT = os.path.join(HERE, "..", "tests", "reject")

INT64_MIN = -(1 << 63)
SEED = 20261127

# ---- positive cases: the requirement each gen_cases.py case exercises ------

# First matching prefix wins (gen_cases.py's names, without "gen_").
POSITIVE_REQUIREMENTS = [
    ("reshape_v1_", "RESHAPE-V1-ATTRIBUTE"),
    ("reshape1_", "RESHAPE-V1-ATTRIBUTE"),
    ("reshape_v", "RESHAPE-DATA-UNCHANGED"),
    ("shape_v", "SHAPE-OUTPUT"),
    ("size_v", "SIZE-OUTPUT"),
    ("reshape_zero_size_huge", "RESHAPE-OVERFLOW"),
    ("reshape_zero_size_allowzero", "RESHAPE-ZERO-LITERAL"),
    ("reshape_zero_size_infer", "RESHAPE-INFER"),
    ("reshape_zero_size_no_payload", "STORAGE-EMPTY-RAW"),
    ("size_shape_zero_size", "SIZE-ZERO-FIRST"),
    ("reshape_scalar", "RESHAPE-SCALAR"),
    ("reshape_to_scalar", "RESHAPE-SCALAR"),
    ("shape_size_scalar", "SHAPE-SCALAR"),
    ("shape_", "SHAPE-CLAMP"),
    ("graph_", "RESHAPE-INPUTS"),
    ("unknown_fields", "RESHAPE-INPUTS"),
    ("external_data", "RESHAPE-INPUTS"),
]


def positive_requirement(name):
    short = name[len("gen_"):] if name.startswith("gen_") else name
    for prefix, req in POSITIVE_REQUIREMENTS:
        if short.startswith(prefix):
            return req
    raise SystemExit("build.py: no requirement for positive case %r; add its prefix to "
                     "POSITIVE_REQUIREMENTS" % name)


def write_positive(suite):
    """gen_cases.py's cases, each moved to SUITE/test_NAME with its
    requirement file. Returns the count."""
    stage = tempfile.mkdtemp(prefix="onnxshape-conf-")
    try:
        rng = random.Random(20261122)  # gen_cases.py's seed: the same cases as its test
        w = gen_cases.Writer(stage)
        gen_cases.gen_per_version(w, rng)
        gen_cases.gen_edge_cases(w, rng)
        gen_cases.gen_graphs(w, rng)
        gen_cases.gen_unknown_fields(w, rng)
        gen_cases.gen_external(w, rng)
        names = sorted(os.listdir(stage))
        if len(names) != w.count:
            raise SystemExit("build.py: gen_cases.py wrote %d directories for %d cases"
                             % (len(names), w.count))
        for name in names:
            dest = os.path.join(suite, "test_" + name)
            shutil.move(os.path.join(stage, name), dest)
            with open(os.path.join(dest, "requirement"), "w") as f:
                f.write(positive_requirement(name) + "\n")
        return len(names)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


# ---- negative cases --------------------------------------------------------

def i64(name, dims, values):
    return tensor(name, "int64", dims, raw=struct.pack("<%dq" % len(values), *values))


def data(name, type_name, dims, rng):
    n = gen_cases.count(dims)
    return gen_cases.data_tensor(name, type_name, dims,
                                 gen_cases.random_payload(rng, type_name, n), "raw")


def reshape(opset, target, dims=(2, 3, 4), type_name="float", allowzero=None,
            target_tensor=None, target_vi=None):
    """A Reshape-5+ node named 'r' with data x and target s both fed."""
    def make(rng):
        attrs = [] if allowzero is None else [attr("allowzero", A_INT, allowzero)]
        t = target_tensor if target_tensor is not None else i64("s", [len(target)], target)
        s_vi = target_vi if target_vi is not None else value_info("s", "int64", [len(target)])
        m = model([node("Reshape", ["x", "s"], ["y"], attrs, name="r")],
                  [value_info("x", type_name, list(dims)), s_vi],
                  [value_info("y", type_name)], opset=opset)
        return m, [data("x", type_name, list(dims), rng), t]
    return make


def reshape1(target, dims=(2, 3, 4), type_name="float"):
    """A Reshape-1 node (target as its attribute) at opset 1."""
    def make(rng):
        attrs = [] if target is None else [attr("shape", A_INTS, target)]
        m = model([node("Reshape", ["x"], ["y"], attrs, name="r")],
                  [value_info("x", type_name, list(dims))], [value_info("y", type_name)],
                  opset=1, ir_version=3)
        return m, [data("x", type_name, list(dims), rng)]
    return make


def single(op, opset, type_name="float", dims=(2, 3), attrs=(), x_tensor=None):
    """A Shape or Size node named 'n' on a fed x."""
    def make(rng):
        out = value_info("y", "int64")
        m = model([node(op, ["x"], ["y"], list(attrs), name="n")],
                  [value_info("x", type_name, list(dims))], [out], opset=opset)
        return m, [x_tensor if x_tensor is not None else data("x", type_name, list(dims), rng)]
    return make


def reshape_inputs(inputs):
    """A Reshape-14 node with the given input names (x and s are graph inputs)."""
    def make(rng):
        m = model([node("Reshape", inputs, ["y"], name="r")],
                  [value_info("x", "float", [2, 3, 4]), value_info("s", "int64", [2])],
                  [value_info("y", "float")], opset=14)
        return m, [data("x", "float", [2, 3, 4], rng), i64("s", [2], [4, 6])]
    return make


BIG = 1 << 32
# (name, requirement, status, reason, builder); onnxshape's message for each
# is in messages.txt. Other runtimes need only
# reject.
NEGATIVE = [
    # RESHAPE-ONE-INFERRED
    ("reshape_two_inferred", "RESHAPE-ONE-INFERRED", "ONNXSHAPE_ERR_MULTIPLE_INFERRED",
     "The target holds two -1 entries; at most one dimension may be inferred.",
     reshape(14, [-1, -1, 6])),
    ("reshape5_two_inferred", "RESHAPE-ONE-INFERRED", "ONNXSHAPE_ERR_MULTIPLE_INFERRED",
     "Reshape-5's target holds two -1 entries; at most one dimension may be inferred.",
     reshape(5, [-1, 2, -1])),
    ("reshape1_two_inferred", "RESHAPE-ONE-INFERRED", "ONNXSHAPE_ERR_MULTIPLE_INFERRED",
     "Reshape-1's shape attribute holds two -1 entries.",
     reshape1([-1, -1])),
    # RESHAPE-BELOW-MINUS-ONE
    ("reshape_below_minus_one", "RESHAPE-BELOW-MINUS-ONE", "ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE",
     "A target value of -2 is neither a dimension, -1 nor 0.",
     reshape(14, [2, -2, 6])),
    ("reshape_int64_min", "RESHAPE-BELOW-MINUS-ONE", "ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE",
     "A target value of INT64_MIN is below -1.",
     reshape(25, [INT64_MIN, 24])),
    ("reshape1_below_minus_one", "RESHAPE-BELOW-MINUS-ONE", "ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE",
     "Reshape-1's shape attribute holds -3.",
     reshape1([-3, 8])),
    # RESHAPE-COUNT, RESHAPE-SCALAR
    ("reshape_count_mismatch", "RESHAPE-COUNT", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "A [5,5] target holds 25 elements, the data 24.",
     reshape(14, [5, 5])),
    ("reshape13_count_mismatch", "RESHAPE-COUNT", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "A [2,3,5] target holds 30 elements, the data 24.",
     reshape(13, [2, 3, 5])),
    ("reshape_zero_copy_count_mismatch", "RESHAPE-COUNT", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "With allowzero=0 the 0 at index 2 copies 4, so [3,4,0] asks for 48 elements of a zero-size [0,3,4].",
     reshape(14, [3, 4, 0], dims=(0, 3, 4))),
    ("reshape_allowzero_literal_count", "RESHAPE-COUNT", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "With allowzero=1 a 0 is a literal 0, so [0,24] holds no elements but the data 24.",
     reshape(21, [0, 24], allowzero=1)),
    ("reshape_to_scalar_many", "RESHAPE-SCALAR", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "An empty target is a scalar, which holds 1 element, not 24.",
     reshape(14, [])),
    ("reshape_empty_to_scalar", "RESHAPE-SCALAR", "ONNXSHAPE_ERR_COUNT_MISMATCH",
     "An empty target is a scalar, which holds 1 element; the data [0] holds none.",
     reshape(19, [], dims=(0,))),
    # RESHAPE-INFER-DIVISIBLE
    ("reshape_not_divisible", "RESHAPE-INFER-DIVISIBLE", "ONNXSHAPE_ERR_NOT_DIVISIBLE",
     "24 elements do not divide into rows of 5, so the -1 has no value.",
     reshape(14, [5, -1])),
    ("reshape1_not_divisible", "RESHAPE-INFER-DIVISIBLE", "ONNXSHAPE_ERR_NOT_DIVISIBLE",
     "Reshape-1: 24 elements do not divide by 7.",
     reshape1([-1, 7])),
    # RESHAPE-INFER-ZERO (divergences.md D7)
    ("reshape_infer_from_zero", "RESHAPE-INFER-ZERO", "ONNXSHAPE_ERR_INFERRED_FROM_ZERO",
     "For a zero-size [0,3,4], [0,-1] leaves the -1 ambiguous: the other dims multiply to 0 (divergences.md D7).",
     reshape(14, [0, -1], dims=(0, 3, 4))),
    ("reshape_infer_from_copied_zero", "RESHAPE-INFER-ZERO", "ONNXSHAPE_ERR_INFERRED_FROM_ZERO",
     "The 0 at index 1 copies the data's dim 0, so the -1 of [-1,0] is ambiguous.",
     reshape(25, [-1, 0], dims=(3, 0, 2))),
    # RESHAPE-ALLOWZERO-INFERRED (divergences.md D1)
    ("reshape_allowzero_with_inferred", "RESHAPE-ALLOWZERO-INFERRED",
     "ONNXSHAPE_ERR_ZERO_WITH_INFERRED",
     "With allowzero=1 a target may not hold both 0 and -1 (Reshape-14's specification; divergences.md D1).",
     reshape(14, [0, -1], dims=(0, 3, 4), allowzero=1)),
    ("reshape25_allowzero_with_inferred", "RESHAPE-ALLOWZERO-INFERRED",
     "ONNXSHAPE_ERR_ZERO_WITH_INFERRED",
     "With allowzero=1 a target may not hold both 0 and -1, also when the data has elements.",
     reshape(25, [2, -1, 0], allowzero=1)),
    # RESHAPE-ZERO-COPY-RANGE
    ("reshape_zero_past_rank", "RESHAPE-ZERO-COPY-RANGE", "ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE",
     "The 0 at index 3 copies a dim the rank-3 data does not have.",
     reshape(14, [2, 3, 4, 0])),
    ("reshape_zero_of_scalar", "RESHAPE-ZERO-COPY-RANGE", "ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE",
     "The 0 at index 0 copies a dim of a scalar, which has none.",
     reshape(13, [0], dims=())),
    ("reshape1_zero_past_rank", "RESHAPE-ZERO-COPY-RANGE", "ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE",
     "Reshape-1: the 0 at index 2 copies a dim the rank-2 data does not have.",
     reshape1([4, -1, 0], dims=(4, 6))),
    # RESHAPE-OVERFLOW
    ("reshape_wrapping_product", "RESHAPE-OVERFLOW", "ONNXSHAPE_ERR_OVERFLOW",
     "[2305843009213693955, 8] multiplies to 24 in wrapping 64-bit arithmetic but past INT64_MAX in fact.",
     reshape(14, [2305843009213693955, 8])),
    ("reshape_overflow_with_inferred", "RESHAPE-OVERFLOW", "ONNXSHAPE_ERR_OVERFLOW",
     "The known dims 2^32 * 2^32 overflow int64, and the data has elements, so no -1 fits.",
     reshape(21, [BIG, BIG, -1])),
    # RESHAPE-SHAPE-INPUT
    ("reshape_shape_int32", "RESHAPE-SHAPE-INPUT", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "The shape input must be int64; this one is int32.",
     reshape(14, None, target_tensor=tensor("s", "int32", [2], raw=struct.pack("<2i", 4, 6)),
             target_vi=value_info("s", "int32", [2]))),
    ("reshape_shape_float", "RESHAPE-SHAPE-INPUT", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "The shape input must be int64; this one is float.",
     reshape(5, None, target_tensor=tensor("s", "float", [2], raw=struct.pack("<2f", 4, 6)),
             target_vi=value_info("s", "float", [2]))),
    ("reshape_shape_2d", "RESHAPE-SHAPE-INPUT", "ONNXSHAPE_ERR_INVALID_RANK",
     "The shape input must be 1-D; this one is [1,2].",
     reshape(14, None, target_tensor=i64("s", [1, 2], [4, 6]),
             target_vi=value_info("s", "int64", [1, 2]))),
    ("reshape_shape_scalar", "RESHAPE-SHAPE-INPUT", "ONNXSHAPE_ERR_INVALID_RANK",
     "The shape input must be 1-D; this one is a scalar.",
     reshape(19, None, target_tensor=i64("s", [], [24]),
             target_vi=value_info("s", "int64", []))),
    # RESHAPE-ALLOWZERO-VERSION, RESHAPE-ALLOWZERO-VALUES
    ("reshape13_allowzero", "RESHAPE-ALLOWZERO-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Reshape-13 has no allowzero attribute (it exists from version 14).",
     reshape(13, [4, 6], allowzero=0)),
    ("reshape5_allowzero", "RESHAPE-ALLOWZERO-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Reshape-5 has no allowzero attribute (it exists from version 14).",
     reshape(5, [4, 6], allowzero=1)),
    ("reshape_allowzero_2", "RESHAPE-ALLOWZERO-VALUES", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "allowzero is 0 or 1; 2 is not defined.",
     reshape(14, [4, 6], allowzero=2)),
    ("reshape_allowzero_minus_one", "RESHAPE-ALLOWZERO-VALUES", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "allowzero is 0 or 1; -1 is not defined.",
     reshape(21, [4, 6], allowzero=-1)),
    # RESHAPE-INPUTS, RESHAPE-V1-ATTRIBUTE
    ("reshape_one_input", "RESHAPE-INPUTS", "ONNXSHAPE_ERR_INVALID_MODEL",
     "Reshape-14 takes data and shape; this node has data only.",
     reshape_inputs(["x"])),
    ("reshape_three_inputs", "RESHAPE-INPUTS", "ONNXSHAPE_ERR_INVALID_MODEL",
     "Reshape-14 takes exactly data and shape; this node has a third input.",
     reshape_inputs(["x", "s", "s"])),
    ("reshape1_no_shape_attribute", "RESHAPE-V1-ATTRIBUTE", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Reshape-1 requires its shape attribute.",
     reshape1(None)),
    # TYPE-SET-RESHAPE1, TYPE-SET (Reshape)
    ("reshape1_int32", "TYPE-SET-RESHAPE1", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "Reshape-1 takes float16, float and double only, not int32.",
     reshape1([4, 6], type_name="int32")),
    ("reshape1_bool", "TYPE-SET-RESHAPE1", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "Reshape-1 takes float16, float and double only, not bool.",
     reshape1([4, 6], type_name="bool")),
    ("reshape5_bfloat16", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "bfloat16 is allowed from Reshape-13.",
     reshape(5, [4, 6], type_name="bfloat16")),
    ("reshape14_float8e4m3fn", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "The float8 types are allowed from Reshape-19.",
     reshape(14, [4, 6], type_name="float8e4m3fn")),
    ("reshape19_int4", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "int4 is allowed from Reshape-21.",
     reshape(19, [4, 6], type_name="int4")),
    ("reshape21_float4e2m1", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "float4e2m1 is allowed from Reshape-23.",
     reshape(21, [4, 6], type_name="float4e2m1")),
    ("reshape23_float8e8m0", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "float8e8m0 is allowed from Reshape-24.",
     reshape(23, [4, 6], type_name="float8e8m0")),
    ("reshape24_uint2", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "uint2 is allowed from Reshape-25.",
     reshape(24, [4, 6], type_name="uint2")),
    # SHAPE-ATTRS-VERSION
    ("shape1_start", "SHAPE-ATTRS-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Shape-1 has no start attribute (it exists from version 15).",
     single("Shape", 1, attrs=[attr("start", A_INT, 1)])),
    ("shape13_start", "SHAPE-ATTRS-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Shape-13 has no start attribute (it exists from version 15).",
     single("Shape", 13, attrs=[attr("start", A_INT, 0)])),
    ("shape13_end", "SHAPE-ATTRS-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Shape-13 has no end attribute (it exists from version 15).",
     single("Shape", 13, attrs=[attr("end", A_INT, -1)])),
    ("shape15_float_end", "SHAPE-ATTRS-VERSION", "ONNXSHAPE_ERR_INVALID_ATTRIBUTE",
     "Shape-15's end is an INT attribute; a FLOAT one is invalid.",
     single("Shape", 15, attrs=[attr("end", A_FLOAT, 1.0)])),
    # TYPE-SET (Shape)
    ("shape1_bfloat16", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "bfloat16 is allowed from Shape-13.",
     single("Shape", 1, "bfloat16")),
    ("shape15_float8e5m2", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "The float8 types are allowed from Shape-19.",
     single("Shape", 15, "float8e5m2")),
    ("shape19_uint4", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "uint4 is allowed from Shape-21.",
     single("Shape", 19, "uint4")),
    ("shape21_float4e2m1", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "float4e2m1 is allowed from Shape-23.",
     single("Shape", 21, "float4e2m1")),
    ("shape24_int2", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "int2 is allowed from Shape-25.",
     single("Shape", 24, "int2")),
    # TYPE-SET (Size), SIZE-OVERFLOW
    ("size1_bfloat16", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "bfloat16 is allowed from Size-13.",
     single("Size", 1, "bfloat16")),
    ("size13_float8e4m3fnuz", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "The float8 types are allowed from Size-19.",
     single("Size", 13, "float8e4m3fnuz")),
    ("size19_int4", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "int4 is allowed from Size-21.",
     single("Size", 19, "int4")),
    ("size21_float4e2m1", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "float4e2m1 is allowed from Size-23.",
     single("Size", 21, "float4e2m1")),
    ("size23_float8e8m0", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "float8e8m0 is allowed from Size-24.",
     single("Size", 23, "float8e8m0")),
    ("size24_uint2", "TYPE-SET", "ONNXSHAPE_ERR_TYPE_NOT_ALLOWED",
     "uint2 is allowed from Size-25.",
     single("Size", 24, "uint2")),
    # Opsets
    ("opset_29", "OPSET-RANGE", "ONNXSHAPE_ERR_UNSUPPORTED_OPSET",
     "Opset 29 does not exist (28 is the newest).",
     single("Size", 29)),
]


def write_negative(suite, messages):
    rng = random.Random(SEED)
    names = set()
    for name, req, status, reason, make in NEGATIVE:
        if name in names:
            raise SystemExit("build.py: negative case %r twice" % name)
        names.add(name)
        if name not in messages:
            raise SystemExit("build.py: negative case %r has no onnxshape message in "
                             "MESSAGES" % name)
        m, inputs = make(rng)
        d = os.path.join(suite, "test_reject_" + name)
        ds = os.path.join(d, "test_data_set_0")
        os.makedirs(ds)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(m)
        for k, t in enumerate(inputs):
            with open(os.path.join(ds, "input_%d.pb" % k), "wb") as f:
                f.write(t)
        with open(os.path.join(d, "expected_error.json"), "w") as f:
            json.dump({"requirement": req, "status": status, "reason": reason,
                       "onnxshape_message": messages[name]}, f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "requirement"), "w") as f:
            f.write(req + "\n")
    return len(NEGATIVE)


# ---- negative cases from the rejected-input corpus (tests/reject) ----------

# Names read from MANIFEST and rejected-files.txt are hostile until checked:
# a case name becomes a directory name, a file name is opened in
# tests/reject/files. Neither may hold a slash, start with a dot, or be long.
SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9_]{0,79}\Z")
SAFE_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}\Z")
STATUS = re.compile(r"ONNXSHAPE_ERR_[A-Z_]+\Z")
# The classes of rows that are not cases (README.md says why, per class).
EXCLUDED_CLASSES = ("another command", "a symbolic link", "onnxshape's run scope",
                    "onnxshape's limits")
# Tensors a case binds that the corpus does not hold.
BUILT_INPUTS = {"c_true.pb": tensor("c", "bool", [], raw=b"\x01"),
                "s23.pb": tensor("s", "int64", [2], raw=struct.pack("<2q", 2, 3))}


def _tsv(path, min_fields):
    """The rows of a tab-separated file (comments and blank lines left out)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) < min_fields:
                raise SystemExit("build.py: %s:%d: expected %d tab-separated fields"
                                 % (path, n, min_fields))
            rows.append((n, fields))
    return rows


def corpus_file(name):
    """The bytes of tests/reject/files/NAME: a plain name of a regular file
    directly in that directory (no link, no path)."""
    if not SAFE_FILE.match(name) or name in (".", ".."):
        raise SystemExit("build.py: %r is not a plain file name" % name)
    files = os.path.join(REJECT, "files")
    path = os.path.join(files, name)
    try:
        st = os.lstat(path)
    except OSError as e:
        raise SystemExit("build.py: tests/reject/files/%s: %s" % (name, e.strerror))
    if not stat.S_ISREG(st.st_mode) or os.path.dirname(os.path.realpath(path)) != \
            os.path.realpath(files):
        raise SystemExit("build.py: tests/reject/files/%s is not a regular file" % name)
    with open(path, "rb") as f:
        return f.read()


def read_manifest():
    """tests/reject/MANIFEST's rows: {name: (exit, fragment, model, inputs)},
    model and inputs None for a row that runs another command than run."""
    rows = {}
    for n, fields in _tsv(os.path.join(REJECT, "MANIFEST"), 4):
        if len(fields) != 4 or not fields[1].isdigit():
            raise SystemExit("build.py: MANIFEST:%d: NAME EXIT FRAGMENT ARGUMENTS expected" % n)
        name, exit_code, fragment, args = fields
        if not SAFE_NAME.match(name) or name in rows:
            raise SystemExit("build.py: MANIFEST:%d: bad or repeated name %r" % (n, name))
        words = args.split()
        model_file, inputs = None, None
        if words and words[0] == "run":
            if len(words) < 2 or len(words) % 2:
                raise SystemExit("build.py: MANIFEST:%d: run MODEL [-i FILE]... expected" % n)
            model_file, inputs = words[1], []
            for opt, value in zip(words[2::2], words[3::2]):
                if opt != "-i":
                    raise SystemExit("build.py: MANIFEST:%d: option %r" % (n, opt))
                inputs.append(value)
        rows[name] = (int(exit_code), fragment, model_file, inputs)
    return rows


def case_message(fragment, model_file, inputs):
    """onnxshape's message in the case's layout: the row's message with the
    model's prefix ("MODEL: ", which the runners' messages do not share)
    left out and the corpus's file names as the case names them (the
    runners work in the case's directory, conformance/runners/)."""
    if fragment.startswith(model_file + ": "):
        fragment = fragment[len(model_file) + 2:]
    fragment = fragment.replace("'%s'" % model_file, "'model.onnx'")
    for k, name in enumerate(inputs):
        fragment = fragment.replace("'%s'" % name, "'test_data_set_0/input_%d.pb'" % k)
    if inputs:  # a tensor's external data is looked for beside the tensor file
        fragment = fragment.replace(" in '.'", " in 'test_data_set_0'")
    return fragment


def external_locations(data):
    """The external-data locations a serialized TensorProto names (none when
    it does not decode)."""
    from run import DecodeError, _fields
    out = []
    try:
        for field, wire, v in _fields(data):
            if field == 13 and wire == 2:
                kv = {f: bytes(x) for f, w, x in _fields(v) if w == 2}
                if kv.get(1) == b"location" and 2 in kv:
                    out.append(kv[2].decode("utf-8", "replace"))
    except DecodeError:
        pass
    return out


def write_rejected_files(suite, known):
    """A case test_reject_file_NAME for each row of tests/reject/MANIFEST
    that rejected-files.txt takes; every row must be taken or excluded.
    Returns (cases, excluded)."""
    manifest = read_manifest()
    table = _tsv(os.path.join(HERE, "rejected-files.txt"), 3)
    seen = set()
    cases = excluded = 0
    for n, fields in table:
        name = fields[0]
        where = "rejected-files.txt:%d" % n
        if name not in manifest or name in seen:
            raise SystemExit("build.py: %s: %r is no row of MANIFEST, or is here twice"
                             % (where, name))
        seen.add(name)
        _, fragment, model_file, row_inputs = manifest[name]
        if fields[1] == "excluded":
            if len(fields) != 3 or fields[2] not in EXCLUDED_CLASSES:
                raise SystemExit("build.py: %s: excluded needs one of the classes %s"
                                 % (where, ", ".join(EXCLUDED_CLASSES)))
            excluded += 1
            continue
        if len(fields) != 5:
            raise SystemExit("build.py: %s: NAME REQUIREMENT STATUS INPUTS REASON expected" % where)
        _, req, status, inputs, reason = fields
        if req not in known or not STATUS.match(status) or not reason.endswith("."):
            raise SystemExit("build.py: %s: unknown requirement, bad status or no reason" % where)
        if model_file is None:
            raise SystemExit("build.py: %s: the row runs no model; exclude it" % where)
        if inputs == "row":
            if not row_inputs:
                raise SystemExit("build.py: %s: the row binds no input" % where)
            inputs = row_inputs
        elif inputs == "-":
            if row_inputs:
                raise SystemExit("build.py: %s: the row binds inputs; say row" % where)
            inputs = []
        else:
            if row_inputs:
                raise SystemExit("build.py: %s: the row binds inputs; say row" % where)
            inputs = inputs.split(" ")
        d = os.path.join(suite, "test_reject_file_" + name)
        ds = os.path.join(d, "test_data_set_0")
        os.makedirs(ds)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(corpus_file(model_file))
        beside = set()
        for k, fn in enumerate(inputs):
            data = BUILT_INPUTS[fn] if fn in BUILT_INPUTS else corpus_file(fn)
            with open(os.path.join(ds, "input_%d.pb" % k), "wb") as f:
                f.write(data)
            # The files its external data names, where they are plain names
            # of the corpus; other locations ('..', absolute, missing) are
            # what the case is about.
            for loc in external_locations(data):
                if (SAFE_FILE.match(loc) and not re.match(r"(input|output)_\d+\.pb\Z", loc)
                        and os.path.isfile(os.path.join(REJECT, "files", loc))
                        and not os.path.islink(os.path.join(REJECT, "files", loc))):
                    beside.add(loc)
        for loc in sorted(beside):
            with open(os.path.join(ds, loc), "wb") as f:
                f.write(corpus_file(loc))
        with open(os.path.join(d, "expected_error.json"), "w") as f:
            json.dump({"requirement": req, "status": status, "reason": reason,
                       "onnxshape_message": case_message(fragment, model_file, inputs)},
                      f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "requirement"), "w") as f:
            f.write(req + "\n")
        cases += 1
    missing = sorted(set(manifest) - seen)
    if missing:
        raise SystemExit("build.py: MANIFEST rows neither a case nor excluded in "
                         "rejected-files.txt: %s" % ", ".join(missing))
    return cases, excluded


def load_messages():
    """onnxshape's message for each negative case (messages.txt: NAME TAB
    MESSAGE), confirmed by the conformance_suite test."""
    out = {}
    with open(os.path.join(HERE, "messages.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, msg = line.split("\t", 1)
            out[name] = msg
    return out


def pack(suite, tar_path):
    """A gzip'd tar of the suite with sorted entries, mtime 0 and no owner."""
    top = os.path.basename(os.path.normpath(suite))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        entries = []
        for root, dirs, files in os.walk(suite):
            dirs.sort()
            rel = os.path.relpath(root, suite)
            base = top if rel == "." else os.path.join(top, rel)
            entries.append((base, root, True))
            entries.extend((os.path.join(base, fn), os.path.join(root, fn), False)
                           for fn in sorted(files))
        for arc, path, is_dir in entries:
            info = tarfile.TarInfo(arc)
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if is_dir:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                info.mode = 0o644
                with open(path, "rb") as f:
                    content = f.read()
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    os.makedirs(os.path.dirname(os.path.abspath(tar_path)), exist_ok=True)
    tmp = tar_path + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(buf.getvalue())
    os.replace(tmp, tar_path)


def known_requirements():
    """The identifiers of docs/requirements.md (the first cell of each row)."""
    import re
    with open(os.path.join(HERE, "..", "docs", "requirements.md"), encoding="utf-8") as f:
        return set(re.findall(r"^\| `([A-Z0-9-]+)` \|", f.read(), re.M))


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--tar"):
        sys.stderr.write("usage: build.py SUITE_DIR [--tar FILE.tar.gz]\n")
        return 2
    suite = argv[1]
    shutil.rmtree(suite, ignore_errors=True)
    os.makedirs(suite)
    messages = load_messages()
    if any(c[0].startswith("file_") for c in NEGATIVE):
        raise SystemExit("build.py: test_reject_file_* names the cases of tests/reject; "
                         "name a NEGATIVE case otherwise")
    unknown = set(messages) - {c[0] for c in NEGATIVE}
    if unknown:
        raise SystemExit("build.py: messages.txt names cases that do not exist: %s"
                         % ", ".join(sorted(unknown)))
    known = known_requirements()
    used = {req for _, req in POSITIVE_REQUIREMENTS} | {c[1] for c in NEGATIVE}
    if not known or used - known:
        raise SystemExit("build.py: requirements not in docs/requirements.md: %s"
                         % ", ".join(sorted(used - known)))
    pos = write_positive(suite)
    neg = write_negative(suite, messages)
    files, excluded = write_rejected_files(suite, known)
    # The layout and protocol, and the runner's driver (standard library only).
    for fn in ("README.md", "run.py"):
        shutil.copyfile(os.path.join(HERE, fn), os.path.join(suite, fn))
    print("build.py: %d positive and %d negative cases in %s (%d of the negative from "
          "tests/reject/MANIFEST, whose %d other rows are excluded)"
          % (pos, neg + files, suite, files, excluded))
    if len(argv) == 4:
        pack(suite, argv[3])
        print("build.py: packed into %s" % argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
