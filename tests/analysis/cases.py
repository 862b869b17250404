#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# covers: ANALYSIS-REGISTRY ANALYSIS-OPS ANALYSIS-EXPR
"""The analysis handlers, case by case (tests/analysis/cases/*.txt): each
case is one node in a model of its own, analysed by `onnxshape infer
--json`; the node's outputs must be exactly the expected type, dims and
element values (nothing more known, nothing less). A line:

    Op-V attr=value ... : input, input, ... -> output, output, ...   [@ options]

Op-V: the operator and the model's opset (so the version is the newest
since_version at V). Attributes: name=3, name=1.5, name=[1,0,2],
name=[0.5,2.0], name="text", name=["a","b"] (strings), name=int64{5} (a tensor). Inputs:
  float[N,3]     a graph input of that type and dims (numbers, symbols);
                 with a ? dim (not known), the declared output of an
                 operator of another domain
  float          a graph input of that type, shape not declared
  ?              nothing known: the output of an operator of another domain
  int64{2,-1}    an initializer, 1-D with these elements
  int64{7}[]     an initializer with dims (here a scalar); float{...} too
  _              an optional input left out
Outputs: the same forms, where dims and elements are expressions in the
grammar of docs/cli.md ("Dims"): float[N,3*S], int64[2]{N,3}, ?[N] (type
not known), float (rank not known), ? (nothing known), _ (output left out,
not checked). An element or dim written ? is not known; a value none of
whose elements is known shows none (int64[2], not int64[2]{?,?}). `-> error: TEXT`:
infer fails and its message contains TEXT. Options after @ are passed to
infer (--dim N=2 and the like). If-V takes its condition, then `|` and the
values its then and else branches return (each through an Identity).
Loop-V and Scan-V take their inputs, then `|` and the body's inputs as
declared; the body returns them through Identities (Scan: every one; Loop:
the condition, the carried values, then the first K carried values again as
its scan outputs, K the node's outputs past the carried ones).

Sequences and optionals: an input seq(A, B, ...) is a SequenceConstruct
of the inputs A, B, ... (each in the forms above), seq() and seq<int64>()
a SequenceEmpty (of float, of int64); opt(A) an Optional holding A,
opt() an empty one. An output seq(E; L) is a sequence (listed as nothing
known) whose SequenceAt (at a position not known) gives E and whose
SequenceLength gives int64[]{L} (int64[] for L ?); opt(E; H): an optional
whose OptionalGetElement gives E (which may be a seq(...), read back the
same way) and OptionalHasElement bool[]{H} (bool[] for H ?). Each is
also listed with its kind (sequence, optional), and every other output
without one. An If branch's value may be a seq(...) or opt(...) too, made
inside the branch. A TYPE_PROTO attribute (Optional's type) is written
tensor(T[dims]), tensor(T), tensor(), seq(X), opt(X), seq*N(X) and
opt*N(X) (N levels), map or raw(HEX); +graph after it adds an empty
graph to the attribute.

Usage: cases.py ONNXSHAPE WORK_DIR [CASE_FILE...]"""
import glob
import json
import os
import re
import shlex
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conformance"))
from onnxpb import (A_FLOAT, A_FLOATS, A_GRAPH, A_INT, A_INTS, A_STRING, A_STRINGS, A_TENSOR,  # noqa: E402
                    TYPES, attr, f_bytes, f_int, f_str, graph, model, node,
                    tensor, value_info)

PACK = {"float": "f", "double": "d", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H",
        "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q", "bool": "?"}


def split_top(text, sep=","):
    """text split at `sep` outside brackets, braces and parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


VALUE_RE = re.compile(r"^(\?|[a-z0-9]+)(?:\{(.*?)\})?(?:\[(.*)\])?(?:\{(.*)\})?$")


def parse_value(text):
    """(type or None, dims or None, elements or None) of an input or output;
    dims and elements as lists of strings."""
    m = VALUE_RE.match(text)
    if m is None:
        raise ValueError("cannot read %r" % text)
    typ, vals_before, dims, vals_after = m.groups()
    typ = None if typ == "?" else typ
    if typ is not None and typ not in TYPES:
        raise ValueError("unknown type %r" % typ)
    vals = vals_before if vals_before is not None else vals_after
    dims = None if dims is None else split_top(dims)
    vals = None if vals is None else split_top(vals)
    return typ, dims, vals


def number(text):
    return float(text) if re.search(r"[.e]|inf|nan", text) else int(text)


def const_tensor(name, typ, dims, vals):
    nums = [number(v) for v in vals]
    if dims is None:
        dims = [len(nums)]
    else:
        dims = [int(d) for d in dims]
    if typ == "bool":
        nums = [bool(v) for v in nums]
    return tensor(name, typ, dims, raw=struct.pack("<%d%s" % (len(nums), PACK[typ]), *nums))


TYPE_RE = re.compile(r"^(tensor|seq|opt)\((.*)\)$")


def type_proto(text):
    """A TypeProto: tensor(T[dims]), tensor(T), tensor(), seq(X), opt(X),
    seq*N(X) and opt*N(X) (N levels), map (of int64 keys, no value type) or
    raw(HEX), bytes as they are."""
    if text.startswith("raw("):
        return bytes.fromhex(text[4:-1])
    if text == "map":
        return f_bytes(5, f_int(1, TYPES["int64"][0]))
    m = re.match(r"^(seq|opt)\*(\d+)\((.*)\)$", text)
    if m is not None:
        kind, times, inner = m.group(1), int(m.group(2)), m.group(3)
        return type_proto(kind + "(" + inner + ")" if times == 1 else
                          "%s(%s*%d(%s))" % (kind, kind, times - 1, inner))
    m = TYPE_RE.match(text)
    if m is None:
        raise ValueError("cannot read type %r" % text)
    kind, inner = m.groups()
    if kind != "tensor":
        return f_bytes(4 if kind == "seq" else 9, f_bytes(1, type_proto(inner)))
    if not inner:
        return f_bytes(1, b"")
    typ, dims, _ = parse_value(inner)
    t = f_int(1, TYPES[typ][0]) if typ else b""
    return f_bytes(1, t + (b"" if dims is None else f_bytes(2, shape_proto(dims))))


def parse_attr(text):
    name, _, value = text.partition("=")
    if re.match(r"^(tensor\(|seq[(*]|opt[(*]|map|raw\()", value):
        # +graph: the attribute holds an empty graph (field g) as well.
        value, graph_too = (value[:-6], True) if value.endswith("+graph") else (value, False)
        return (f_str(1, name) + f_int(20, 13) + f_bytes(14, type_proto(value))
                + (f_bytes(6, b"") if graph_too else b""))
    if value.startswith('"'):
        return attr(name, A_STRING, value[1:-1].encode())
    if value.startswith("["):
        items = split_top(value[1:-1])
        if items and items[0].startswith('"'):
            return attr(name, A_STRINGS, [i[1:-1].encode() for i in items])
        if any(re.search(r"[.e]", i) for i in items):
            return attr(name, A_FLOATS, [float(i) for i in items])
        return attr(name, A_INTS, [int(i) for i in items])
    if "{" in value:
        typ, dims, vals = parse_value(value)
        return attr(name, A_TENSOR, const_tensor(None, typ, dims, vals))
    v = number(value)
    return attr(name, A_FLOAT if isinstance(v, float) else A_INT, v)


def declared(name, typ, dims):
    """A ValueInfoProto of a tensor; a ? dim has neither dim_value nor
    dim_param."""
    if typ is None:
        return value_info(name)
    if dims is None:
        return value_info(name, typ)
    t = f_int(1, TYPES[typ][0]) + f_bytes(2, shape_proto(dims))
    return f_str(1, name) + f_bytes(2, f_bytes(1, t))


def shape_proto(dims):
    """A TensorShapeProto; a ? dim has neither dim_value nor dim_param."""
    shape = b""
    for d in dims:
        dim = b"" if d == "?" else f_int(1, int(d)) if re.match(r"^-?\d+$", d) else f_str(2, d)
        shape += f_bytes(1, dim)
    return shape


SEQ_RE = re.compile(r"^(seq|opt)(?:<([a-z0-9]+)>)?\((.*)\)$")


def source(name, text, inputs, inits, opaque, vinfo):
    """Makes the value `name` from an input's text: a graph input, an
    initializer, an opaque output (also, declared, for a tensor with a ?
    dim: an undeclared dim of a main-graph input is a fresh symbol,
    docs/analysis.md, and a ? dim here is one analysis does not know), or
    (seq, opt) the nodes building it, which are returned."""
    m = SEQ_RE.match(text)
    if m is not None:
        kind, typ, inner = m.groups()
        parts = split_top(inner)
        made = []
        for j, part in enumerate(parts):
            made += source("%s_%d" % (name, j), part, inputs, inits, opaque, vinfo)
        names = ["%s_%d" % (name, j) for j in range(len(parts))]
        if kind == "opt":
            attrs = [] if parts else [f_str(1, "type") + f_int(20, 13) + f_bytes(
                14, f_bytes(1, f_int(1, TYPES[typ or "float"][0])))]
            return made + [node("Optional", names, [name], attrs)]
        if parts:
            return made + [node("SequenceConstruct", names, [name])]
        attrs = [attr("dtype", A_INT, TYPES[typ][0])] if typ else []
        return [node("SequenceEmpty", [], [name], attrs)]
    typ, dims, vals = parse_value(text)
    if vals is not None:
        inits.append(const_tensor(name, typ, dims, vals))
    elif typ is None:
        opaque.append(node("Opaque", ["anchor"], [name], domain="test.opaque"))
    elif dims is not None and "?" in dims:
        opaque.append(node("Opaque", ["anchor"], [name], domain="test.opaque"))
        vinfo.append(declared(name, typ, dims))
    else:
        inputs.append(declared(name, typ, dims))
    return []


def last_semicolon(inner):
    """(E, X) of the text "E; X" inside seq(...) or opt(...), split at its
    last ; outside parentheses (E may be a seq or opt itself); X is ""
    when there is none."""
    depth, at = 0, -1
    for i, ch in enumerate(inner):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == ";" and depth == 0:
            at = i
    if at < 0:
        return inner.strip(), ""
    return inner[:at].strip(), inner[at + 1:].strip()


def readers(o, text):
    """The nodes reading value o when the case expects a sequence or an
    optional of it, with what each of their outputs must be; an element
    that is a sequence itself (in an optional) is read the same way."""
    m = SEQ_RE.match(text)
    if m is None:
        return [], []
    kind, _, inner = m.groups()
    elem, extra = last_semicolon(inner)
    if kind == "seq":
        nodes = [node("SequenceAt", [o, "pos"], [o + "_at"]),
                 node("SequenceLength", [o], [o + "_len"])]
        want = [(o + "_at", elem),
                (o + "_len", "int64[]" if extra == "?" else "int64[]{%s}" % extra)]
    else:
        nodes = [node("OptionalGetElement", [o], [o + "_at"]),
                 node("OptionalHasElement", [o], [o + "_len"])]
        want = [(o + "_at", elem),
                (o + "_len", "bool[]" if extra == "?" else "bool[]{%s}" % extra)]
    more_nodes, more_want = readers(o + "_at", elem)
    return nodes + more_nodes, want + more_want


def build(case):
    op, version = case["op"], case["version"]
    inputs, inits, names, opaque, made, vinfo = [], [], [], [], [], []
    for k, text in enumerate(case["inputs"]):
        if text == "_":
            names.append("")
            continue
        name = "i%d" % k
        names.append(name)
        made += source(name, text, inputs, inits, opaque, vinfo)
    outs = ["" if o == "_" else "o%d" % k for k, o in enumerate(case["outputs"])]
    attrs = [parse_attr(a) for a in case["attrs"]]
    if op == "If":
        inside = [[], []]  # a branch's sequence or optional: made in the branch
        for k, text in enumerate(case["branches"]):
            if SEQ_RE.match(text):
                inside[k] = source("b%d" % k, text, inputs, inits, opaque, vinfo)
                continue
            typ, dims, _ = parse_value(text)
            if dims is not None and "?" in dims:
                opaque.append(node("Opaque", ["anchor"], ["b%d" % k], domain="test.opaque"))
                vinfo.append(declared("b%d" % k, typ, dims))
            else:
                inputs.append(declared("b%d" % k, typ, dims))
        for k, branch in enumerate(("then_branch", "else_branch")):
            g = graph(inside[k] + [node("Identity", ["b%d" % k], ["r%d" % k])], [],
                      [value_info("r%d" % k)], name=branch)
            attrs.append(attr(branch, A_GRAPH, g))
    if op in ("Loop", "Scan", "SequenceMap") and case["branches"]:
        body_ins = []
        for k, text in enumerate(case["branches"]):
            typ, dims, _ = parse_value(text)
            body_ins.append(declared("b%d" % k, typ, dims))
        # The body returns its inputs through Identities: Scan all of them
        # (states, then each scan input's element); Loop its condition, its
        # carried values, then the first K carried values again as scan
        # outputs (K: the node's outputs past the carried ones).
        picks = list(range(len(body_ins)))
        if op == "SequenceMap":  # each output the body input of its position
            picks = list(range(len(case["outputs"])))
        if op == "Loop":
            carried = len(body_ins) - 2
            picks = [1] + list(range(2, 2 + carried)) + \
                list(range(2, 2 + len(case["outputs"]) - carried))
        body_nodes = [node("Identity", ["b%d" % j], ["r%d" % k]) for k, j in enumerate(picks)]
        g = graph(body_nodes, body_ins, [value_info("r%d" % k) for k in range(len(picks))],
                  name="body")
        attrs.append(attr("body", A_GRAPH, g))
    after = []
    for k, text in enumerate(case["outputs"]):
        after += readers("o%d" % k, text)[0]
    if after:
        inputs.append(value_info("pos", "int64", []))
    nodes = opaque + made + [node(op, names, outs, attrs, name="n")] + after
    # The graph's output: a graph input (the node's outputs stay undeclared).
    anchor = "anchor"
    inputs.append(value_info(anchor, "float", [1]))
    return model(nodes, inputs, [value_info(anchor, "float", [1])], initializers=inits,
                 opset=version, ir_version=10, extra_opsets=[("test.opaque", 1)],
                 graph_extra=b"".join(f_bytes(13, v) for v in vinfo))


def parse_line(line):
    head, _, rest = line.partition(":")
    words = head.split()
    m = re.match(r"^([A-Za-z][A-Za-z0-9]*)-(\d+)$", words[0])
    if m is None:
        raise ValueError("a case starts with Op-V: %r" % line)
    rest, _, opts = rest.partition(" @ ")
    ins, arrow, outs = rest.partition("->")
    if not arrow:
        raise ValueError("no -> in %r" % line)
    case = {"op": m.group(1), "version": int(m.group(2)), "attrs": words[1:],
            "options": shlex.split(opts), "line": line}
    ins, _, branches = ins.partition("|")
    case["inputs"] = split_top(ins)
    case["branches"] = split_top(branches)
    outs = outs.strip()
    if outs.startswith("error:"):
        case["error"] = outs[len("error:"):].strip()
        case["outputs"] = ["*"]  # named, not checked
    else:
        case["outputs"] = split_top(outs)
    return case


def shown(v):
    return "?" if v is None else str(v)


def check(tool, work, case, index):
    path = os.path.join(work, "case%d.onnx" % index)
    with open(path, "wb") as f:
        f.write(build(case))
    r = subprocess.run([tool, "infer", "--json"] + case["options"] + [path],
                       capture_output=True, text=True)
    if "error" in case:
        if r.returncode != 1 or case["error"] not in r.stderr:
            return "expected an error with %r, got exit %d: %s" % (case["error"], r.returncode,
                                                                 (r.stderr or r.stdout).strip())
        return None
    if r.returncode != 0:
        return "infer failed (exit %d): %s" % (r.returncode, r.stderr.strip())
    got = {}
    for line in r.stdout.splitlines():
        obj = json.loads(line)
        if "name" in obj and obj.get("node") is not None:
            got[obj["name"]] = obj
    wants = []
    for k, text in enumerate(case["outputs"]):
        if text in ("_", "*"):
            continue
        wants += [("o%d" % k, text)] + readers("o%d" % k, text)[1]
    for name, text in wants:
        obj = got.get(name)
        k = name[1:]
        if obj is None:
            return "output %s not reported" % k
        # A sequence or an optional is listed with its kind (what it holds
        # is read back above); anything else has none.
        m = SEQ_RE.match(text)
        kind = None if m is None else {"seq": "sequence", "opt": "optional"}[m.group(1)]
        if obj.get("kind") != kind:
            return "output %s: expected kind %s, got %s" % (k, kind, obj.get("kind"))
        typ, dims, vals = parse_value("?" if kind else text)
        have_dims = None if obj["dims"] is None else [shown(d) for d in obj["dims"]]
        have_vals = None if "value" not in obj else [shown(v) for v in obj["value"]]
        want = (typ, dims, vals)
        have = (obj["type"], have_dims, have_vals)
        if want != have:
            return "output %s: expected %s, got %s" % (k, describe(*want), describe(*have))
    return None


def describe(typ, dims, vals):
    s = typ or "?"
    if dims is not None:
        s += "[" + ",".join(dims) + "]"
    if vals is not None:
        s += "{" + ",".join(vals) + "}"
    return s


def main():
    tool, work = sys.argv[1], sys.argv[2]
    files = sys.argv[3:] or sorted(glob.glob(os.path.join(HERE, "cases", "*.txt")))
    os.makedirs(work, exist_ok=True)
    failures = total = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for lineno, raw in enumerate(f, 1):
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                total += 1
                where = "%s:%d" % (os.path.basename(path), lineno)
                try:
                    msg = check(tool, work, parse_line(line), total)
                except (ValueError, KeyError, struct.error) as e:
                    msg = "bad case: %s" % e
                if msg is not None:
                    failures += 1
                    print("cases: FAIL %s: %s\n    %s" % (where, msg, line), file=sys.stderr)
    print("cases: %d cases, %d failed" % (total, failures))
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
