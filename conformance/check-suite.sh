#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The conformance_suite test: builds the suite (conformance/build.py) into
# WORK_DIR/suite, twice with its tarball (the two must be the same bytes),
# and requires exactly POSITIVE positive and NEGATIVE negative cases, of
# which FILE_CASES come from tests/reject/MANIFEST (test_reject_file_*).
# It runs the suite through the onnxshape-cli runner, which must pass every
# case with onnxshape's exact message for each negative case (the suite
# given by a relative path, as the runner is once more on one case with
# relative CASE_DIR and OUT_DIR). Given LIBRARY (a libonnxshape.so), the
# onnxshape-python runner then runs the negative cases, confirming each
# expected status by its name (skipped when the Python package cannot be
# imported, e.g. without NumPy).
# Usage: check-suite.sh ONNXSHAPE WORK_DIR POSITIVE NEGATIVE FILE_CASES [LIBRARY]
set -eu
if [ $# -lt 5 ]; then
  echo "usage: check-suite.sh ONNXSHAPE WORK_DIR POSITIVE NEGATIVE FILE_CASES [LIBRARY]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2 npos=$3 nneg=$4 nfile=$5 lib=${6:-}
rm -rf "$work"
mkdir -p "$work/again"
/usr/bin/python3 "$here/build.py" "$work/suite" --tar "$work/suite.tar.gz"
/usr/bin/python3 "$here/build.py" "$work/again/suite" --tar "$work/again/suite.tar.gz" >/dev/null
cmp "$work/suite.tar.gz" "$work/again/suite.tar.gz" ||
  { echo "check-suite.sh: two builds of the suite gave different tarballs" >&2; exit 1; }
rm -rf "$work/again"
count() { find "$work/suite" -mindepth 1 -maxdepth 1 -type d -name "$1" | wc -l | tr -d ' '; }
got="$(count 'test_gen_*') $(count 'test_reject_*') $(count 'test_reject_file_*')"
if [ "$got" != "$npos $nneg $nfile" ]; then
  echo "check-suite.sh: positive, negative and file cases: $got, expected $npos $nneg $nfile" >&2
  exit 1
fi
(cd "$work" && ONNXSHAPE=$bin /usr/bin/python3 "$here/run.py" --check-errors --require-pass \
  --min-positive "$npos" --min-negative "$nneg" suite "$here/runners/onnxshape-cli")
# Relative CASE_DIR and OUT_DIR: the runner works in the case directory.
c=test_gen_shape_v15_int8_raw
(cd "$work" && ONNXSHAPE=$bin "$here/runners/onnxshape-cli" "suite/$c" relative-out &&
  /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import run
sys.exit(run.compare(sys.argv[2], sys.argv[3]))' "$here" relative-out/output_0.pb \
    "suite/$c/test_data_set_0/output_0.pb") ||
  { echo "check-suite.sh: onnxshape-cli with a relative case and output directory" >&2; exit 1; }
rm -rf "$work/relative-out"
if [ -n "$lib" ]; then
  rc=0
  ONNXSHAPE_LIBRARY=$lib /usr/bin/python3 "$here/run.py" --check-errors --require-pass \
    --negative-only --min-negative "$nneg" "$work/suite" "$here/runners/onnxshape-python" || rc=$?
  if [ $rc -eq 77 ]; then
    echo "check-suite.sh: the onnxshape-python runner is unavailable; statuses not confirmed"
  elif [ $rc -ne 0 ]; then
    exit $rc
  fi
fi
