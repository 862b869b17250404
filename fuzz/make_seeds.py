#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds seed corpora in fuzz/corpus-new/<target>/ (not tracked) from the
test models and tensors (the rejected-input corpus, the demo, a sample of
the generated conformance cases) and, for the kernel targets, byte strings
encoding the ONNX and rulebook examples. Nothing runs it at build time: the
committed corpus of each target is the archive fuzz/corpus/<target>.tar.xz,
which `scripts/fuzz --pack fuzz/corpus-new TARGET` replaces with the seeds
alone, or into which a merge takes them (copy them into the working corpus
BUILD/corpus/<target>, then `scripts/fuzz --update-corpus BUILD TARGET`;
docs/fuzzing.md). Usage:
make_seeds.py CONFORMANCE_DIR [TARGET...]   (default: every target)"""
import glob
import hashlib
import os
import shutil
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
gen = sys.argv[1]
only = set(sys.argv[2:])
out = os.path.join(here, "corpus-new")


def put(target, data):
    if only and target not in only:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


ALL = ("fuzz_model", "fuzz_tensor", "fuzz_kernels", "fuzz_capacity", "fuzz_infer", "fuzz_check",
       "fuzz_run", "fuzz_test", "fuzz_npy")
for t in ALL:
    if not only or t in only:
        shutil.rmtree(os.path.join(out, t), ignore_errors=True)
models = sorted(glob.glob(os.path.join(root, "tests/reject/files/*.onnx")))
models.append(os.path.join(root, "examples/demo.onnx"))
cases = sorted(glob.glob(os.path.join(gen, "gen_*")))
models += [os.path.join(c, "model.onnx") for c in cases[::6]]
for m in models:
    put("fuzz_model", open(m, "rb").read())
tensors = sorted(glob.glob(os.path.join(root, "tests/reject/files/*.pb")))
tensors += sorted(glob.glob(os.path.join(gen, "gen_*_typed/test_data_set_0/input_0.pb")))[::2]
tensors += [os.path.join(c, "test_data_set_0/output_0.pb") for c in cases[::10]]
for t in tensors:
    put("fuzz_tensor", open(t, "rb").read())


# NumPy .npy files (fuzz_npy): np.save's bytes for a few dtypes, orders and
# shapes, and headers of versions 2.0 and 3.0.
if not only or "fuzz_npy" in only:
    import io  # noqa: E402

    import numpy as np  # noqa: E402

    def npy(a, version=None):
        f = io.BytesIO()
        if version is None:
            np.save(f, a)
        else:
            np.lib.format.write_array(f, a, version=version)
        return f.getvalue()

    a23 = np.arange(6, dtype="<f4").reshape(2, 3)
    for a in (a23, np.asfortranarray(np.arange(24, dtype=">i2").reshape(2, 3, 4)),
              np.array([True, False]), np.array(7, dtype="<u8"), np.zeros((2, 0, 3), "<c16"),
              np.array([1 + 2j], dtype=">c8"), np.array([0.5, -2], dtype="<f2"),
              np.array([b"ab", b"", b"c\x00d"]), np.array(["h\u00e9", "\U0001F600"]),
              np.asfortranarray(np.array([["a", "bb"], ["ccc", ""]], dtype=">U3"))):
        put("fuzz_npy", npy(a))
    put("fuzz_npy", npy(a23, (2, 0)))
    put("fuzz_npy", npy(a23, (3, 0)))


def small(v):
    """One value as fuzz_input.h reads it."""
    if -2 <= v <= 9:
        return bytes([v + 2])
    return bytes([255]) + struct.pack("<q", v)


def reshape_seed(version_index, type_num, dims, target, flags=0):
    return (bytes([1, version_index, type_num, len(dims), len(target), flags]) +
            b"".join(small(d) for d in dims) + b"".join(small(v) for v in target))


big = 1 << 32
seeds = [
    reshape_seed(3, 1, [2, 3, 4], [4, 2, 3]), reshape_seed(3, 1, [2, 3, 4], [2, -1, 2]),
    reshape_seed(3, 1, [2, 3, 4], [2, 0, 4, 1]), reshape_seed(3, 1, [2, 3, 4], [2, 0, 1, -1]),
    reshape_seed(3, 1, [0, 3, 4], [3, 4, 0], flags=1 | 4), reshape_seed(3, 1, [0, 3, 4], [-1, 0]),
    reshape_seed(3, 1, [24], [2305843009213693955, 8]), reshape_seed(8, 22, [7], [7, 1]),
    reshape_seed(3, 1, [big, big, 0], [0, 0, -1]), reshape_seed(0, 10, [2, 3], [3, -1]),
    reshape_seed(3, 8, [], [-1]),
    bytes([0, 2, 1, 1, 3, 3]) + small(2) + small(3) + small(4) + small(-1) + small(9),
    bytes([0, 7, 6, 26, 3, 3]) + small(big) + small(big) + small(0) + small(-2) + small(2),
]
for s in seeds:
    put("fuzz_kernels", s)
    put("fuzz_capacity", s[1:] + bytes([3]))

# The command's entry points (fuzz_infer, fuzz_check, fuzz_run, fuzz_test):
# the models and tensors of the CLI tests, as the targets cut their input.
import subprocess  # noqa: E402
import tempfile  # noqa: E402

cli = tempfile.mkdtemp()
subprocess.run(["/usr/bin/python3", os.path.join(root, "tests/cli/make_data.py"), cli], check=True,
               stdout=subprocess.DEVNULL)
cli_models = sorted(glob.glob(os.path.join(cli, "*.onnx"))) + models[:40]
for m in cli_models:
    if os.path.getsize(m) > 65536:
        continue
    data = open(m, "rb").read()
    put("fuzz_infer", data)
    put("fuzz_check", data)


def cut(a, b):
    return struct.pack("<H", len(a)) + a + b


def read(p):
    return open(p, "rb").read()


pairs = [("demo.onnx", os.path.join(root, "examples/demo_input.pb"))]
for name, tensor_file in (("identity_any.onnx", "x2.pb"), ("two_outputs.onnx", "x3.pb"),
                          ("forged_run.onnx", "x23.pb"), ("json_bytes.onnx", "x2.pb"),
                          ("long_name.onnx", "x23.pb"), ("id_string.onnx", "t_string.pb"),
                          ("id_int4.onnx", "t_int4.pb"), ("id_complex64.onnx", "t_complex64.pb"),
                          ("bad_target.onnx", "x234.pb"), ("mismatch.onnx", "x234.pb")):
    pairs.append((os.path.join(cli, name), os.path.join(cli, tensor_file)))
for m, t in pairs:
    mb = read(m if os.path.isabs(m) else os.path.join(root, "examples", m))
    put("fuzz_run", bytes([0]) + cut(mb, read(t)))  # flags: text output
    put("fuzz_run", bytes([1]) + cut(mb, read(t)))  # --json
for c in cases[::20] + [os.path.join(cli, d) for d in ("bt_ok", "bt_extra_output",
                                                      "bt_extra_input")]:
    m = read(os.path.join(c, "model.onnx"))
    i = os.path.join(c, "test_data_set_0", "input_0.pb")
    o = os.path.join(c, "test_data_set_0", "output_0.pb")
    if not os.path.exists(i) or not os.path.exists(o) or len(m) > 65536:
        continue
    put("fuzz_test", bytes([1]) + cut(m, cut(read(i), read(o))))
shutil.rmtree(cli)
print(sum(len(os.listdir(os.path.join(out, t))) for t in ALL
          if os.path.isdir(os.path.join(out, t))))
