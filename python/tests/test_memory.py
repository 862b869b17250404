# SPDX-License-Identifier: Apache-2.0
"""Thousands of calls of every entry point, successful and failing, leave the
process's memory where it was: every model, analysis, report and result the
library allocates is freed, and nothing piles up on the Python side. The
same measurement of a deliberate leak (models loaded and never freed) shows
that the bound would catch one."""
import ctypes
import gc
import os
import resource
import tracemalloc

import numpy as np

import onnxshape
import onnxshape.backend as backend
from onnxshape import _lib

ROUNDS = 1000  # of the model workload (a leaked model is about 24 KiB)
KERNEL_ROUNDS = 5000  # a Python leak of 16 bytes a round passes the 64 KiB bound
BOUND = 4 << 20  # bytes of RSS growth allowed over ROUNDS rounds


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def kernels(x):
    onnxshape.shape(x, start=1)
    onnxshape.size(x)
    onnxshape.reshape(x, [4, -1])
    onnxshape.reshape(onnxshape.RawTensor(bytes(12), (2, 3, 4), "int4"), [24])
    try:
        onnxshape.reshape(x, [-1, -1])
    except onnxshape.MultipleInferredError:
        pass


def workload(demo_path, demo_bytes, findings_path):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    kernels(x)
    onnxshape.infer(demo_bytes, inputs={"x": ("N", 3, 4)}, dims={"N": 2})
    onnxshape.infer(demo_path)
    onnxshape.check(findings_path, profile="sonnx")
    try:
        onnxshape.infer(b"\xff")
    except onnxshape.MalformedError:
        pass
    rep = backend.prepare(demo_bytes)
    rep.run([x[:1].copy()])
    rep.close()


def test_kernels_leave_nothing_behind():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for _ in range(1000):
        kernels(x)
    gc.collect()
    tracemalloc.start()
    before, py_before = rss(), tracemalloc.get_traced_memory()[0]
    for _ in range(KERNEL_ROUNDS):
        kernels(x)
    gc.collect()
    after, py_after = rss(), tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < BOUND, f"RSS grew by {after - before} bytes"
    assert py_after - py_before < 64 << 10, f"Python objects grew by {py_after - py_before}"


def test_models_leave_nothing_behind(examples):
    demo = os.path.join(examples, "demo.onnx")
    findings = os.path.join(examples, "findings.onnx")
    with open(demo, "rb") as f:
        demo_bytes = f.read()
    for _ in range(100):  # warm up: caches, the allocator's pools
        workload(demo, demo_bytes, findings)
    gc.collect()
    before = rss()
    for _ in range(ROUNDS):
        workload(demo, demo_bytes, findings)
    gc.collect()
    after = rss()
    assert after - before < BOUND, f"RSS grew by {after - before} bytes over {ROUNDS} rounds"


def test_the_measurement_sees_a_leak(examples):
    with open(os.path.join(examples, "demo.onnx"), "rb") as f:
        data = f.read()
    buf = ctypes.create_string_buffer(data, len(data))
    leaked = []
    before = rss()
    for _ in range(ROUNDS):
        m = _lib.Model_p()
        d = _lib.new_diag()
        assert _lib.lib.onnxshape_model_parse(buf, len(data), None, ctypes.byref(m),
                                              ctypes.byref(d)) == 0
        leaked.append(m)
    grown = rss() - before
    for m in leaked:
        _lib.lib.onnxshape_model_free(m)
    assert grown > BOUND, f"leaking {ROUNDS} models grew RSS by only {grown} bytes"
