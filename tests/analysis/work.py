#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# covers: LIMIT-ANALYSIS-WORK
"""The analysis's work budget (LIMIT-ANALYSIS-WORK), per handler family,
counted, not timed: for each family a model with the worst inputs found
for it (many inputs, high ranks, long targets, chains that grow ranks, a
costly body called many times) is analysed by work_tool, which prints the
units spent, the limit (2^22 + 64 per byte of the file) and the nodes left
unknown. Every analysis must spend no more than its limit; where the work
asked for is past the limit, nodes must be left unknown (and counted), and
where it is not, none. A CPU-time cap guards against a loop that escapes
the count (it is not the measure). Usage: work.py WORK_TOOL WORK_DIR"""
import json
import os
import resource
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from onnxpb import (A_GRAPH, A_INT, A_INTS, attr, f_bytes, f_int, f_str, graph, model,  # noqa: E402
                    node, tensor, value_info)

CPU_CAP = 20  # seconds of CPU for one analysis: a guard, never reached when the count holds
failures = []


def ones(rank, last=1):
    return [1] * (rank - 1) + [last]


def i64_tensor(name, dims):
    n = 1
    for d in dims:
        n *= d
    return tensor(name, "int64", dims, raw=struct.pack("<%dq" % n, *range(n)))


def families():
    """(name, model bytes, values whose rank is reported, expect out_of_work)."""
    fam = []
    # Elementwise values: Max of 1,024 inputs of 1,024 elements over rank
    # 1,024: each output element reads every input through every dim
    # (2^30 units a node). Dims are kept, values left unknown.
    a = i64_tensor("a", ones(1024, 1024))
    nodes = [node("Max", ["a"] * 1024, ["m%d" % i]) for i in range(16)]
    fam.append(("elementwise_values", model(nodes, [], [value_info("m0", "int64")],
                                            initializers=[a], opset=13), ["m0", "m15"], True))
    # Legacy equal dims (Max-6): 60,000 inputs of rank 4,096 compared dim
    # by dim (2.5e8 units).
    b = i64_tensor("b", ones(4096))
    fam.append(("elementwise_legacy", model([node("Max", ["b"] * 60000, ["y"])], [],
                                            [value_info("y", "int64")], initializers=[b],
                                            opset=6), ["y"], True))
    # The elementwise family's legacy equal dims (Sum-6, no broadcasting):
    # the same 60,000 inputs of rank 4,096 (2.5e8 units).
    fam.append(("elementwise_family_legacy", model([node("Sum", ["b"] * 60000, ["y"])], [],
                                                   [value_info("y", "int64")], initializers=[b],
                                                   opset=6), ["y"], True))
    # Broadcast dims: Add of 2 inputs, nothing costly (no budget hit).
    fam.append(("elementwise_small", model([node("Add", ["b", "b"], ["y"])], [],
                                           [value_info("y", "int64")], initializers=[b],
                                           opset=13), ["y"], False))
    # Concat: 60,000 inputs of rank 4,096, each dim looking at every input.
    fam.append(("concat", model([node("Concat", ["b"] * 60000, ["y"],
                                      [attr("axis", A_INT, 0)])], [],
                                [value_info("y", "int64")], initializers=[b], opset=13),
                ["y"], True))
    # Gather: a chain whose rank grows by 999 a node (indices of rank 1,000).
    idx = i64_tensor("i", [1] * 1000)
    d0 = i64_tensor("d0", [1])
    gnodes = [node("Gather", ["d%d" % k, "i"], ["d%d" % (k + 1)]) for k in range(3000)]
    fam.append(("gather_rank_growth", model(gnodes, [], [value_info("d3000", "int64")],
                                            initializers=[idx, d0], opset=13),
                ["d1", "d3000"], True))
    # Reshape to Shape(x) + [-1] with 1,023 symbolic dims: to work the -1
    # out, every input symbol looks for its match among the target's (a
    # million units a node).
    x = value_info("x", "float", ["S%d" % (k % 7) for k in range(1023)])
    m1 = i64_tensor("m1", [1])
    rnodes = [node("Shape", ["x"], ["sh"]), node("Sub", ["m1", "m1"], ["z"]),
              node("Sub", ["z", "one1"], ["neg"]),
              node("Concat", ["sh", "neg"], ["s"], [attr("axis", A_INT, 0)])]
    rnodes += [node("Reshape", ["x", "s"], ["r%d" % k]) for k in range(400)]
    one1 = tensor("one1", "int64", [1], raw=struct.pack("<q", 1))
    fam.append(("reshape_symbolic", model(rnodes, [x], [value_info("r0", "float")],
                                          initializers=[m1, one1], opset=14),
                ["r0", "r399"], True))
    # Identity and Shape on a value of rank 4,096, 2,000 times: each copies
    # the dims (8 million units).
    inodes = [node("Identity", ["b"], ["c%d" % k]) for k in range(1000)]
    inodes += [node("Shape", ["b"], ["s%d" % k]) for k in range(1000)]
    fam.append(("identity_shape", model(inodes, [], [value_info("c0", "int64")],
                                        initializers=[b], opset=13), ["c0", "s999"], True))
    # Size: each counts the rank-4,096 dims (4,096 units a node).
    snodes = [node("Size", ["b"], ["z%d" % k]) for k in range(3000)]
    fam.append(("size", model(snodes, [], [value_info("z0", "int64")], initializers=[b],
                              opset=13), ["z0"], True))
    # Split into 64 outputs of rank 4,096, 2,000 times (262,144 units a
    # node: every output's dims).
    spl = [node("Split", ["b"], ["p%d_%d" % (k, j) for j in range(64)]) for k in range(2000)]
    fam.append(("split_outputs", model(spl, [], [value_info("p0_0", "int64")], initializers=[b],
                                       opset=13), ["p0_0", "p1999_63"], True))
    # Transpose, Tile, Flatten, Expand and a reduction of a value of rank
    # 4,096 (each a pass or two over the dims, products of the dims).
    reps = i64_tensor("reps", [4096])
    tnodes = []
    for k in range(600):
        tnodes += [node("Transpose", ["b"], ["t%d" % k]), node("Tile", ["b", "reps"], ["l%d" % k]),
                   node("Flatten", ["b"], ["f%d" % k]), node("Expand", ["b", "reps"], ["e%d" % k]),
                   node("ReduceSum", ["b"], ["u%d" % k])]
    fam.append(("tensor_ops", model(tnodes, [], [value_info("t0", "int64")],
                                    initializers=[b, reps], opset=13), ["t0", "u599"], True))
    # If with an unknown condition: both branches' rank-4,096 outputs joined.
    br = [graph([node("Identity", ["b"], ["o"])], [], [value_info("o", "int64")])]
    ifs = [node("If", ["cond"], ["f%d" % k], [attr("then_branch", A_GRAPH, br[0]),
                                              attr("else_branch", A_GRAPH, br[0])],
                name="if%d" % k) for k in range(300)]
    fam.append(("if_join", model(ifs, [value_info("cond", "bool", [])],
                                 [value_info("f0", "int64")], initializers=[b], opset=16),
                ["f0", "f299"], True))
    # A model-local function whose body holds the costly Max, called 40
    # times (13 bytes a call).
    body = f_bytes(7, node("Max", ["A"] * 1024, ["Y"]))
    fn = (f_str(1, "F") + f_str(4, "A") + f_str(5, "Y") + body +
          f_bytes(9, f_str(1, "") + f_int(2, 13)) + f_str(10, "custom"))
    calls = [node("F", ["a"], ["y%d" % k], domain="custom", name="c%d" % k) for k in range(40)]
    fam.append(("function_calls", model(calls, [], [value_info("y0", "int64")],
                                        initializers=[a], opset=13,
                                        extra_opsets=[("custom", 1)]) + f_bytes(25, fn),
                ["y0", "y39"], True))
    # The integer operators on their largest tracked inputs (1,024
    # elements): each costs about a thousand units, never the budget.
    v = i64_tensor("v", [1024])
    one = i64_tensor("one", [1])
    cheap = [node("Cast", ["v"], ["k0"], [attr("to", A_INT, 7)]),
             node("Not", ["v"], ["k1"]),
             node("Slice", ["v", "one", "one"], ["k2"]),
             node("Unsqueeze", ["v", "one"], ["k3"]),
             node("Squeeze", ["k3", "one"], ["k4"]),
             node("Where", ["v", "v", "v"], ["k5"]),
             node("ConstantOfShape", ["one"], ["k6"]),
             node("Range", ["one", "one", "one"], ["k7"]),
             node("ReduceProd", ["v"], ["k8"], [attr("keepdims", A_INT, 0)]),
             node("Equal", ["v", "v"], ["k9"]),
             node("Greater", ["v", "v"], ["k10"]),
             node("Neg", ["v"], ["k11"]),
             node("Mod", ["v", "v"], ["k12"])]
    fam.append(("integer_operators", model(cheap * 1, [], [value_info("k0", "int64")],
                                           initializers=[v, one], opset=13),
                ["k0", "k4", "k8"], False))
    # Once the budget is spent, later nodes must not scan their inputs
    # unpaid: Max-6 nodes drain it, then 66,000 Size nodes of a rank-400,000
    # input each had scanned every dim for nothing (3.4 s of CPU where the
    # same model with the Size nodes on a rank-1 input takes 0.5 s; every
    # input is now charged before its handler runs). The control is that
    # model: the two must take about the same time.
    r = 400000
    shape = f_bytes(1, f_int(1, 1)) * r
    xr = f_str(1, "x") + f_bytes(2, f_bytes(1, f_int(1, 1) + f_bytes(2, shape)))
    yr = tensor("y", "float", [2] + [1] * (r - 1), raw=struct.pack("<2f", 0, 0))
    one = tensor("w", "float", [1], raw=struct.pack("<f", 0))
    drain = [node("Max", ["x"] + ["y"] * ((1 << j) - 1), ["d%d" % j]) for j in range(12, 0, -1)]

    def sizes(of):
        return [node("Size", [of], ["s%d" % i]) for i in range(66000)]
    fam.append(("scan_after_budget", model(drain + sizes("x"), [xr], [value_info("s0", "int64")],
                                           initializers=[yr, one], opset=6),
                ["s0", "s65999"], True,
                model(drain + sizes("w"), [xr], [value_info("s0", "int64")],
                      initializers=[yr, one], opset=6)))
    # One dim_param of 1.5 MB compared by 100,000 Add nodes: symbols are
    # interned once, then compared as pointers (each comparison had walked
    # the name: 8 s). The control holds the same bytes as a doc_string and
    # a one-letter symbol. A name past 1,024 bytes is shown as not known,
    # and each such value counted as incomplete.
    adds = [node("Add", ["x", "x"], ["a%d" % i]) for i in range(100000)]
    fam.append(("long_symbol", model(adds, [value_info("x", "int64", ["S" * 1500000])],
                                     [value_info("a0", "int64")], opset=13),
                ["a0", "a99999"], True,
                model(adds, [value_info("x", "int64", ["S"])], [value_info("a0", "int64")],
                      opset=13, graph_extra=f_str(10, "S" * 1500000))))
    return fam


def ledger():
    """(name, model bytes, work, out_of_work): small models whose work is
    recorded here unit for unit. The budget bounds the cost only while every
    handler charges what it does; a charge dropped or made smaller (a
    product of expressions, an allocation, a node's outputs, an attribute's
    list) changes these numbers. A change of the cost model updates them,
    deliberately, with the reason in its commit."""
    led = []
    # Symbolic dims multiplied (Size: N*S*4; Mul of two shapes), a Split
    # into 3 outputs, a RandomNormal of a rank-5 shape attribute, Shape.
    x = value_info("x", "float", ["N", "S", 6])
    nodes = [node("Size", ["x"], ["z"]), node("Shape", ["x"], ["s"]),
             node("Mul", ["s", "s"], ["ss"]), node("Mul", ["ss", "s"], ["sss"]),
             node("Split", ["x"], ["p0", "p1", "p2"], [attr("axis", A_INT, 2)]),
             node("RandomNormal", [], ["rn"], [attr("shape", A_INTS, [2, 3, 4, 5, 6])]),
             node("Reshape", ["x", "s"], ["r"])]
    led.append(("ledger_symbolic", model(nodes, [x], [value_info("z", "int64")], opset=13),
                LEDGER["ledger_symbolic"], 0))
    # Max-6 nodes each past the budget (400 inputs of rank 4,096 compared
    # dim by dim), then an If whose cheap branches (an initializer and an
    # Identity) are still analysed: the 4 Max nodes are left unknown and
    # counted, and what they looked at before stopping is charged.
    b = i64_tensor("b", ones(4096))
    drain = [node("Max", ["b"] * 400, ["m%d" % k]) for k in range(4)]
    init = i64_tensor("w", [3])
    br = graph([node("Identity", ["w"], ["o"])], [], [value_info("o", "int64")],
               initializers=[init])
    ifn = node("If", ["cond"], ["f"], [attr("then_branch", A_GRAPH, br),
                                        attr("else_branch", A_GRAPH, br)])
    led.append(("ledger_drained", model(drain + [ifn], [value_info("cond", "bool", [])],
                                        [value_info("f", "int64")], initializers=[b], opset=6),
                LEDGER["ledger_drained"], LEDGER_OUT["ledger_drained"]))
    # 300 symbols, each interned by the analysis (its table probes
    # charged), measured and concatenated: the work must not depend on the
    # loader's random key (main() runs it under two more).
    xs = [value_info("x%d" % k, "float", ["S%d" % k, 2]) for k in range(300)]
    shapes = [node("Shape", ["x%d" % k], ["s%d" % k]) for k in range(300)]
    cat = node("Concat", ["s%d" % k for k in range(300)], ["c"], [attr("axis", A_INT, 0)])
    led.append(("ledger_symbols", model(shapes + [cat], xs, [value_info("c", "int64")], opset=13),
                LEDGER["ledger_symbols"], 0))
    return led


# The ledger's work, and its nodes and values left unknown at the budget.
LEDGER = {"ledger_symbolic": 504, "ledger_drained": 4921753, "ledger_symbols": 9724}
LEDGER_OUT = {"ledger_drained": 4}


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def same_cost(tool, work, name, control, used):
    """The family took at most three times its control's CPU (plus 0.3 s):
    a loop that escapes the count shows as time the control does not
    spend, whatever the machine's speed (a sanitizer or an emulator slows
    both alike)."""
    path = os.path.join(work, name + "_control.onnx")
    with open(path, "wb") as f:
        f.write(control)
    base = cpu_children()
    subprocess.run([tool, path], capture_output=True, preexec_fn=limit_cpu(CPU_CAP))
    base = cpu_children() - base
    ok = used <= 3 * base + 0.3
    print("%s %s: %.2f s of CPU, its control %.2f s" % ("ok  " if ok else "FAIL", name, used, base))
    return ok


def limit_cpu(cap):
    return lambda: resource.setrlimit(resource.RLIMIT_CPU, (cap, cap))


def main():
    tool, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for fam in families():
        name, data, values, expect_out = fam[:4]
        control = fam[4] if len(fam) > 4 else None
        path = os.path.join(work, name + ".onnx")
        with open(path, "wb") as f:
            f.write(data)
        used = cpu_children()
        p = subprocess.run([tool, path] + values, capture_output=True, text=True,
                           preexec_fn=limit_cpu(CPU_CAP))
        used = cpu_children() - used
        if control is not None and not same_cost(tool, work, name, control, used):
            failures.append(name)
            continue
        if p.returncode != 0:
            print("FAIL %s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
            failures.append(name)
            continue
        r = json.loads(p.stdout)
        limit = 2 ** 22 + 64 * len(data)
        ok = r["work_limit"] == limit and r["work_used"] <= limit
        ok = ok and (r["out_of_work"] > 0) == expect_out
        print("%s %s: %d bytes, work %d of %d, %d left unknown at the budget, ranks %s" % (
            "ok  " if ok else "FAIL", name, len(data), r["work_used"], r["work_limit"],
            r["out_of_work"], json.dumps(r["ranks"], sort_keys=True)))
        if not ok:
            failures.append(name)
    for name, data, want, want_out in ledger():
        path = os.path.join(work, name + ".onnx")
        with open(path, "wb") as f:
            f.write(data)
        # The name hash's key fixed: its probes are charged (LIMIT-HASH)
        p = subprocess.run([tool, "--fixed-key", path], capture_output=True, text=True,
                           preexec_fn=limit_cpu(CPU_CAP))
        r = json.loads(p.stdout) if p.returncode == 0 else {}
        if r.get("size_bits") == 32:
            # The name hash is folded to a 32-bit size_t there: other
            # probes, other work. The ledger is recorded for 64-bit hosts.
            print("skip %s: recorded for a 64-bit size_t (work %s here)" % (name,
                                                                      r.get("work_used")))
            continue
        ok = r.get("work_used") == want and r.get("out_of_work") == want_out
        print("%s %s: work %s (recorded %d), %s left unknown at the budget (recorded %d)%s" % (
            "ok  " if ok else "FAIL", name, r.get("work_used"), want, r.get("out_of_work"),
            want_out, "" if p.returncode == 0 else ": exit %d: %s" % (p.returncode,
                                                                   p.stderr.strip())))
        if not ok:
            failures.append(name)
        # The loader's key (random per process) must not change the work:
        # the analysis's symbols hash under a fixed key of their own.
        for key in (("1", "2"), ("9e3779b97f4a7c15", "bf58476d1ce4e5b9")):
            q = subprocess.run([tool, "--key", key[0], key[1], path], capture_output=True,
                               text=True, preexec_fn=limit_cpu(CPU_CAP))
            same = q.returncode == p.returncode and q.stdout == p.stdout
            if not same:
                print("FAIL %s: under key %s the analysis gave %s, under the fixed key %s" % (
                    name, "/".join(key), q.stdout.strip() or q.stderr.strip(), p.stdout.strip()))
                failures.append(name)
    n = len(families()) + len(ledger())
    print("%d passed, %d failed" % (n - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


main()
