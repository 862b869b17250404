#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# covers: LIMIT-MEMORY
"""Peak memory is bounded by the input (LIMIT-MEMORY): every command on a
file made to amplify memory (15 MB of empty sub-messages, each decoded into a
struct of a hundred bytes or more) either succeeds or stops with the limit
error, and its peak RSS stays within 16 times the file plus 64 MiB. Also a
declared target of 10^8 values takes no memory in infer. Usage:
limits.py ONNXSHAPE WORK_DIR"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from onnxpb import f_bytes, f_int, f_str, model, node, tensor, value_info  # noqa: E402

MIB = 1 << 20
SIZE = 15 * MIB

failures = []


def check(name, args, size, limit_words):
    script = ("import resource, subprocess, sys\n"
              "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
              "sys.stderr.write(p.stderr.decode('utf-8', 'replace'))\n"
              "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", script] + args, capture_output=True, text=True)
    rc, kib = (int(x) for x in p.stdout.split())
    peak = kib * 1024
    bound = 16 * size + 64 * MIB
    ok = (rc == 0 or (rc == 1 and limit_words in p.stderr)) and peak <= bound
    print("%s %s: exit %d, peak %.1f MiB (bound %.1f MiB)%s" % (
        "ok  " if ok else "FAIL", name, rc, peak / MIB, bound / MIB,
        "" if rc == 0 else ": " + p.stderr.strip()))
    if not ok:
        failures.append(name)


def main():
    bin_, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # A graph of empty NodeProto fields (2 bytes each on the wire).
    empty_nodes = f_bytes(1, b"") * (SIZE // 2)
    m = f_int(1, 8) + f_bytes(8, f_str(1, "") + f_int(2, 14)) + f_bytes(7, empty_nodes)
    with open(os.path.join(work, "empty_nodes.onnx"), "wb") as f:
        f.write(m)
    # A TensorProto of empty external_data entries (2 bytes each).
    t = f_int(1, 1) + f_int(2, 1) + f_bytes(13, b"") * (SIZE // 2)
    with open(os.path.join(work, "empty_entries.pb"), "wb") as f:
        f.write(t)
    with open(os.path.join(work, "id.onnx"), "wb") as f:
        f.write(model([node("Identity", ["x"], ["y"])], [value_info("x", "float")],
                      [value_info("y", "float")], opset=14))
    with open(os.path.join(work, "large_target.onnx"), "wb") as f:
        f.write(model([node("Reshape", ["x", "s"], ["y"], name="r")],
                      [value_info("x", "float", [2, 3]), value_info("s", "int64", [10 ** 8])],
                      [value_info("y", "float")], opset=14))
    mo = os.path.join(work, "empty_nodes.onnx")
    words = "the limit is 15 times the input plus 56 MiB"
    for cmd in (["infer", mo], ["check", "--profile", "sonnx", mo], ["run", mo]):
        check(cmd[0] + " on empty sub-messages", [bin_] + cmd, len(m), words)
    # With 32-bit pointers an empty entry decodes to about 12 bytes per input
    # byte, under the limit: the decoder finishes and the loader refuses the
    # empty key. The memory bound is the same.
    with open(bin_, "rb") as f:
        elf32 = f.read(5)[4] == 1
    check("run -i on empty external_data entries",
          [bin_, "run", os.path.join(work, "id.onnx"), "-i", os.path.join(work, "empty_entries.pb")],
          len(t), "external data key '' is not one of location, offset, length, checksum"
          if elf32 else words)
    # 10^8 declared values: nothing is enumerated (a 93-byte model).
    check("infer of a 10^8-value target", [bin_, "infer", os.path.join(work, "large_target.onnx")],
          93, words)
    print("%d passed, %d failed" % (5 - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


main()
