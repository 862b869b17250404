# SPDX-License-Identifier: Apache-2.0
"""infer() and check() hold what `onnxshape infer --json` and `onnxshape check
--json` print, model for model (the command ONNXSHAPE_CLI names), and take
paths, bytes and ModelProtos alike."""
import glob
import json
import os
import subprocess

import onnx
import pytest
from onnx import TensorProto, helper

import onnxshape
from onnxshape import models

CLI = os.environ.get("ONNXSHAPE_CLI")
needs_cli = pytest.mark.skipif(not CLI, reason="ONNXSHAPE_CLI (the onnxshape command) not set")


def rich_model():
    """Subgraphs, symbols, an operator not evaluated, a node certain to fail,
    an unnamed node and a custom domain."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4])
    flag = helper.make_tensor_value_info("flag", TensorProto.BOOL, [])
    then_out = helper.make_tensor_value_info("t_out", TensorProto.INT64, None)
    else_out = helper.make_tensor_value_info("e_out", TensorProto.INT64, None)
    then_g = helper.make_graph([helper.make_node("Shape", ["x"], ["t_out"], name="tshape")],
                               "then", [], [then_out])
    else_g = helper.make_graph([helper.make_node("Size", ["x"], ["e_s"], name="esize"),
                                helper.make_node("Unsqueeze", ["e_s", "zero"], ["e_out"])],
                               "else", [], [else_out],
                               initializer=[helper.make_tensor("zero", TensorProto.INT64, [1],
                                                               [0])])
    nodes = [
        helper.make_node("Constant", [], ["target"], name="target",
                         value=helper.make_tensor("v", TensorProto.INT64, [2], [-1, 12])),
        helper.make_node("Reshape", ["x", "target"], ["m"], name="flat"),
        helper.make_node("Relu", ["m"], ["r"]),
        helper.make_node("If", ["flag"], ["sel"], name="pick", then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("Constant", [], ["bad"],
                         value=helper.make_tensor("b", TensorProto.INT64, [2], [-1, -1])),
        helper.make_node("Reshape", ["x", "bad"], ["broken"], name="broken"),
        helper.make_node("Thing", ["r"], ["custom_out"], name="thing", domain="my.domain"),
    ]
    g = helper.make_graph(nodes, "rich", [x, flag],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                           for n in ("r", "broken", "custom_out")]
                          + [helper.make_tensor_value_info("sel", TensorProto.INT64, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21),
                                               helper.make_opsetid("my.domain", 1)])


def sequence_model():
    """Sequences and optionals: a sequence of two known elements, an
    optional holding it, one left empty, and what is read back from them."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
    elem_type = helper.make_tensor_type_proto(TensorProto.INT64, None)
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "y"], ["s"], name="construct"),
        helper.make_node("SequenceLength", ["s"], ["n"], name="count"),
        helper.make_node("Optional", ["s"], ["opt"], name="optional"),
        helper.make_node("OptionalHasElement", ["opt"], ["has"], name="has"),
        helper.make_node("Optional", [], ["none"], name="nothing", type=elem_type),
        helper.make_node("SequenceAt", ["s", "n1"], ["last"], name="at"),
    ]
    g = helper.make_graph(nodes, "sequences", [x, y],
                          [helper.make_tensor_value_info(n, TensorProto.INT64, None)
                           for n in ("n",)]
                          + [helper.make_tensor_value_info("has", TensorProto.BOOL, None),
                             helper.make_tensor_value_info("last", TensorProto.FLOAT, None),
                             helper.make_value_info(
                                 "none", helper.make_optional_type_proto(elem_type))],
                          initializer=[helper.make_tensor("n1", TensorProto.INT64, [], [-1])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def element_json(e):
    d = {"type": e.type, "dims": None if e.dims is None else list(e.dims)}
    return kind_json(d, e)


def kind_json(d, v):
    """The members `infer --json` prints for a sequence or an optional."""
    if v.kind != "tensor":
        d.update(kind=v.kind, element=None if v.element is None else element_json(v.element))
        if v.kind == "sequence":
            d["length"] = v.length
        else:
            d["holds"] = v.holds
    return d


def value_json(v):
    """A Value as the line `infer --json` prints."""
    d = kind_json({"name": v.name, "graph": v.graph, "type": v.type,
                   "dims": None if v.dims is None else list(v.dims)}, v)
    if v.values is not None:
        d["value"] = list(v.values)
    if v.op is not None:
        d.update(node=v.node, domain=v.domain, op=v.op, version=v.version)
    return d


def summary_json(s):
    return {"summary": {"nodes": s.nodes, "resolved": s.resolved, "partial": s.partial,
                        "unknown": s.unknown, "not_evaluated": s.not_evaluated,
                        "failures": s.failures, "out_of_work": s.out_of_work}}


def finding_json(f, model):
    d = {"model": model, "rule": f.rule, "severity": f.severity, "graph": f.graph}
    if f.node is not None:
        d.update(node=f.node, domain=f.domain, op=f.op, version=f.version,
                 node_index=f.node_index)
    d["message"] = f.message
    return d


def cli(*args):
    p = subprocess.run([CLI, *args], capture_output=True)
    lines = [json.loads(l) for l in p.stdout.decode().splitlines()]
    return p.returncode, lines, p.stderr.decode("utf-8", "surrogateescape")


def model_files(source_dir, tmp_path_factory):
    files = sorted(glob.glob(os.path.join(source_dir, "examples", "*.onnx")))
    files += sorted(glob.glob(os.path.join(source_dir, "tests", "reject", "files", "*.onnx")))
    made = str(tmp_path_factory.mktemp("made"))
    onnx.save(rich_model(), os.path.join(made, "rich.onnx"))
    onnx.save(sequence_model(), os.path.join(made, "sequences.onnx"))
    return files + [os.path.join(made, "rich.onnx"), os.path.join(made, "sequences.onnx")]


@pytest.fixture(scope="module")
def files(source_dir, tmp_path_factory):
    fs = model_files(source_dir, tmp_path_factory)
    assert len(fs) >= 30
    return fs


@needs_cli
def test_infer_is_the_cli_json(files):
    compared = raised = 0
    for path in files:
        rc, lines, err = cli("infer", "--json", path)
        try:
            r = onnxshape.infer(path)
        except onnxshape.Error as e:
            assert rc in (1, 2) and lines == [], path
            assert e.message in err, (path, e.message, err)
            raised += 1
            continue
        want = [value_json(v) for v in r.values] + [summary_json(r.summary)]
        assert lines == want, path
        assert rc == (1 if r.failures else 0), path
        for f in r.failures:
            assert f.message in err and isinstance(f.error(), onnxshape.Error)
        compared += 1
    assert compared >= 3 and raised >= 10


@needs_cli
def test_write_model_is_the_cli(files, tmp_path):
    """infer(write_model=) writes the bytes `infer --write-model` writes,
    from a path and from bytes; a model certain to fail writes nothing."""
    written = refused = 0
    for k, path in enumerate(files):
        by_cli, by_path, by_bytes = (str(tmp_path / ("%d-%s.onnx" % (k, w)))
                                     for w in ("cli", "path", "bytes"))
        p = subprocess.run([CLI, "infer", "--write-model", by_cli, path], capture_output=True)
        if p.returncode == 0:
            onnxshape.infer(path, write_model=by_path)
            with open(path, "rb") as f:
                onnxshape.infer(f.read(), write_model=by_bytes)
            with open(by_cli, "rb") as a, open(by_path, "rb") as b, open(by_bytes, "rb") as c:
                x = a.read()
                assert x == b.read() == c.read(), path
            written += 1
        elif p.returncode == 1 and b"not written" in p.stderr:
            with pytest.raises(onnxshape.InvalidModelError) as e:
                onnxshape.infer(path, write_model=by_path)
            assert e.value.message == ("'%s' not written (the model has nodes certain to fail)"
                                       % by_path)
            assert not os.path.exists(by_path) and not os.path.exists(by_cli)
            refused += 1
    assert written >= 3 and refused >= 1


@needs_cli
@pytest.mark.parametrize("profile", [None, "sonnx"])
def test_check_is_the_cli_json(files, profile):
    compared = raised = 0
    for path in files:
        rc, lines, err = cli("check", "--json", *(["--profile", profile] if profile else []), path)
        try:
            r = onnxshape.check(path, profile=profile)
        except onnxshape.Error as e:
            assert rc in (1, 2) and lines == [], path
            assert e.message in err, (path, e.message, err)
            raised += 1
            continue
        want = [finding_json(f, path) for f in r.findings]
        want.append({"summary": {"model": path, "profile": profile,
                                 "findings": r.summary.findings, "errors": r.summary.errors,
                                 "warnings": r.summary.warnings}})
        assert lines == want, path
        assert rc == (1 if r.summary.errors else 0)
        compared += 1
    assert compared >= 3 and raised >= 5


def test_rich_model_exact(tmp_path):
    r = onnxshape.infer(rich_model())
    by = {(v.graph, v.name): v for v in r.values}
    assert by[("", "x")] == models.Value("x", "", "float", ("N", 3, 4))
    assert by[("", "m")] == models.Value("m", "", "float", ("N", 12), None, "flat", "Reshape",
                                         21, "")
    assert by[("", "target")].values == (-1, 12)
    assert by[("pick/then_branch", "t_out")].values == ("N", 3, 4)
    assert by[("pick/else_branch", "e_s")].values == ("12*N",)
    assert by[("", "custom_out")].domain == "my.domain" and by[("", "custom_out")].op == "Thing"
    assert by[("", "broken")].dims is None
    assert r.summary.nodes == {"Shape": 1, "Reshape": 2, "Size": 1}
    assert r.summary.not_evaluated == {"my.domain:Thing": 1}  # Relu is evaluated
    assert r.summary.failures == 1
    assert r.failures == [models.Failure(
        onnxshape.Status.ERR_MULTIPLE_INFERRED,
        "Reshape-21 (node 'broken'): shape[0] and shape[1] are both -1; at most one "
        "dimension can be inferred")]
    with pytest.raises(onnxshape.MultipleInferredError) as info:
        onnxshape.infer(rich_model(), keep_going=False)
    assert info.value.message == r.failures[0].message
    assert r.get("m").dims == ("N", 12)
    assert r.get("t_out", graph="pick/then_branch").dims == (3,)
    with pytest.raises(KeyError):
        r.get("t_out")


def test_sequences_exact():
    r = onnxshape.infer(sequence_model())
    assert onnxshape.Element is models.Element
    elem = onnxshape.Element("float", ("N", 3))
    assert r.get("s") == models.Value("s", "", None, None, None, "construct",
                                      "SequenceConstruct", 11, "", "sequence", elem, 2)
    assert r.get("n").values == (2,) and r.get("n").kind == "tensor"
    opt = r.get("opt")
    assert (opt.kind, opt.holds, opt.length) == ("optional", True, None)
    assert opt.element == models.Element(None, None, "sequence", elem, 2)
    assert r.get("has").values == (1,)
    none = r.get("none")
    assert (none.kind, none.holds, none.element) == ("optional", False,
                                                     models.Element("int64", None))
    assert r.get("last").dims == ("N", 3) and r.get("last").kind == "tensor"
    assert r.get("x") == models.Value("x", "", "float", ("N", 3))


def test_paths_bytes_and_protos_agree(examples, tmp_path):
    path = os.path.join(examples, "findings.onnx")
    data = open(path, "rb").read()
    proto = onnx.load(path)
    for profile in (None, "sonnx"):
        a = onnxshape.check(path, profile)
        b = onnxshape.check(data, profile)
        c = onnxshape.check(proto, profile)
        assert a.findings == b.findings == c.findings and len(a.findings) >= 2
        assert a.summary.model == path and b.summary.model is None
    assert onnxshape.infer(path) == onnxshape.infer(data) == onnxshape.infer(bytearray(data))
    assert onnxshape.infer(proto) == onnxshape.infer(type("P", (), {
        "SerializeToString": lambda self: data})())


def test_bindings(examples):
    demo = os.path.join(examples, "demo.onnx")
    fixed = onnxshape.infer(demo, inputs={"x": (2, 3, 4)})
    assert fixed.get("count").values == (24,) and fixed.get("matrix").dims == (2, 12)
    sym = onnxshape.infer(demo, inputs={"x": ("N", 3, 4)}, dims={"N": 5})
    assert sym.get("x").dims == (5, 3, 4) and sym.get("count").values == (60,)
    only_dims = onnxshape.infer(demo, dims={"N": 7})
    assert only_dims.get("count").values == (84,)
    with pytest.raises(ValueError, match=r"dim 0 is the symbol 'B', which dims= does not bind"):
        onnxshape.infer(demo, inputs={"x": ("B", 3, 4)})
    with pytest.raises(onnxshape.InvalidArgumentError) as info:
        onnxshape.infer(demo, inputs={"x": (1, 3, 5)})
    assert info.value.message.startswith("input 'x': ")
    with pytest.raises(onnxshape.NotFoundError) as info:
        onnxshape.infer(demo, inputs={"y": (1,)})
    assert "'y'" in info.value.message and "x" in info.value.message
    with pytest.raises(onnxshape.InvalidArgumentError):
        onnxshape.infer(demo, dims={"Q": 3})
    with pytest.raises(onnxshape.InvalidArgumentError):
        onnxshape.infer(demo, inputs={"x": (-1, 3, 4)})
    with pytest.raises(TypeError, match="sequence of dims"):
        onnxshape.infer(demo, inputs={"x": 3})
    with pytest.raises(ValueError, match="does not fit int64"):
        onnxshape.infer(demo, dims={"N": 2**64})


def test_model_errors():
    with pytest.raises(onnxshape.MalformedError) as info:
        onnxshape.infer(b"\xff\xff")
    assert info.value.message == "not a valid ONNX model (protobuf decoding failed)"
    with pytest.raises(onnxshape.MalformedError):
        onnxshape.check(b"\xff\xff")
    with pytest.raises(onnxshape.IoError):
        onnxshape.infer("/nonexistent/model.onnx")
    with pytest.raises(TypeError, match="a path, bytes or an onnx.ModelProto"):
        onnxshape.infer(3)
    with pytest.raises(ValueError, match="unknown profile"):
        onnxshape.check(b"", profile="strict")
    with pytest.raises(ValueError, match="NUL"):
        onnxshape.check("a\0b")


def test_check_rules_are_the_library_s():
    rules = models.check_rules()
    assert ("domain", "error") in rules and ("portability/D7", "warning") in rules
    assert ("sonnx/default", "error") in rules and len(rules) >= 12
