#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The conformance_suite test: builds the suite (conformance/build.py) into
# WORK_DIR and runs it through the onnxshape-cli runner, which must pass
# every case with onnxshape's exact message for each negative case; fails
# below MIN_POSITIVE positive or MIN_NEGATIVE negative cases. Given
# LIBRARY (a libonnxshape.so), the onnxshape-python runner then runs the
# negative cases, confirming each expected status by its name (skipped when
# the Python package cannot be imported, e.g. without NumPy).
# Usage: check-suite.sh ONNXSHAPE WORK_DIR MIN_POSITIVE MIN_NEGATIVE [LIBRARY]
set -eu
if [ $# -lt 4 ]; then
  echo "usage: check-suite.sh ONNXSHAPE WORK_DIR MIN_POSITIVE MIN_NEGATIVE [LIBRARY]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2 minpos=$3 minneg=$4 lib=${5:-}
rm -rf "$work"
/usr/bin/python3 "$here/build.py" "$work/suite"
ONNXSHAPE=$bin /usr/bin/python3 "$here/run.py" --check-errors --require-pass \
  --min-positive "$minpos" --min-negative "$minneg" "$work/suite" "$here/runners/onnxshape-cli"
if [ -n "$lib" ]; then
  rc=0
  ONNXSHAPE_LIBRARY=$lib /usr/bin/python3 "$here/run.py" --check-errors --require-pass \
    --negative-only --min-negative "$minneg" "$work/suite" "$here/runners/onnxshape-python" || rc=$?
  if [ $rc -eq 77 ]; then
    echo "check-suite.sh: the onnxshape-python runner is unavailable; statuses not confirmed"
  elif [ $rc -ne 0 ]; then
    exit $rc
  fi
fi
