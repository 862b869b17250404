#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The models and tensors of make bench, written to OUTDIR:
  reshape.onnx      Reshape-14, x float [2,3,4] (graph input), target [4,-1]
                    (initializer), allowzero 0: the single-node model both
                    runtimes load and run in process
  x_small.pb        x float [2,3,4]
  reshape_any.onnx  the same node with x of any shape and target [-1,4]:
                    onnxruntime's Reshape at each size
  reshape_big.onnx  Reshape-14, x float [67108864] -> [-1,1024]
  x_big.pb          x, 256 MiB inline (raw_data)
  x_big_ext.pb      x, the same bytes as external data in x_big.bin
Usage: make_data.py OUTDIR [MIB]   (MIB: size of the big tensor, default 256)"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "conformance"))
from onnxpb import A_INT, A_INTS, attr, model, node, tensor, value_info  # noqa: E402,F401

out = sys.argv[1]
mib = int(sys.argv[2]) if len(sys.argv) > 2 else 256
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def reshape(x_dims, target):
    t = tensor("t", "int64", [len(target)], raw=struct.pack("<%dq" % len(target), *target))
    return model([node("Reshape", ["x", "t"], ["y"], [attr("allowzero", A_INT, 0)], name="r")],
                 [value_info("x", "float", x_dims)], [value_info("y", "float")],
                 initializers=[t], opset=14)


write("reshape.onnx", reshape([2, 3, 4], [4, -1]))
write("x_small.pb", tensor("x", "float", [2, 3, 4], raw=struct.pack("<24f", *range(24))))
write("reshape_any.onnx", reshape(None, [-1, 4]))
n = mib * (1 << 20) // 4
write("reshape_big.onnx", reshape([n], [-1, 1024]))
payload = bytes(range(256)) * (mib * (1 << 20) // 256)
write("x_big.pb", tensor("x", "float", [n], raw=payload))
write("x_big.bin", payload)
write("x_big_ext.pb", tensor("x", "float", [n], external=[("location", "x_big.bin")]))
