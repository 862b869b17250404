#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Parses JSON-lines output (stdin) and checks it against the schema of one
command (docs/cli.md, "JSON output"); prints one line per object and a last
line naming the schema, or the first problem (exit 1).
Usage: json_check.py infer|check|test|run|why [--several]
--several: the output of several models, each object with its "model" (in
the summary for a summary), a summary ending each model's lines."""
import json
import sys

INFER = {"name": str, "graph": str, "type": (str, type(None)), "dims": (list, type(None)),
         "value": list, "node": str, "domain": str, "op": str, "version": int,
         "kind": str, "element": (dict, type(None)), "length": (int, str, type(None)),
         "holds": (bool, type(None))}
# A sequence's or an optional's element: type and dims, and its own kind.
ELEMENT_KEYS = {"type", "dims", "kind", "element", "length", "holds"}
INFER_REQUIRED = {"name", "graph", "type", "dims"}
CHECK = {"model": str, "rule": str, "severity": str, "graph": str, "node": str, "domain": str,
         "op": str, "version": int, "node_index": int, "message": str}
NODE_KEYS = {"check": {"node", "domain", "op", "version", "node_index"},
             "infer": {"node", "domain", "op", "version"}}
# infer --why: one object per line, {"why", "steps"}; each step an infer
# object with these fields more.
WHY_STEP = dict(INFER, depth=int, parent=(int, type(None)), origin=str, declaration_used=bool,
                known=bool, symbols=list)
WHY_STEP_REQUIRED = INFER_REQUIRED | {"depth", "parent", "origin", "declaration_used", "known"}
ORIGINS = {"input", "initializer", "evaluated", "declared", "undeclared", "budget", "failed",
           "not_analysed"}
SCHEMAS = {
    "why": ({"why": str, "steps": list}, {"why", "steps"}, None),
    "infer": (INFER, INFER_REQUIRED,
              {"nodes": dict, "resolved": int, "partial": int, "unknown": int,
               "not_evaluated": dict, "failures": int, "out_of_work": int}),
    "check": (CHECK, {"model", "rule", "severity", "graph", "message"},
              {"model": str, "profile": (str, type(None)), "findings": int, "errors": int,
               "warnings": int}),
    "test": ({"dir": str, "result": str, "reason": str, "mismatch": dict}, {"dir", "result"},
             {"passed": int, "failed": int, "skipped": int}),
    "run": ({"name": str, "type": str, "dims": list, "values": list},
            {"name", "type", "dims", "values"}, None),
}


def fail(msg):
    print("json_check: " + msg)
    sys.exit(1)


def check_fields(obj, fields, required, where):
    for k, v in obj.items():
        if k not in fields:
            fail(f"{where}: unexpected key {k!r}")
        if not isinstance(v, fields[k]) or (fields[k] is int and isinstance(v, bool)):
            fail(f"{where}: {k!r} has the wrong type: {v!r}")
    missing = required - obj.keys()
    if missing:
        fail(f"{where}: missing {sorted(missing)}")


MISMATCH = {"data_set": str, "output": int, "name": str, "type": str, "count": int,
            "elements": list}
ELEMENT = {"index": list, "got": (int, float, str, list, bool),
           "expected": (int, float, str, list, bool), "got_bits": str, "expected_bits": str}


def check_mismatch(m, where):
    """test's "mismatch": at most 5 elements listed of count, each index a
    list of ints, bits only both or neither."""
    check_fields(m, MISMATCH, set(MISMATCH), where)
    if not 1 <= len(m["elements"]) <= min(5, m["count"]):
        fail(f"{where}: {len(m['elements'])} elements listed of {m['count']}")
    for e in m["elements"]:
        if not isinstance(e, dict):
            fail(f"{where}: an element is not an object")
        check_fields(e, ELEMENT, {"index", "got", "expected"}, where)
        if ("got_bits" in e) != ("expected_bits" in e):
            fail(f"{where}: got_bits and expected_bits come together")
        if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in e["index"]):
            fail(f"{where}: bad index {e['index']!r}")


def check_value(obj, n):
    """An infer object's dims, and a sequence's or an optional's fields
    (docs/cli.md, "JSON output"), down through its elements."""
    if obj["dims"] is not None:
        for d in obj["dims"]:
            if not (d is None or isinstance(d, str) or (isinstance(d, int) and d >= 0)):
                fail(f"line {n}: bad dim {d!r}")
    k = obj.get("kind")
    extra = {"length"} if k == "sequence" else {"holds"} if k == "optional" else set()
    if k is None:
        if ("element" in obj or "length" in obj or "holds" in obj):
            fail(f"line {n}: element, length and holds go with a kind")
        return
    if k not in ("sequence", "optional"):
        fail(f"line {n}: kind {k!r}")
    if obj["type"] is not None or obj["dims"] is not None:
        fail(f"line {n}: a {k} has no type or dims of its own")
    missing = ({"element"} | extra) - obj.keys()
    if missing or ({"length", "holds"} - extra) & obj.keys():
        fail(f"line {n}: a {k} has element and {' '.join(sorted(extra))}")
    if isinstance(obj.get("length"), int) and obj["length"] < 0:
        fail(f"line {n}: length {obj['length']}")
    e = obj["element"]
    if e is not None:
        check_fields(e, {key: INFER[key] for key in ELEMENT_KEYS}, {"type", "dims"},
                     f"line {n} element")
        check_value(e, n)


def check_why(obj, n):
    """The steps of a chain: the first is the value asked about (depth 0, no
    parent); every other step is an input of an earlier step, one deeper;
    each value (graph and name) once."""
    steps = obj["steps"]
    if not steps or steps[0]["name"] != obj["why"]:
        fail(f"line {n}: the first step is not the value asked about")
    seen = set()
    for k, step in enumerate(steps):
        where = f"line {n} step {k}"
        if not isinstance(step, dict):
            fail(f"{where} is not an object")
        check_fields(step, WHY_STEP, WHY_STEP_REQUIRED, where)
        if step["origin"] not in ORIGINS:
            fail(f"{where}: bad origin {step['origin']!r}")
        if step["declaration_used"] and step["origin"] != "evaluated":
            fail(f"{where}: a declaration completes an evaluated value only")
        if ("symbols" in step) != (step["origin"] == "input" and step["graph"] == ""):
            fail(f"{where}: symbols go with a main-graph input, and only there")
        parent = step["parent"]
        if (parent is None) != (k == 0):
            fail(f"{where}: only the first step has no parent")
        if parent is not None and not (0 <= parent < k and steps[parent]["depth"] + 1 == step["depth"]):
            fail(f"{where}: parent {parent} is not an earlier step one level up")
        if k == 0 and step["depth"] != 0:
            fail(f"{where}: the first step is at depth 0")
        key = (step["graph"], step["name"])
        if key in seen:
            fail(f"{where}: {key!r} appears twice")
        seen.add(key)


def main():
    kind = sys.argv[1]
    several = sys.argv[2:] == ["--several"]
    fields, required, summary = SCHEMAS[kind]
    lines = sys.stdin.read().split("\n")
    if lines[-1] != "":
        fail("the output does not end in a newline")
    lines = lines[:-1]
    seen_summary = False
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            fail(f"line {n} is not JSON: {e}")
        if not isinstance(obj, dict):
            fail(f"line {n} is not an object")
        if seen_summary and not several:
            fail(f"line {n} follows the summary")
        seen_summary = False
        if several:
            where = obj["summary"] if isinstance(obj.get("summary"), dict) else obj
            if not isinstance(where.get("model"), str):
                fail(f"line {n}: no model")
            if kind != "check" and "summary" not in obj:
                obj = {k: v for k, v in obj.items() if k != "model"}
        if "summary" in obj:
            if summary is None or len(obj) != 1:
                fail(f"line {n}: unexpected summary")
            sfields = dict(summary, model=str) if several else summary
            check_fields(obj["summary"], sfields, set(sfields), f"line {n} summary")
            seen_summary = True
            print(f"summary {json.dumps(obj['summary'], sort_keys=True)}")
            continue
        check_fields(obj, fields, required, f"line {n}")
        if kind == "check" and obj["severity"] not in ("error", "warning"):
            fail(f"line {n}: bad severity {obj['severity']!r}")
        if kind in NODE_KEYS and len(NODE_KEYS[kind] & obj.keys()) not in (0, len(NODE_KEYS[kind])):
            fail(f"line {n}: {', '.join(sorted(NODE_KEYS[kind]))} come together")
        if kind == "infer":
            check_value(obj, n)
        if kind == "why":
            check_why(obj, n)
        if kind == "test" and obj["result"] not in ("pass", "fail", "skip"):
            fail(f"line {n}: result {obj['result']!r}")
        if kind == "test" and (obj["result"] != "pass") != ("reason" in obj):
            fail(f"line {n}: a reason goes with a failure or a skip only")
        if kind == "test" and "mismatch" in obj:
            if obj["result"] != "fail":
                fail(f"line {n}: a mismatch goes with a failure only")
            check_mismatch(obj["mismatch"], f"line {n} mismatch")
        print(json.dumps(obj, sort_keys=True, ensure_ascii=False))
    if summary is not None and not seen_summary:
        fail("no summary line")
    print(f"{len(lines)} lines, {kind} schema ok")


main()
