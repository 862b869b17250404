#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes examples/demo.onnx and examples/demo_input.pb, the model `make demo`
runs: Constant, Shape, Size and Reshape chained on a [N,3,4] float input.

    x [N,3,4] --Reshape(Constant [-1,12], allowzero=0)--> matrix [N,12]
    matrix    --Shape(start=0, end=2)-->                 matrix_shape [2]
    x         --Size-->                                  count []
    x         --Shape(start=1, end=3)-->                 inner_dims [2]

Every attribute is set, so the demo conforms to the SONNX profile
(`onnxshape check --profile sonnx examples/demo.onnx`).

Also writes examples/findings.onnx, the same graph as ONNX exporters often
write it (attributes left to their defaults) and with one more Reshape whose
constant target holds two -1: what `onnxshape check` findings look like.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "conformance"))
from onnxpb import A_INT, A_INTS, attr, model, node, tensor, value_info  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
m = model(
    [node("Constant", [], ["target"], [attr("value_ints", A_INTS, [-1, 12])], name="target"),
     node("Reshape", ["x", "target"], ["matrix"], [attr("allowzero", A_INT, 0)],
          name="flatten_rows"),
     node("Shape", ["matrix"], ["matrix_shape"], [attr("start", A_INT, 0), attr("end", A_INT, 2)],
          name="matrix_shape"),
     node("Size", ["x"], ["count"], name="count"),
     node("Shape", ["x"], ["inner_dims"], [attr("start", A_INT, 1), attr("end", A_INT, 3)],
          name="inner_dims")],
    [value_info("x", "float", ["N", 3, 4])],
    [value_info("matrix", "float", ["N", 12]), value_info("matrix_shape", "int64", [2]),
     value_info("count", "int64", []), value_info("inner_dims", "int64", [2])],
    opset=21, name="demo")
with open(os.path.join(here, "demo.onnx"), "wb") as f:
    f.write(m)
findings = model(
    [node("Constant", [], ["target"], [attr("value_ints", A_INTS, [0, -1])], name="target"),
     node("Reshape", ["x", "target"], ["matrix"], name="flatten_rows"),
     node("Shape", ["matrix"], ["matrix_shape"], name="matrix_shape"),
     node("Size", ["x"], ["count"], name="count"),
     node("Shape", ["x"], ["inner_dims"], [attr("start", A_INT, 1)], name="inner_dims"),
     node("Constant", [], ["two_free"], [attr("value_ints", A_INTS, [-1, -1])], name="two_free"),
     node("Reshape", ["x", "two_free"], ["ambiguous"], [attr("allowzero", A_INT, 0)],
          name="ambiguous")],
    [value_info("x", "float", ["N", 3, 4])],
    [value_info("matrix", "float", ["N", 12]), value_info("matrix_shape", "int64", [2]),
     value_info("count", "int64", []), value_info("inner_dims", "int64", [2]),
     value_info("ambiguous", "float", None)],
    opset=21, name="findings")
with open(os.path.join(here, "findings.onnx"), "wb") as f:
    f.write(findings)
with open(os.path.join(here, "demo_input.pb"), "wb") as f:
    f.write(tensor("x", "float", [2, 3, 4], raw=struct.pack("<24f", *range(24))))
