#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The conformance_run_classes test: run.py's classes, each produced by a
# runner made to behave so, on a small suite taken from SUITE_DIR (two
# positive cases, two negative: one of build.py's own, one from
# tests/reject whose input file is the broken part): pass (also of an
# output in typed fields),
# wrong-output (dims, values), rejects-allowed,
# accepts-forbidden, wrong-error, timeout, crash, an unavailable runner
# (exit 77) and a too-small suite.
# Usage: selftest.sh SUITE_DIR WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
suite=$1 work=$2
rm -rf "$work"
mkdir -p "$work/suite" "$work/runners"
for c in test_gen_size_v13_float_raw test_gen_shape_v15_int8_raw test_reject_reshape_two_inferred \
         test_reject_file_garbage_tensor; do
  cp -r "$suite/$c" "$work/suite/"
done
r=$work/runners
# copy: writes the expected outputs (so it accepts the negative case).
cat >"$r/copy" <<'X'
#!/bin/sh
mkdir -p "$2"; cp "$1"/test_data_set_0/output_*.pb "$2"/ 2>/dev/null; exit 0
X
# reject: refuses everything, with onnxshape's message of the negative case.
cat >"$r/reject" <<'X'
#!/bin/sh
echo "Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one dimension can be inferred" >&2; exit 1
X
# wrong: the Shape case's expected output for every case; the wrong status for rejections.
cat >"$r/wrong" <<X
#!/bin/sh
[ -f "\$1/expected_error.json" ] && { echo "ONNXSHAPE_ERR_COUNT_MISMATCH: Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one dimension can be inferred" >&2; exit 1; }
mkdir -p "\$2"; cp "$work/suite/test_gen_shape_v15_int8_raw/test_data_set_0/output_0.pb" "\$2/"; exit 0
X
# value: Size's output with the value 99 (same type and dims); Shape's
# [3, 5] as int64_data (typed field) instead of raw_data, which is the same.
cat >"$r/value" <<'X'
#!/bin/sh
[ -f "$1/expected_error.json" ] && exit 1
mkdir -p "$2"
case $1 in
  *size*) printf '\020\007\112\010\143\000\000\000\000\000\000\000' >"$2/output_0.pb" ;;
  *) printf '\010\002\020\007\072\002\003\005' >"$2/output_0.pb" ;;
esac
X
cat >"$r/slow" <<'X'
#!/bin/sh
exec sleep 5
X
cat >"$r/crash" <<'X'
#!/bin/sh
kill -SEGV $$
X
cat >"$r/unavailable" <<'X'
#!/bin/sh
echo "SKIP: not here" >&2; exit 77
X
chmod +x "$r"/*
run() { /usr/bin/python3 "$here/run.py" --timeout 1 "$@" >"$work/out" 2>&1; }
expect_total() {  # RUNNER pass wrong rejects accepts wrong-error timeout crash
  line=$(grep '^total ' "$work/out") || { cat "$work/out"; echo "selftest: no total for $1" >&2; exit 1; }
  got=$(echo "$line" | awk '{print $4, $5, $6, $7, $8, $9, $10}')
  if [ "$got" != "$2" ]; then
    cat "$work/out"
    echo "selftest: $1: classes '$got', expected '$2'" >&2
    exit 1
  fi
}
run "$work/suite" "$r/copy"; expect_total copy "2 0 0 2 0 0 0"
grep -q "accepts-forbidden test_reject_file_garbage_tensor: ran; expected ONNXSHAPE_ERR_MALFORMED" "$work/out" \
  || { cat "$work/out"; echo "selftest: accepts-forbidden reason" >&2; exit 1; }
run --check-errors "$work/suite" "$r/reject"; expect_total reject "1 0 2 0 1 0 0"
grep -q "wrong-error test_reject_file_garbage_tensor: message .*, expected \"'test_data_set_0/input_0.pb' is not a valid TensorProto file (6 bytes)\"" "$work/out" \
  || { cat "$work/out"; echo "selftest: wrong-error message reason" >&2; exit 1; }
run "$work/suite" "$r/reject"; expect_total reject "2 0 2 0 0 0 0"
run --check-errors "$work/suite" "$r/wrong"; expect_total wrong "1 1 0 0 2 0 0"
grep -q "wrong-output test_gen_size_v13_float_raw: output_0.pb: int64 \[2\], expected int64 \[\]" "$work/out" \
  || { cat "$work/out"; echo "selftest: wrong-output reason" >&2; exit 1; }
grep -q "wrong-error test_reject_reshape_two_inferred: status ONNXSHAPE_ERR_COUNT_MISMATCH, expected ONNXSHAPE_ERR_MULTIPLE_INFERRED" "$work/out" \
  || { cat "$work/out"; echo "selftest: wrong-error reason" >&2; exit 1; }
run "$work/suite" "$r/value"; expect_total value "3 1 0 0 0 0 0"
grep -q "wrong-output test_gen_size_v13_float_raw: output_0.pb: the values differ" "$work/out" \
  || { cat "$work/out"; echo "selftest: value reason" >&2; exit 1; }
run "$work/suite" "$r/slow"; expect_total slow "0 0 0 0 0 4 0"
run "$work/suite" "$r/crash"; expect_total crash "0 0 0 0 0 0 4"
# --require-pass fails on any class but pass.
if run --require-pass "$work/suite" "$r/copy"; then echo "selftest: --require-pass passed" >&2; exit 1; fi
rc=0; run "$work/suite" "$r/unavailable" || rc=$?
[ $rc -eq 77 ] && grep -q "unavailable, skipped (SKIP: not here)" "$work/out" \
  || { cat "$work/out"; echo "selftest: unavailable runner: exit $rc" >&2; exit 1; }
rc=0; run --min-negative 3 "$work/suite" "$r/copy" || rc=$?
[ $rc -eq 1 ] && grep -q "expected at least 0 positive and 3 negative cases" "$work/out" \
  || { cat "$work/out"; echo "selftest: --min-negative: exit $rc" >&2; exit 1; }
echo "selftest: every class of run.py seen"
