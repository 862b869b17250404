#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CLI tests: each cases/NAME.sh runs in a folder of test data with $ONNXSHAPE
# set; its stdout must equal NAME.stdout.exact, its stderr NAME.stderr.exact
# (empty when the file is absent) and its exit code NAME.exit (0 when absent).
# Usage: run.sh ONNXSHAPE SOURCE_DIR WORK_DIR [K/N]
# With K/N only the cases whose place in the sorted list is K modulo N run
# (K from 1), so that N runs in their own WORK_DIRs share the cases
# (scripts/check-valgrind runs three at once).
set -u
bin=$1 src=$2 work=$3 shard=${4:-1/1}
k=${shard%/*} n=${shard#*/}
case "$shard" in
  */*/*|*[!0-9/]*|/*|*/) echo "run.sh: K/N must be two numbers, not '$shard'" >&2; exit 2 ;;
  0*|*/0*) echo "run.sh: K/N needs 1 <= K <= N, written without leading zeros, not '$shard'" >&2; exit 2 ;;
  */*) ;;
  *) echo "run.sh: K/N must be two numbers, not '$shard'" >&2; exit 2 ;;
esac
if [ "$n" -lt 1 ] || [ "$k" -lt 1 ] || [ "$k" -gt "$n" ]; then
  echo "run.sh: K/N needs 1 <= K <= N, not '$shard'" >&2; exit 2
fi
rm -rf "$work"
mkdir -p "$work/data"
/usr/bin/python3 "$src/tests/cli/make_data.py" "$work/data" || exit 2
cp "$src/examples/demo.onnx" "$src/examples/findings.onnx" "$src/examples/demo_input.pb" \
   "$src/tests/cli/json_check.py" "$src/docs/onnxshape.1" "$src/scripts/onnxshape.bash" "$work/data/"
pass=0
fail=0
skip=0
i=0
for case in "$src"/tests/cli/cases/*.sh; do
  i=$((i + 1))
  [ $(((i - 1) % n + 1)) = "$k" ] || continue
  name=$(basename "$case" .sh)
  base=$src/tests/cli/cases/$name
  out=$work/out/$name
  mkdir -p "$out"
  (cd "$work/data" && ONNXSHAPE=$bin OUT=$out sh "$case") >"$out/stdout" 2>"$out/stderr"
  echo $? >"$out/exit"
  # A case that cannot run on this host (exit 77, "SKIP: why" on stderr)
  # is said and counted, never passed.
  if [ "$(cat "$out/exit")" = 77 ] && grep -q '^SKIP: ' "$out/stderr"; then
    echo "SKIP $name: $(sed -n 's/^SKIP: //p' "$out/stderr" | head -1)"; skip=$((skip + 1)); continue
  fi
  want_exit=0
  [ -f "$base.exit" ] && want_exit=$(cat "$base.exit")
  [ -f "$base.stderr.exact" ] && want_err=$base.stderr.exact || want_err=/dev/null
  ok=1
  if ! cmp -s "$out/stdout" "$base.stdout.exact"; then
    echo "FAIL $name: stdout differs"; diff "$base.stdout.exact" "$out/stdout" | head -20; ok=0
  fi
  if ! cmp -s "$out/stderr" "$want_err"; then
    echo "FAIL $name: stderr differs"; diff "$want_err" "$out/stderr" | head -20; ok=0
  fi
  if [ "$(cat "$out/exit")" != "$want_exit" ]; then
    echo "FAIL $name: exit $(cat "$out/exit"), expected $want_exit"; ok=0
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
if [ $skip -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ $fail = 0 ]
