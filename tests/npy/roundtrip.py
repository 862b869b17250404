#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# covers: NPY-FILES NPY-DTYPES NPY-WRITE NPY-REJECT-DTYPES NPY-IN-PLACE
"""NumPy .npy files through onnxshape, against NumPy itself (the ctest
`npy_roundtrip`). For every dtype that maps to an ONNX type (bool, int8 to
uint64, float16/32/64, complex64/128, S, U) and shapes (), (0,), (5,),
(2, 3), (2, 0, 3), (3, 4, 5) and one of rank 15, in C order, Fortran order
and big-endian,
np.save writes a file; npy_tool (tests/npy/npy_tool.c) reads it with
onnxshape_tensor_read_file and writes it back with
onnxshape_tensor_write_npy_file and as a TensorProto with
onnxshape_tensor_write_file. Then:
  - np.load of the written .npy equals the array, with the little-endian
    form of its dtype ('U' arrays come back as 'S', UTF-8 encoded);
  - for numeric dtypes the written bytes are exactly np.save's bytes of the
    array made little-endian and C-contiguous;
  - onnx.numpy_helper.to_array of the .pb equals the array.
A large array (past 64 KiB, read in place from the mapped file) is among
them. Dtypes ONNX has no type for (object, datetime64, timedelta64,
longdouble, void, structured) exit 1 with the expected message.
Usage: roundtrip.py NPY_TOOL WORK_DIR"""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

tool, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
passed = 0

NUMERIC = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]
# (2, 1, ..., 1) of rank 15: the spare room numpy leaves for the first axis
# to grow takes the header past 128 bytes (it does for no smaller shape).
SHAPES = [(), (0,), (5,), (2, 3), (2, 0, 3), (3, 4, 5), (2,) + (1,) * 14]


def values(dtype, shape):
    """Distinct, exactly representable values of dtype in shape."""
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        a = k % 3 == 1
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        a = ((k * 37 + 5) % 100).astype(dt)
        if n > 0:
            a[0] = info.max  # the extremes catch byte-order slips
        if n > 1:
            a[1] = info.min
    elif dt.kind == "f":
        a = (k - 7.25) * (1.5 if dt.itemsize > 2 else 0.5)
    elif dt.kind == "c":
        a = k * 0.5 - 1j * (k + 0.25)
    elif dt.kind == "S":
        words = [b"", b"a", b"bc", b"d\x00e", b"fgh\x00i", b"x" * 7]
        a = np.array([words[i % len(words)] for i in k], dtype="S9")
    else:
        words = ["", "a", "\u00e9t\u00e9", "\u65e5\u672c", "\U0001F600x", "z\x00y"]
        a = np.array([words[i % len(words)] for i in k], dtype="U6")
    return np.asarray(a).astype(dtype).reshape(shape)


def run(name, arr, save=None):
    """Saves arr, runs the tool in the work directory on relative names (so
    that messages do not depend on where the checkout lives: the library
    shortens long names in diagnostics); returns (exit, stderr, paths)."""
    src = os.path.join(work, name + ".npy")
    out = os.path.join(work, name + ".out.npy")
    pb = os.path.join(work, name + ".pb")
    if save is not None:
        save(src)
    else:
        np.save(src, arr)
    r = subprocess.run([tool, name + ".npy", name + ".out.npy", name + ".pb"],
                       capture_output=True, text=True, cwd=work)
    return r.returncode, r.stderr.strip(), src, out, pb


def same(a, b):
    """Equal values, NaNs included (none are made here), same shape."""
    return a.shape == b.shape and np.array_equal(a, b)


def check(name, arr):
    global passed
    code, err, src, out, pb = run(name, arr)
    if code != 0:
        failures.append("%s: npy_tool exit %d: %s" % (name, code, err))
        return
    le = arr.dtype.newbyteorder("<") if arr.dtype.byteorder == ">" else arr.dtype
    back = np.load(out)
    problems = []
    if arr.dtype.kind == "U":
        want = np.char.encode(arr, "utf-8") if arr.size else arr.astype("S1")
        if back.dtype.kind != "S" or not same(back, want):
            problems.append("np.load gives %r %r" % (back.dtype, back))
    elif arr.dtype.kind == "S":
        if back.dtype.kind != "S" or not same(back, arr):
            problems.append("np.load gives %r %r" % (back.dtype, back))
    else:
        if back.dtype != le or not same(back, arr):
            problems.append("np.load gives %r %r, expected %r" % (back.dtype, back, le))
        # The bytes np.save writes for the little-endian, C-order array.
        # (order="C", not np.ascontiguousarray: that makes a 0-d array 1-d.)
        ref = os.path.join(work, name + ".ref.npy")
        np.save(ref, arr.astype(le, order="C"))
        with open(ref, "rb") as f1, open(out, "rb") as f2:
            if f1.read() != f2.read():
                problems.append("written bytes differ from np.save's")
        if arr.flags.f_contiguous and arr.ndim > 1:
            if not same(back, np.ascontiguousarray(arr)):
                problems.append("not np.ascontiguousarray's order")
    t = onnx.load_tensor(pb)
    got = numpy_helper.to_array(t)
    if arr.dtype.kind in "SU":
        texts = [x.decode("utf-8") if isinstance(x, bytes) else x for x in arr.ravel().tolist()]
        want = np.array(texts, dtype=object).reshape(arr.shape)
        if got.shape != arr.shape or got.ravel().tolist() != want.ravel().tolist():
            problems.append("to_array of the .pb gives %r" % got)
    elif got.dtype != le or not same(got, arr):
        problems.append("to_array of the .pb gives %r %r" % (got.dtype, got))
    if problems:
        failures.append("%s: %s" % (name, "; ".join(problems)))
    else:
        passed += 1


for code in NUMERIC + ["S", "U"]:
    for shape in SHAPES:
        dt = code if code in "SU" else "<" + code if np.dtype(code).itemsize > 1 else code
        a = values(dt, shape)
        tag = "%s_%s" % (code.replace("?", "b1"), "x".join(map(str, shape)) or "scalar")
        check(tag, a)
        if len(shape) > 1:
            check(tag + "_fortran", np.asfortranarray(a))
        if code != "S" and np.dtype(dt).itemsize > 1:
            be = a.astype(a.dtype.newbyteorder(">"))
            check(tag + "_be", be)
            if len(shape) > 1:
                check(tag + "_be_fortran", np.asfortranarray(be))

# Large arrays: read in place from the mapped file (little-endian, C order)
# or converted (big-endian, Fortran order).
big = np.arange(40000, dtype="<f8").reshape(200, 200)
check("big_f8", big)
check("big_f8_be", big.astype(">f8"))
check("big_f8_fortran", np.asfortranarray(big))
check("big_U", values("U6", (20000,)))

# dtypes without an ONNX type: refused, with the message.
REJECTED = [
    ("object", lambda p: np.save(p, np.array([1, "a"], dtype=object), allow_pickle=True),
     "descr '|O' is an object array (pickled Python objects), which is never unpickled; "
     "save a TensorProto .pb instead"),
    ("datetime", lambda p: np.save(p, np.array(["2026-01-01"], dtype="datetime64[ns]")),
     "descr '<M8[ns]' is a datetime64 or timedelta64 array, which has no ONNX type"),
    ("timedelta", lambda p: np.save(p, np.array([5], dtype="timedelta64[s]")),
     "descr '<m8[s]' is a datetime64 or timedelta64 array, which has no ONNX type"),
    ("longdouble", lambda p: np.save(p, np.zeros(3, dtype=np.longdouble)),
     "descr '%s' is a long double (extended precision), which has no ONNX type"
     % np.dtype(np.longdouble).str),
    ("clongdouble", lambda p: np.save(p, np.zeros(3, dtype=np.clongdouble)),
     "descr '%s' is a long double (extended precision), which has no ONNX type"
     % np.dtype(np.clongdouble).str),
    ("void", lambda p: np.save(p, np.zeros(3, dtype="V4")),
     "descr '|V4' is a void (raw bytes) type, which has no ONNX type"),
    ("structured", lambda p: np.save(p, np.zeros(3, dtype=[("a", "<i4"), ("b", "<f4")])),
     "descr is a list: a structured dtype (named fields), which has no ONNX type"),
]
for name, save, fragment in REJECTED:
    code, err, src, out, pb = run("reject_" + name, None, save)
    expected = "ONNXSHAPE_ERR_UNKNOWN_TYPE: 'reject_%s.npy': %s" % (name, fragment)
    if code != 1 or expected not in err:
        failures.append("reject_%s: exit %d, stderr %r; expected exit 1 and %r"
                        % (name, code, err, expected))
    elif os.path.exists(out) or os.path.exists(pb):
        failures.append("reject_%s: wrote output" % name)
    else:
        passed += 1

for f in failures:
    print("FAIL " + f)
print("%d passed, %d failed" % (passed, len(failures)))
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failures else 0)
