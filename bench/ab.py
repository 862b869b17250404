#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""make bench-ab: the in-process harness of an older commit and of the work
tree, run in alternating rounds on one pinned core, so that a change can be
shown to keep the per-call and model figures (issue "design step": report
before/after from one interleaved run).

Usage: ab.py BUILD REV [ROUNDS]
  BUILD   the work tree's benchmark build directory (make bench-ab passes
          build-bench, which it configures and builds); its bench/bench is used
  REV     the commit to compare against; it is checked out as a detached
          worktree under .cache/bench-ab/REV and built there with BUILD's
          build type (CMAKE_BUILD_TYPE of its cache, RelWithDebInfo when it
          has none), so that both harnesses are compiled alike
  ROUNDS  alternating rounds (default 10); each runs both harnesses with
          --quick, the new one first in odd rounds, the old one first in even
          rounds, so neither always runs on a warmer machine.
Prints one Markdown table: for each figure the median over the rounds of
each round's median, old and new, and new/old."""
import json
import os
import shutil
import statistics
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(msg):
    print("bench-ab: " + msg, file=sys.stderr, flush=True)


def build_type(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip() or "RelWithDebInfo"
    except OSError:
        pass
    return "RelWithDebInfo"


def build_old(rev, btype):
    full = subprocess.run(["git", "-C", TOP, "rev-parse", "--verify", rev + "^{commit}"],
                          check=True, capture_output=True, text=True).stdout.strip()
    tree = os.path.join(TOP, ".cache", "bench-ab", full[:12])
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", TOP, "worktree", "add", "--detach", tree, full], check=True)
    build = os.path.join(tree, "build-bench")
    subprocess.run(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=" + btype],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "onnxshape_bench", "-j", "2"],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(build, "bench", "bench"), full[:12]


def figures(doc):
    out = {}
    for r in doc["per_call"]:
        out["%s %s: infer+run" % (r["op"], r["case"])] = r["time"]["median_ns"]
        out["%s %s: run" % (r["op"], r["case"])] = r["run_only"]["median_ns"]
    for r in doc["by_size"]:
        for k in ("view", "copy"):
            out["Reshape %s %d B" % (k, r["bytes"])] = r[k]["median_ns"]
    for k, v in doc["model"].items():
        out["model %s" % k] = v["median_ns"]
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: ab.py BUILD REV [ROUNDS]")
    new_bin = os.path.join(os.path.abspath(sys.argv[1]), "bench", "bench")
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    if not os.access(new_bin, os.X_OK):
        sys.exit("bench-ab: %s is missing (make bench-ab builds it)" % new_bin)
    old_bin, old_rev = build_old(sys.argv[2], build_type(os.path.abspath(sys.argv[1])))
    data = os.path.join(os.path.abspath(sys.argv[1]), "bench", "data-ab")
    if not os.path.exists(os.path.join(data, "x_small.pb")):
        subprocess.run(["/usr/bin/python3", os.path.join(TOP, "bench", "make_data.py"), data, "16"],
                       check=True, stdout=subprocess.DEVNULL)
    args = [os.path.join(data, "reshape.onnx"), os.path.join(data, "x_small.pb"), "--quick"]
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    runs = {"old": [], "new": []}
    for i in range(rounds):
        order = ("new", "old") if i % 2 == 0 else ("old", "new")
        for who in order:
            exe = new_bin if who == "new" else old_bin
            res = subprocess.run(pin + [exe] + args, check=True, capture_output=True, text=True)
            runs[who].append(figures(json.loads(res.stdout)))
        log("round %d of %d" % (i + 1, rounds))
    print("Interleaved: %d rounds, old = %s, new = work tree; ns per operation, "
          "median of the rounds' medians%s.\n" % (rounds, old_rev, ", pinned to CPU 0" if pin else ""))
    print("| figure | old ns | new ns | new/old | old range | new range |")
    print("|---|---:|---:|---:|---|---|")
    for key in runs["old"][0]:
        if key not in runs["new"][0]:
            continue
        o = [r[key] for r in runs["old"]]
        n = [r[key] for r in runs["new"]]
        print("| %s | %.1f | %.1f | %.2f | %.1f-%.1f | %.1f-%.1f |" % (
            key, statistics.median(o), statistics.median(n),
            statistics.median(n) / statistics.median(o), min(o), max(o), min(n), max(n)))


if __name__ == "__main__":
    main()
