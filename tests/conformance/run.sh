#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Generates conformance cases and runs them through `onnxshape test`.
# Usage: run.sh onnx|generated ONNXSHAPE WORK_DIR MIN_CASES
#   onnx:      ONNX's own backend node tests for Shape, Reshape and Size,
#              generated from Debian's python3-onnx;
#   generated: onnxshape's generator (every version, type and encoding).
# Fails if fewer than MIN_CASES cases were produced, so that a broken
# generator cannot pass by testing nothing.
set -eu
mode=$1 bin=$2 work=$3 min=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
case $mode in
  onnx)
    for op in Shape Reshape Size; do
      /usr/bin/python3 "$here/gen_onnx_backend.py" "$op" "$work" >/dev/null
    done ;;
  generated) /usr/bin/python3 "$here/gen_cases.py" "$work" >/dev/null ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
n=$(find "$work" -mindepth 1 -maxdepth 1 -type d | wc -l)
if [ "$n" -lt "$min" ]; then
  echo "run.sh: only $n cases generated, expected at least $min" >&2
  exit 1
fi
"$bin" test "$work"/*
