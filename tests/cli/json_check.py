#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Parses JSON-lines output (stdin) and checks it against the schema of one
command (docs/cli.md, "JSON output"); prints one line per object and a last
line naming the schema, or the first problem (exit 1).
Usage: json_check.py infer|check|test|run"""
import json
import sys

INFER = {"name": str, "graph": str, "type": (str, type(None)), "dims": (list, type(None)),
         "value": list, "node": str, "domain": str, "op": str, "version": int}
INFER_REQUIRED = {"name", "graph", "type", "dims"}
CHECK = {"model": str, "rule": str, "severity": str, "graph": str, "node": str, "domain": str,
         "op": str, "version": int, "node_index": int, "message": str}
NODE_KEYS = {"check": {"node", "domain", "op", "version", "node_index"},
             "infer": {"node", "domain", "op", "version"}}
SCHEMAS = {
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


def main():
    kind = sys.argv[1]
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
        if seen_summary:
            fail(f"line {n} follows the summary")
        if "summary" in obj:
            if summary is None or len(obj) != 1:
                fail(f"line {n}: unexpected summary")
            check_fields(obj["summary"], summary, set(summary), f"line {n} summary")
            seen_summary = True
            print(f"summary {json.dumps(obj['summary'], sort_keys=True)}")
            continue
        check_fields(obj, fields, required, f"line {n}")
        if kind == "check" and obj["severity"] not in ("error", "warning"):
            fail(f"line {n}: bad severity {obj['severity']!r}")
        if kind in NODE_KEYS and len(NODE_KEYS[kind] & obj.keys()) not in (0, len(NODE_KEYS[kind])):
            fail(f"line {n}: {', '.join(sorted(NODE_KEYS[kind]))} come together")
        if kind == "infer" and obj["dims"] is not None:
            for d in obj["dims"]:
                if not (d is None or isinstance(d, str) or (isinstance(d, int) and d >= 0)):
                    fail(f"line {n}: bad dim {d!r}")
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
