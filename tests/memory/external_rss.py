#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A tensor reshaped and written back is never held twice in memory: runs
`onnxshape run -o` on a 64 MiB input, as external data and inline
(raw_data), and checks each run's peak RSS against the tensor size (mapped
input pages count once; a copy would double it; with the in-place reader and
file-to-file writes, the pages are not even touched). Usage:
external_rss.py ONNXSHAPE WORK_DIR"""
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from onnxpb import attr, model, node, tensor, value_info, varint, A_INTS  # noqa: E402

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
    block = struct.pack("<1024f", *range(1024))
    # Streamed, so that this process stays small (a child's peak RSS starts
    # from its parent's: it is kept across fork and exec).
    with open(os.path.join(work, "x_inline.pb"), "wb") as f:
        f.write(tensor("x", "float", [n]) + b"\x4a" + varint(SIZE))
        for _ in range(SIZE // len(block)):
            f.write(block)
    failed = 0
    for name, pb in (("external data", "x.pb"), ("inline raw_data", "x_inline.pb")):
        out_dir = os.path.join(work, "out")
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        proc = subprocess.Popen([bin_, "run", os.path.join(work, "m.onnx"), "-i",
                                 os.path.join(work, pb), "-o", out_dir], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        peak = usage.ru_maxrss * 1024
        out = os.path.join(out_dir, "output_0.pb")
        size_ok = status == 0 and os.path.getsize(out) > SIZE
        tail_ok = False
        if size_ok:
            with open(out, "rb") as f:
                f.seek(-4096, os.SEEK_END)
                tail_ok = f.read()[-4:] == struct.pack("<f", 1023.0)
        limit = 1.25 * SIZE
        print("%s: peak RSS %.1f MiB for a %d MiB tensor (limit %.1f MiB); output %s" %
              (name, peak / MIB, SIZE // MIB, limit / MIB, "ok" if size_ok and tail_ok else "WRONG"))
        if not (peak <= limit and size_ok and tail_ok):
            failed += 1
    shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (2 - failed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
