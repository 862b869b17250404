#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Python package installs as docs/python.md says, offline: into a
# virtual environment made with --system-site-packages (Debian's numpy and
# onnx), by pip from python/ with the build's libonnxshape.so
# (ONNXSHAPE_PREBUILT, as make python passes it); then, from another
# directory and without LD_LIBRARY_PATH or ONNXSHAPE_LIBRARY, the package
# loads the library inside it and runs a kernel and an analysis.
# Skipped (77) without python3-venv or python3-pip (the python tier).
# Usage: install.sh SOURCE_DIR LIBONNXSHAPE WORK_DIR
set -eu
src=$1 lib=$2 work=$3
py=/usr/bin/python3
if ! $py -c 'import venv, ensurepip' 2>/dev/null || ! $py -m pip --version >/dev/null 2>&1; then
  echo "SKIP: needs python3-venv and python3-pip (scripts/install-deps python)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/elsewhere"
$py -m venv --system-site-packages "$work/venv"
# A copy of the sources, so that pip's in-tree build leaves the tree clean.
mkdir -p "$work/src"
cp "$src/CMakeLists.txt" "$work/src/"
cp -R "$src/python" "$work/src/python"
rm -rf "$work/src/python/build" "$work/src/python/onnxshape.egg-info"
find "$work/src/python" -name __pycache__ -prune -exec rm -rf {} +
PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 ONNXSHAPE_PREBUILT=$lib \
  "$work/venv/bin/python" -m pip install --no-cache-dir "$work/src/python" >"$work/pip.log" 2>&1 || {
  cat "$work/pip.log"; echo "install.sh: pip install failed"; exit 1; }
cd "$work/elsewhere"
env -u LD_LIBRARY_PATH -u ONNXSHAPE_LIBRARY "$work/venv/bin/python" - "$src/examples/demo.onnx" <<'PY'
import os, sys
import numpy as np
import onnxshape
site = os.path.dirname(onnxshape.__file__)
assert site.startswith(sys.prefix), site
assert onnxshape.LIBRARY_PATH == os.path.join(site, "libonnxshape.so"), onnxshape.LIBRARY_PATH
x = np.zeros((2, 3, 4), dtype=np.float32)
assert onnxshape.reshape(x, [4, -1]).shape == (4, 6)
r = onnxshape.infer(sys.argv[1], dims={"N": 2})
assert r.get("count").values == (24,)
import onnxshape.backend
print("installed:", onnxshape.LIBRARY_PATH)
PY
