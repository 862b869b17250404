#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a conformance suite (conformance/build.py) through runners and
classifies every case (conformance/README.md, "Runner protocol").

Usage: run.py [options] SUITE_DIR RUNNER...
  --timeout SECONDS     per case (default 30)
  --check-errors        a negative case passes only when the runner's stderr
                        holds the case's onnxshape_message and, if it names
                        an ONNXSHAPE_ERR_* status, the expected one (for
                        onnxshape's own runners)
  --require-pass        exit 1 unless every case of every runner passes
  --min-positive N, --min-negative M
                        exit 1 when the suite has fewer cases (so that a
                        broken suite cannot pass by testing nothing)
  --json FILE           write every result as JSON (for conformance/report.py)
  --negative-only       run the negative cases only
A runner that exits 77 on the first case is unavailable: it is reported and
skipped (exit 77 if every runner is).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

CLASSES = ["pass", "wrong-output", "rejects-allowed", "accepts-forbidden", "wrong-error", "timeout",
           "crash"]

# ---- TensorProto decoding --------------------------------------------------

# TensorProto.DataType -> (name, bits per element)
TYPES = {1: ("float", 32), 2: ("uint8", 8), 3: ("int8", 8), 4: ("uint16", 16),
         5: ("int16", 16), 6: ("int32", 32), 7: ("int64", 64), 8: ("string", 0),
         9: ("bool", 8), 10: ("float16", 16), 11: ("double", 64), 12: ("uint32", 32),
         13: ("uint64", 64), 14: ("complex64", 64), 15: ("complex128", 128),
         16: ("bfloat16", 16), 17: ("float8e4m3fn", 8), 18: ("float8e4m3fnuz", 8),
         19: ("float8e5m2", 8), 20: ("float8e5m2fnuz", 8), 21: ("uint4", 4), 22: ("int4", 4),
         23: ("float4e2m1", 4), 24: ("float8e8m0", 8), 25: ("uint2", 2), 26: ("int2", 2)}


class DecodeError(Exception):
    pass


def _varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b) or shift > 63:
            raise DecodeError("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def _fields(b):
    """(field, wire type, value) of every field of a message; value an int
    for varints, bytes otherwise."""
    i = 0
    while i < len(b):
        k, i = _varint(b, i)
        field, wire = k >> 3, k & 7
        if wire == 0:
            v, i = _varint(b, i)
        elif wire == 1:
            v, i = b[i:i + 8], i + 8
        elif wire == 5:
            v, i = b[i:i + 4], i + 4
        elif wire == 2:
            n, i = _varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise DecodeError("wire type %d" % wire)
        if i > len(b):
            raise DecodeError("truncated field %d" % field)
        yield field, wire, v


def _ints(wire, v):
    """The integers of a repeated varint field entry (packed or not)."""
    if wire == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = _varint(v, i)
        out.append(x)
    return out


def _signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def decode_tensor(b):
    """(type number, dims, payload) of a serialized TensorProto: payload the
    list of strings for string tensors, else the raw little-endian storage
    with the padding bits of sub-byte types cleared, whichever field held
    the values."""
    dims, dtype, raw, strings, external = [], None, None, [], False
    typed = {4: [], 5: [], 7: [], 10: [], 11: []}
    for field, wire, v in _fields(b):
        if field == 1:
            dims.extend(_signed(x, 64) for x in _ints(wire, v))
        elif field == 2 and wire == 0:
            dtype = v
        elif field == 9 and wire == 2:
            raw = bytes(v)
        elif field == 6 and wire == 2:
            strings.append(bytes(v))
        elif field in (4, 10):  # float_data, double_data: fixed-width bits
            typed[field].append(bytes(v))
        elif field in (5, 7, 11):
            typed[field].extend(_ints(wire, v))
        elif field == 14 and wire == 0 and v == 1:
            external = True
    if dtype not in TYPES:
        raise DecodeError("data_type %r is not a known type" % dtype)
    if external:
        raise DecodeError("external data is not supported in outputs")
    name, bits = TYPES[dtype]
    n = 1
    for d in dims:
        if d < 0:
            raise DecodeError("negative dim %d" % d)
        n *= d
    if name == "string":
        if len(strings) != n:
            raise DecodeError("%d strings for %d elements" % (len(strings), n))
        return dtype, dims, strings
    nbytes = (n * bits + 7) // 8
    if raw is None:
        raw = _typed_storage(name, bits, n, typed)
    if len(raw) != nbytes:
        raise DecodeError("%d bytes of data for %d %s elements" % (len(raw), n, name))
    if bits < 8 and n * bits % 8:
        raw = raw[:-1] + bytes([raw[-1] & ((1 << (n * bits % 8)) - 1)])
    return dtype, dims, raw


def _typed_storage(name, bits, n, typed):
    if name in ("float", "complex64"):
        return b"".join(typed[4])
    if name in ("double", "complex128"):
        return b"".join(typed[10])
    if name == "int64":
        return b"".join(struct.pack("<q", _signed(x, 64)) for x in typed[7])
    if name in ("uint32", "uint64"):
        fmt = "<I" if name == "uint32" else "<Q"
        return b"".join(struct.pack(fmt, x & ((1 << (bits)) - 1)) for x in typed[11])
    width = 1 if bits < 8 else bits // 8  # 4- and 2-bit: one packed byte per entry
    return b"".join((x & ((1 << (8 * width)) - 1)).to_bytes(width, "little") for x in typed[5])


def describe(t):
    dtype, dims, payload = t
    return "%s %s" % (TYPES[dtype][0], dims)


def compare(got_path, want_path):
    """None when the two TensorProto files hold the same type, dims and
    values (bit for bit; strings by content), else the difference."""
    with open(want_path, "rb") as f:
        want = decode_tensor(f.read())
    try:
        with open(got_path, "rb") as f:
            got = decode_tensor(f.read())
    except (OSError, DecodeError) as e:
        return "%s: %s" % (os.path.basename(got_path), e)
    if got[0] != want[0] or got[1] != want[1]:
        return "%s: %s, expected %s" % (os.path.basename(got_path), describe(got), describe(want))
    if got[2] != want[2]:
        return "%s: the values differ" % os.path.basename(got_path)
    return None


# ---- running ---------------------------------------------------------------

def load_case(case_dir):
    with open(os.path.join(case_dir, "requirement")) as f:
        req = f.read().strip()
    err_path = os.path.join(case_dir, "expected_error.json")
    expected_error = None
    if os.path.exists(err_path):
        with open(err_path) as f:
            expected_error = json.load(f)
    data = os.path.join(case_dir, "test_data_set_0")
    outputs = sorted((p for p in os.listdir(data) if p.startswith("output_")),
                     key=lambda p: int(p[len("output_"):-len(".pb")]))
    if (expected_error is None) == (not outputs):
        raise SystemExit("run.py: %s must hold either output files or expected_error.json"
                         % case_dir)
    return {"name": os.path.basename(case_dir), "requirement": req,
            "expected_error": expected_error, "outputs": outputs, "dir": case_dir}


def run_case(runner, case, timeout, check_errors, scratch):
    out = tempfile.mkdtemp(dir=scratch)
    try:
        try:
            p = subprocess.run([runner, case["dir"], out], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", "no answer in %g s" % timeout, None
        err = p.stderr.decode("utf-8", "replace").strip()
        last = err.splitlines()[-1] if err else ""
        if p.returncode < 0:
            return "crash", "killed by signal %d" % -p.returncode, p.returncode
        expected = case["expected_error"]
        if expected is not None:
            if p.returncode == 0:
                return "accepts-forbidden", "ran; expected %s" % expected["status"], 0
            if check_errors:
                if expected["onnxshape_message"] not in err:
                    return "wrong-error", "message %r, expected %r" % (
                        last, expected["onnxshape_message"]), p.returncode
                named = [w for w in err.replace(":", " ").split() if w.startswith("ONNXSHAPE_ERR_")]
                if named and named[0] != expected["status"]:
                    return "wrong-error", "status %s, expected %s" % (
                        named[0], expected["status"]), p.returncode
            return "pass", last, p.returncode
        if p.returncode != 0:
            return "rejects-allowed", last or "exit %d" % p.returncode, p.returncode
        data = os.path.join(case["dir"], "test_data_set_0")
        made = sorted(x for x in os.listdir(out) if x.startswith("output_"))
        if len(made) != len(case["outputs"]):
            return "wrong-output", "%d outputs, expected %d" % (len(made), len(case["outputs"])), 0
        for o in case["outputs"]:
            diff = compare(os.path.join(out, o), os.path.join(data, o))
            if diff:
                return "wrong-output", diff, 0
        return "pass", "", 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


def table(results, cases):
    """Per requirement: positive and negative counts and each class."""
    reqs = {}
    for case, (cls, _, _) in zip(cases, results):
        row = reqs.setdefault(case["requirement"], {"positive": 0, "negative": 0,
                                                    **{c: 0 for c in CLASSES}})
        row["negative" if case["expected_error"] else "positive"] += 1
        row[cls] += 1
    return reqs


def print_table(runner, reqs, totals):
    cols = ["positive", "negative"] + CLASSES
    w = max(len(r) for r in list(reqs) + ["requirement"])
    print("%-*s  %s" % (w, "requirement", "  ".join("%*s" % (len(c), c) for c in cols)))
    for r in sorted(reqs):
        print("%-*s  %s" % (w, r, "  ".join("%*d" % (len(c), reqs[r][c]) for c in cols)))
    print("%-*s  %s" % (w, "total", "  ".join("%*d" % (len(c), totals[c]) for c in cols)))


def main(argv):
    opts = {"timeout": 30.0, "check_errors": False, "require_pass": False, "min_positive": 0,
            "min_negative": 0, "json": None, "negative_only": False}
    args = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--timeout", "--min-positive", "--min-negative", "--json"):
            if i + 1 >= len(argv):
                sys.stderr.write("run.py: %s needs a value\n" % a)
                return 2
            key = a[2:].replace("-", "_")
            opts[key] = argv[i + 1] if a == "--json" else float(argv[i + 1])
            i += 2
            continue
        if a in ("--check-errors", "--require-pass", "--negative-only"):
            opts[a[2:].replace("-", "_")] = True
        elif a.startswith("--"):
            sys.stderr.write("run.py: unknown option %s\n" % a)
            return 2
        else:
            args.append(a)
        i += 1
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    suite, runners = args[0], args[1:]
    if not os.path.isdir(suite):
        sys.stderr.write("run.py: %s is not a directory\n" % suite)
        return 2
    for r in runners:
        if not (os.path.isfile(r) and os.access(r, os.X_OK)):
            sys.stderr.write("run.py: runner %s is not an executable file\n" % r)
            return 2
    cases = [load_case(os.path.join(suite, d)) for d in sorted(os.listdir(suite))
             if d.startswith("test_") and os.path.isdir(os.path.join(suite, d))]
    npos = sum(1 for c in cases if not c["expected_error"])
    nneg = len(cases) - npos
    print("run.py: %s: %d positive and %d negative cases" % (suite, npos, nneg))
    if npos < opts["min_positive"] or nneg < opts["min_negative"]:
        sys.stderr.write("run.py: expected at least %d positive and %d negative cases\n"
                         % (opts["min_positive"], opts["min_negative"]))
        return 1
    if opts["negative_only"]:
        cases = [c for c in cases if c["expected_error"]]
    report = {"suite": os.path.abspath(suite), "positive": npos, "negative": nneg, "runners": []}
    failed = False
    available = 0
    scratch = tempfile.mkdtemp(prefix="onnxshape-conf-run-")
    try:
        for runner in runners:
            results = []
            for k, case in enumerate(cases):
                res = run_case(runner, case, opts["timeout"], opts["check_errors"], scratch)
                if k == 0 and res[2] == 77:
                    break
                results.append(res)
            if len(results) < len(cases):
                print("run.py: %s: unavailable, skipped (%s)" % (runner, res[1]))
                report["runners"].append({"runner": runner, "skipped": res[1]})
                continue
            available += 1
            reqs = table(results, cases)
            totals = {c: sum(r[c] for r in reqs.values())
                      for c in ["positive", "negative"] + CLASSES}
            print("\nrun.py: runner %s" % runner)
            print_table(runner, reqs, totals)
            bad = [(c, r) for c, r in zip(cases, results) if r[0] != "pass"]
            for case, (cls, why, _) in bad[:20]:
                print("  %s %s: %s" % (cls, case["name"], why))
            if len(bad) > 20:
                print("  (and %d more)" % (len(bad) - 20))
            print("run.py: %s: %d of %d cases pass" % (runner, totals["pass"], len(cases)))
            failed = failed or bool(bad)
            report["runners"].append({
                "runner": runner, "requirements": reqs, "totals": totals,
                "cases": [{"name": c["name"], "requirement": c["requirement"],
                           "negative": bool(c["expected_error"]), "class": r[0], "detail": r[1]}
                          for c, r in zip(cases, results)]})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if opts["json"]:
        with open(opts["json"], "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    if available == 0:
        return 77
    return 1 if failed and opts["require_pass"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
