#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes ONNX's own backend node tests for one operator (Shape, Reshape or
Size) in the backend test layout, from Debian's python3-onnx (1.12).

Usage: /usr/bin/python3 gen_onnx_backend.py OP OUTDIR

One operator per process: onnx's collector keeps its operator filter in a
module global, set on first import.
"""
import os
import shutil
import sys

import numpy as np

# onnx 1.12's case modules use aliases that numpy 1.24 removed.
import warnings

warnings.simplefilter("ignore", FutureWarning)
for alias, real in (("float", float), ("int", int), ("bool", bool), ("object", object)):
    if not hasattr(np, alias):
        setattr(np, alias, real)

import onnx.backend.test.case.node as node_test  # noqa: E402
from onnx import numpy_helper  # noqa: E402


def main() -> int:
    op, out = sys.argv[1], sys.argv[2]
    prefix = "test_" + op.lower()
    cases = [c for c in node_test.collect_testcases(op) if c.name.startswith(prefix)]
    if not cases:
        print(f"gen_onnx_backend: no test cases for {op}", file=sys.stderr)
        return 1
    for case in cases:
        case_dir = os.path.join(out, case.name)
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        for i, (inputs, outputs) in enumerate(case.data_sets):
            ds = os.path.join(case_dir, f"test_data_set_{i}")
            os.makedirs(ds)
            for kind, values, decls in (("input", inputs, case.model.graph.input),
                                        ("output", outputs, case.model.graph.output)):
                for j, value in enumerate(values):
                    tensor = numpy_helper.from_array(value, decls[j].name)
                    with open(os.path.join(ds, f"{kind}_{j}.pb"), "wb") as f:
                        f.write(tensor.SerializeToString())
        print(case.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
