#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""An external-data tensor reshaped and written back is never held twice in
memory: runs `onnxshape run -o` on a 64 MiB external-data input and checks
the child's peak RSS against the tensor size (mapped input pages count once;
a copy would double it). Usage: external_rss.py ONNXSHAPE WORK_DIR"""
import os
import resource
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from onnxpb import attr, model, node, tensor, value_info, A_INTS  # noqa: E402

MIB = 1 << 20
SIZE = 64 * MIB


def main():
    bin_, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "out"))
    n = SIZE // 4
    with open(os.path.join(work, "x.bin"), "wb") as f:
        block = struct.pack("<1024f", *range(1024))
        for _ in range(SIZE // len(block)):
            f.write(block)
    with open(os.path.join(work, "x.pb"), "wb") as f:
        f.write(tensor("x", "float", [n], external=[("location", "x.bin")]))
    m = model([node("Constant", [], ["s"], [attr("value_ints", A_INTS, [1024, -1])]),
               node("Reshape", ["x", "s"], ["y"])],
              [value_info("x", "float", [n])], [value_info("y", "float", [1024, n // 1024])],
              opset=21)
    with open(os.path.join(work, "m.onnx"), "wb") as f:
        f.write(m)
    subprocess.run([bin_, "run", os.path.join(work, "m.onnx"), "-i", os.path.join(work, "x.pb"),
                    "-o", os.path.join(work, "out")], check=True, stdout=subprocess.DEVNULL)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    out = os.path.join(work, "out", "output_0.pb")
    size_ok = os.path.getsize(out) > SIZE
    with open(out, "rb") as f:
        f.seek(-4096, os.SEEK_END)
        tail_ok = f.read()[-4:] == struct.pack("<f", 1023.0)
    limit = 1.25 * SIZE
    print("peak RSS %.1f MiB for a %d MiB tensor (limit %.1f MiB); output %s" %
          (peak / MIB, SIZE // MIB, limit / MIB, "ok" if size_ok and tail_ok else "WRONG"))
    shutil.rmtree(work, ignore_errors=True)
    ok = peak <= limit and size_ok and tail_ok
    print("%d passed, %d failed" % (int(ok), int(not ok)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
