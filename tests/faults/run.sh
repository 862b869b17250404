#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Allocation-failure injection over the demo model, the conformance models
# and a 1,000-node chain (tests/test_alloc_faults.c).
# Usage: run.sh TEST_ALLOC_FAULTS SOURCE_DIR WORK_DIR
set -eu
bin=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work/cases/demo/test_data_set_0" "$work/chain1000/test_data_set_0"
cp "$src/examples/demo.onnx" "$work/cases/demo/model.onnx"
cp "$src/examples/demo_input.pb" "$work/cases/demo/test_data_set_0/input_0.pb"
/usr/bin/python3 "$src/tests/conformance/gen_cases.py" "$work/cases" >/dev/null
for op in Shape Reshape Size; do
  /usr/bin/python3 "$src/tests/conformance/gen_onnx_backend.py" "$op" "$work/cases" >/dev/null
done
/usr/bin/python3 - "$src" "$work/chain1000" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1] + "/tests/conformance")
from onnxpb import A_INTS, attr, model, node, tensor, value_info
nodes = [node("Constant", [], ["s"], [attr("value_ints", A_INTS, [3, -1])])]
prev = "x"
for i in range(1000):
    nodes.append(node("Reshape", [prev, "s"], ["y%d" % i], name="r%d" % i))
    prev = "y%d" % i
with open(sys.argv[2] + "/model.onnx", "wb") as f:
    f.write(model(nodes, [value_info("x", "float", [2, 3])], [value_info(prev, "float")], opset=14))
with open(sys.argv[2] + "/test_data_set_0/input_0.pb", "wb") as f:
    f.write(tensor("x", "float", [2, 3], raw=struct.pack("<6f", *range(6))))
PY
"$bin" "$work" "$work"/cases/* "$work/chain1000"
