# SPDX-License-Identifier: Apache-2.0
"""ONNX's own backend node tests for Shape, Reshape and Size, through
onnx.backend.test.BackendTest and onnxshape.backend. Debian's python3-onnx
ships the test cases but not their data directory: the cases are written
into a temporary one by tests/conformance/gen_onnx_backend.py (as the
conformance_onnx_backend test does), with Abs's beside them to show that
other operators are skipped, never failed."""
import functools
import io
import os
import re
import subprocess
import tempfile
import unittest
import warnings

import numpy as np
import onnx
import onnx.backend.test
import onnx.backend.test.loader
import onnx.backend.test.runner
import pytest
from onnx import TensorProto, helper

import onnxshape
import onnxshape.backend as backend

GEN = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "conformance",
                   "gen_onnx_backend.py")
OPS = ("Shape", "Reshape", "Size")


def make_data_dir(root):
    node = os.path.join(root, "node")
    os.makedirs(node)
    for kind in ("real", "simple", "pytorch-converted", "pytorch-operator"):
        os.makedirs(os.path.join(root, kind))
    names = {}
    for op in OPS + ("Abs",):
        # One operator per process: onnx's case collector keeps its filter
        # in a module global.
        out = subprocess.run(["/usr/bin/python3", GEN, op, node], check=True,
                             capture_output=True, text=True).stdout.split()
        names[op] = out
    return names


@pytest.fixture(scope="module")
def node_tests():
    with tempfile.TemporaryDirectory(prefix="onnxshape-node-tests-") as root:
        names = make_data_dir(root)
        loader = functools.partial(onnx.backend.test.loader.load_model_tests, root)
        saved = onnx.backend.test.runner.load_model_tests
        onnx.backend.test.runner.load_model_tests = lambda kind: loader(kind=kind)
        try:
            bt = onnx.backend.test.BackendTest(backend, __name__)
        finally:
            onnx.backend.test.runner.load_model_tests = saved
        # onnx 1.12's runner compares with np.object, which NumPy 1.24 removed.
        with warnings.catch_warnings():  # NumPy warns about the name itself
            warnings.simplefilter("ignore", FutureWarning)
            missing = not hasattr(np, "object")
        if missing:
            np.object = object
        try:
            stream = io.StringIO()
            result = unittest.TextTestRunner(stream=stream, verbosity=2).run(bt.test_suite)
        finally:
            if missing:
                del np.object
        yield names, result, stream.getvalue()


def test_node_tests_pass(node_tests):
    names, result, log = node_tests
    assert result.errors == [] and result.failures == [], log
    assert result.expectedFailures == [] and result.unexpectedSuccesses == []
    ours = [n for op in OPS for n in names[op]]
    assert len(ours) >= 22 and all(len(names[op]) >= 1 for op in OPS)
    skipped = {t.id().rsplit(".", 1)[1]: why for t, why in result.skipped}
    for name in ours:
        assert f"{name}_cpu" not in skipped, (name, log)
        assert f"{name}_cuda" in skipped  # the backend supports the CPU only
        assert re.search(rf"^{name}_cpu \(.*\) \.\.\. ok$", log, re.M), log
    for name in names["Abs"]:
        assert skipped[f"{name}_cpu"] == "Not compatible with backend"
    assert result.testsRun == 2 * sum(len(v) for v in names.values())


def test_backend_api():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    n = helper.make_tensor_value_info("n", TensorProto.INT64, None)
    g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"]),
                           helper.make_node("Size", ["y"], ["n"])], "g", [x, s], [y, n])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = backend.run_model(model, [data, np.array([3, -1])])
    assert out.y.tolist() == [[0, 1], [2, 3], [4, 5]] and out["n"] == 6 and out[1].dtype == np.int64
    rep = backend.prepare(model)
    big_endian = np.array([6, -1], dtype=">i8")
    assert rep.run({"x": data, "s": big_endian})[0].tolist() == [[k] for k in range(6)]
    with pytest.raises(onnxshape.MultipleInferredError) as info:
        rep.run([data, np.array([-1, -1])])
    assert info.value.message == ("Reshape-21 (node '#0'): shape[0] and shape[1] are both -1; "
                                  "at most one dimension can be inferred")
    rep.close()
    assert backend.supports_device("CPU") and not backend.supports_device("CUDA")
    node = helper.make_node("Shape", ["a"], ["b"], start=-1)
    assert backend.run_node(node, [np.zeros((4, 5, 6))], opset_version=21)[0].tolist() == [6]
    r = backend.run_node(helper.make_node("Reshape", ["a", "t"], ["b"]),
                         [np.array(["p", "q", "r", "s"], dtype=object), np.array([2, 2])])
    assert r[0].tolist() == [["p", "q"], ["r", "s"]]
    bf = onnxshape.RawTensor(b"\x01\x02\x03\x04", (2,), "bfloat16")
    r = backend.run_node(helper.make_node("Reshape", ["a", "t"], ["b"]), [bf, np.array([1, 2])])
    assert r[0] == onnxshape.RawTensor(b"\x01\x02\x03\x04", (1, 2), "bfloat16")
    const = helper.make_node("Constant", [], ["c"],
                             value=helper.make_tensor("v", TensorProto.INT64, [2], [3, 4]))
    assert backend.run_node(const, [])[0].tolist() == [3, 4]
    size = backend.run_node(helper.make_node("Size", ["a"], ["c"]), [np.zeros((2, 3))],
                            outputs_info=[(np.int64, ())])
    assert size[0].shape == () and size[0] == 6
    relu = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    relu_model = helper.make_model(relu, opset_imports=[helper.make_opsetid("", 21)])
    assert not backend.is_compatible(relu_model) and backend.is_compatible(model)
    with pytest.raises(onnxshape.UnknownOperatorError):
        backend.prepare(relu_model)
