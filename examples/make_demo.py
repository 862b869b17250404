#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes examples/demo.onnx and examples/demo_input.pb, the model `make demo`
runs: Constant, Shape, Size and Reshape chained on a [N,3,4] float input.

    x [N,3,4] --Reshape(Constant [0,-1])--> matrix [N,12]
    matrix    --Shape-->                    matrix_shape [2]
    x         --Size-->                     count []
    x         --Shape(start=1)-->           inner_dims [2]
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "conformance"))
from onnxpb import A_INT, A_INTS, attr, model, node, tensor, value_info  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
m = model(
    [node("Constant", [], ["target"], [attr("value_ints", A_INTS, [0, -1])], name="target"),
     node("Reshape", ["x", "target"], ["matrix"], name="flatten_rows"),
     node("Shape", ["matrix"], ["matrix_shape"], name="matrix_shape"),
     node("Size", ["x"], ["count"], name="count"),
     node("Shape", ["x"], ["inner_dims"], [attr("start", A_INT, 1)], name="inner_dims")],
    [value_info("x", "float", ["N", 3, 4])],
    [value_info("matrix", "float", ["N", 12]), value_info("matrix_shape", "int64", [2]),
     value_info("count", "int64", []), value_info("inner_dims", "int64", [2])],
    opset=21, name="demo")
with open(os.path.join(here, "demo.onnx"), "wb") as f:
    f.write(m)
with open(os.path.join(here, "demo_input.pb"), "wb") as f:
    f.write(tensor("x", "float", [2, 3, 4], raw=struct.pack("<24f", *range(24))))
