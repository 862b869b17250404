#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs every case of MANIFEST from tests/reject/files: the exit code must be
# the one listed, stderr must contain the message fragment, stdout must be
# empty. Usage: run.sh ONNXSHAPE
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/files" || exit 2
tab=$(printf '\t')
pass=0
fail=0
while IFS="$tab" read -r name want_exit fragment args; do
  case $name in '#'*|'') continue ;; esac
  # shellcheck disable=SC2086 # ARGUMENTS is a word list by design
  out=$("$bin" $args 2>/tmp/onnxshape-reject.$$ </dev/null)
  got_exit=$?
  err=$(cat /tmp/onnxshape-reject.$$)
  if [ "$got_exit" != "$want_exit" ]; then
    echo "FAIL $name: exit $got_exit, expected $want_exit ($err)"; fail=$((fail + 1))
  elif ! printf '%s' "$err" | grep -qF -- "$fragment"; then
    echo "FAIL $name: stderr lacks '$fragment': $err"; fail=$((fail + 1))
  elif ! printf '%s' "$err" | grep -q '^onnxshape: error: '; then
    echo "FAIL $name: stderr does not start with 'onnxshape: error:': $err"; fail=$((fail + 1))
  elif [ -n "$out" ]; then
    echo "FAIL $name: printed to stdout: $out"; fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done < "$here/MANIFEST"
rm -f /tmp/onnxshape-reject.$$
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge 40 ]
