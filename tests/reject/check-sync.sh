#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The committed corpus must be exactly what make_reject.py writes.
# Usage: check-sync.sh WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$1
rm -rf "$work"
mkdir -p "$work"
/usr/bin/python3 "$here/make_reject.py" "$work" >/dev/null
if diff -r -x outside-link.bin "$here/files" "$work/files" >/dev/null &&
   cmp -s "$here/MANIFEST" "$work/MANIFEST"; then
  echo "1 passed, 0 failed"
else
  echo "tests/reject differs from make_reject.py's output: run make_reject.py tests/reject" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
