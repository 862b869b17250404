#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The front door's races and failures, made to happen at a chosen point by a
# preloaded library (tests/shim/fault_shim.c), so that each test is
# deterministic: a file cut short while mapped or read, a mapped .npy
# rewritten in place between the reader's two passes, external data whose
# directory is swapped for a link at every step of a run, outputs that fail
# to write or rename, a signal in the middle of writing, and two runs into
# one directory. No test sleeps.
# Usage: safety.sh ONNXSHAPE SHIM SOURCE_DIR WORK_DIR
set -u
bin=$1 shim=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work/pristine"
/usr/bin/python3 "$src/tests/cli/make_data.py" "$work/pristine" || exit 2
cp -r "$work/pristine" "$work/data"
cd "$work/data" || exit 2
# restore FILE: the file as make_data.py wrote it, after a test cut it short.
restore() { cp "$work/pristine/$1" "$1"; }
pass=0
fail=0
skipped=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# sigbus_ok NAME: whether a case that reads a mapping whose file was cut
# short can run here. Under qemu-user (ONNXSHAPE_TEST_EMULATOR, set by
# tests/CMakeLists.txt in cross builds; ONNXSHAPE_QEMU_I386, set by
# scripts/check-cross when i386 programs run through binfmt_misc) it cannot: QEMU does not hand the
# host's SIGBUS for such a page to the program's handler (a ten-line C
# program that maps, truncates and reads hangs under qemu-s390x 7.2 and
# returns natively), so the command's handler never runs. Those cases are
# reported as skipped, by name.
sigbus_ok() {
  [ -z "${ONNXSHAPE_TEST_EMULATOR:-}${ONNXSHAPE_QEMU_I386:-}" ] && return 0
  echo "SKIP $1: qemu-user does not deliver SIGBUS from a truncated mapping"
  skipped=$((skipped + 1))
  return 1
}

# run_shim VAR=VALUE... -- ARGS: onnxshape with the shim; sets $rc, $out, $err.
run_shim() {
  envs=""
  while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
  shift
  # shellcheck disable=SC2086 # envs is a word list by design
  env LD_PRELOAD="$shim" $envs "$bin" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

# expect NAME RC FRAGMENT: the last run's exit status and stderr.
expect() {
  if [ "$rc" != "$2" ]; then
    bad "$1: exit $rc, expected $2 (stderr: $err)"
  elif ! printf '%s' "$err" | grep -qF -- "$3"; then
    bad "$1: stderr lacks '$3': $err"
  else
    ok
  fi
}

# unchanged NAME DIR: DIR holds exactly output_0.pb and output_1.pb, as
# saved in DIR.saved.
unchanged() {
  if [ "$(ls -A "$2" | tr '\n' ' ')" != "output_0.pb output_1.pb " ]; then
    bad "$1: $2 holds $(ls -A "$2" | tr '\n' ' ')"
  elif ! cmp -s "$2/output_0.pb" "$2.saved/output_0.pb" ||
       ! cmp -s "$2/output_1.pb" "$2.saved/output_1.pb"; then
    bad "$1: an earlier output was changed"
  else
    ok
  fi
}

# fresh_out DIR: DIR with two earlier outputs, and a copy of them.
fresh_out() {
  rm -rf "$1" "$1.saved"
  mkdir -p "$1" "$1.saved"
  printf 'earlier output 0' >"$1/output_0.pb"
  printf 'earlier output 1' >"$1/output_1.pb"
  cp "$1"/* "$1.saved/"
}

size() { wc -c <"$1" | tr -d ' '; }

# ---- FILE-CHANGED: files cut short while in use ------------------------------
# covers: FILE-CHANGED
big=$(size big.pb)
# A large tensor file (raw_data used in place) cut short right after it is
# mapped: to 100 bytes (its header still readable) and to nothing (every page
# faults: SIGBUS, turned into zeros by the command, then the error).
for to in 100 0; do
  [ "$to" = 0 ] && ! sigbus_ok "tensor cut to 0 bytes when mapped" && continue
  run_shim SHIM_TRUNCATE="$PWD/big.pb:$to" -- run identity_any.onnx -i big.pb
  expect "tensor cut to $to bytes when mapped" 2 "'big.pb' changed size while in use ($big bytes, now $to)"
  restore big.pb
done
# Cut short after every check passed, while its values are printed: the
# reads fault, and the check after printing reports the file.
if sigbus_ok "tensor cut while printed"; then
  run_shim SHIM_TRUNCATE="$PWD/big.pb:0:fstat:3" -- run identity_any.onnx -i big.pb
  expect "tensor cut while printed" 2 "'big.pb' changed size while in use ($big bytes, now 0)"
  restore big.pb
fi
# Cut short while written to -o DIR (the copy reads the file): nothing is
# written.
fresh_out "$work/o1"
run_shim SHIM_TRUNCATE="$PWD/big.pb:4096:fstat:2" -- run identity_any.onnx -i big.pb -o "$work/o1"
expect "tensor cut while copied to -o" 2 "the file its data comes from changed size while in use"
rm -f "$work/o1/output_1.pb" "$work/o1.saved/output_1.pb"
[ "$(ls -A "$work/o1")" = "output_0.pb" ] && cmp -s "$work/o1/output_0.pb" "$work/o1.saved/output_0.pb" &&
  ok || bad "tensor cut while copied: $work/o1 changed: $(ls -A "$work/o1")"
restore big.pb
# A model file cut short between its size being read and its bytes.
model_size=$(size identity_any.onnx)
run_shim SHIM_TRUNCATE="$PWD/identity_any.onnx:10:fstat:1" -- run identity_any.onnx -i x2.pb
expect "model cut while read" 2 "'identity_any.onnx' changed size while in use ($model_size bytes, now 10)"
restore identity_any.onnx
# A model of 64 KiB and more is mapped (MODEL-MAPPED): cut short right after
# it is mapped, to 100 bytes and to nothing, for each command that loads a
# model. Decoding reads pages past the cut either way (SIGBUS, made pages of
# zeros by the command's handler).
bigm=$(size bigmodel.onnx)
for to in 100 0; do
  ! sigbus_ok "mapped model cut to $to bytes" && continue
  for cmd in run infer check; do
    run_shim SHIM_TRUNCATE="$PWD/bigmodel.onnx:$to" -- $cmd bigmodel.onnx
    expect "mapped model cut to $to bytes ($cmd)" 2 "'bigmodel.onnx' changed size while in use ($bigm bytes, now $to)"
    restore bigmodel.onnx
  done
done
# Cut short after decoding (the check after it, fstat 2, still saw the old
# size), before the analysis reads the int64 initializers on the cut pages:
# infer, run and check report the file, not a result from pages of zeros.
if sigbus_ok "mapped model cut after decoding"; then
  for cmd in run infer check; do
    run_shim SHIM_TRUNCATE="$PWD/bigmodel.onnx:4096:fstat:2" -- $cmd bigmodel.onnx
    expect "mapped model cut after decoding ($cmd)" 2 "'bigmodel.onnx' changed size while in use ($bigm bytes, now 4096)"
    restore bigmodel.onnx
  done
fi
# Loading, the profile check and test read the mapping after decoding too:
# subgraphs held as bytes (an If after 128 KiB of data), a sparse
# initializer's name, a test's expected output against the model's data.
# Cut then, each reports the file, not an invalid subgraph, a wrong name or
# a mismatch.
if sigbus_ok "mapped model cut while loading"; then
  bigif=$(size bigif.onnx)
  for cmd in run infer check; do
    run_shim SHIM_TRUNCATE="$PWD/bigif.onnx:4096:fstat:2" -- $cmd bigif.onnx
    expect "mapped model cut while loading ($cmd)" 2 "'bigif.onnx' changed size while in use ($bigif bytes, now 4096)"
    restore bigif.onnx
  done
  bigsp=$(size bigsparse.onnx)
  run_shim SHIM_TRUNCATE="$PWD/bigsparse.onnx:4096:fstat:2" -- check --profile sonnx bigsparse.onnx
  expect "mapped model cut before its sparse findings" 2 "'bigsparse.onnx' changed size while in use ($bigsp bytes, now 4096)"
  restore bigsparse.onnx
  bigt=$(size bigtest/model.onnx)
  run_shim SHIM_TRUNCATE="$PWD/bigtest/model.onnx:4096:fstat:2" -- test bigtest
  want="FAIL bigtest: test_data_set_0: 'bigtest/model.onnx' changed size while in use ($bigt bytes, now 4096)"
  [ "$rc" = 1 ] && printf '%s' "$out" | grep -qF -- "$want" && ok ||
    bad "mapped model cut while tested: exit $rc, stdout: $out"
  restore bigtest/model.onnx
fi
# External data cut short when mapped; and while printed.
ext_size=$(size bigext/w.bin)
run_shim SHIM_TRUNCATE="$PWD/bigext/w.bin:0" -- run bigext/model.onnx
expect "external data cut when mapped" 2 "bigext/model.onnx: 'w.bin' changed size while in use ($ext_size bytes, now 0)"
restore bigext/w.bin
if sigbus_ok "external data cut while printed"; then
  run_shim SHIM_TRUNCATE="$PWD/bigext/w.bin:0:fstat:2" -- run bigext/model.onnx --json
  expect "external data cut while printed" 2 "'w.bin' changed size while in use ($ext_size bytes, now 0)"
  restore bigext/w.bin
fi
# A mapped .npy rewritten in place, its size and modification time kept,
# between the reader's two passes over its strings (element 0, "a" and a
# NUL, becomes "ab", longer than the first pass counted): the second pass
# reports the change, never writing past what the first one sized.
run_shim SHIM_REWRITE="$PWD/bigstrings.npy:129:b" -- run identity_string.onnx -i bigstrings.npy
expect "mapped .npy rewritten between its passes" 2 "onnxshape: error: 'bigstrings.npy': the file changed while it was read"
restore bigstrings.npy

# ---- FILE-CONFINED: the model's directory swapped for a link at every step ---
# covers: FILE-CONFINED
# ext/model.onnx reads ext/sub/w.bin (1, 2, 3, 4); secret/w.bin holds 666s.
# At the K-th file call of a run, ext/sub becomes a link to secret: at no K
# may the run print a 666 (nor end by a signal). Some K must fall between
# reading the model and opening the data, where the old check-then-open by
# name read the secret; there the run must refuse the link.
for mode in openat2 walk; do
  refused=0
  extra=""
  [ $mode = walk ] && extra="SHIM_NO_OPENAT2=1"
  # shellcheck disable=SC2086
  env LD_PRELOAD="$shim" SHIM_COUNT="$work/count" $extra "$bin" run ext/model.onnx >/dev/null 2>&1
  calls=$(sed -n 's/^calls //p' "$work/count")
  k=1
  while [ "$k" -le "$calls" ]; do
    rm -rf "$work/race" && mkdir -p "$work/race" && cp -r ext secret "$work/race/"
    # shellcheck disable=SC2086
    run_shim $extra SHIM_SWAP_AT="$k:$work/race/ext/sub:../secret" -- run "$work/race/ext/model.onnx"
    if printf '%s' "$out" | grep -q 666; then
      bad "confinement ($mode): call $k read the file outside the directory: $out"
    elif [ "$rc" -ge 128 ]; then
      bad "confinement ($mode): call $k ended by a signal ($rc)"
    elif [ "$rc" = 0 ] && [ "$out" != "y: float [4] = [1, 2, 3, 4]" ]; then
      bad "confinement ($mode): call $k printed $out"
    fi
    printf '%s' "$err" | grep -q "goes through a symbolic link" && refused=$((refused + 1))
    k=$((k + 1))
  done
  [ "$refused" -ge 1 ] && ok || bad "confinement ($mode): no swap fell between reading and opening ($calls calls)"
done

# ---- FILE-CONFINED: the model's own directory swapped after the model opened --
# covers: FILE-CONFINED
# A model file is opened by its path and its directory only for external
# data; the directory must then still hold the model file. At the K-th file
# call, race/ext becomes a link to decoy (another model, output z, over
# 666s): a run reads the model and its data from one directory, ext (y =
# 1..4) or decoy (z = 666s), or refuses; never y with the decoy's data.
env LD_PRELOAD="$shim" SHIM_COUNT="$work/count" "$bin" run ext/model.onnx >/dev/null 2>&1
calls=$(sed -n 's/^calls //p' "$work/count")
refused=0
k=1
while [ "$k" -le "$calls" ]; do
  rm -rf "$work/race" && mkdir -p "$work/race" && cp -r ext decoy "$work/race/"
  run_shim SHIM_SWAP_AT="$k:$work/race/ext:decoy" -- run "$work/race/ext/model.onnx"
  if [ "$rc" -ge 128 ]; then
    bad "model directory swapped: call $k ended by a signal ($rc)"
  elif [ "$rc" = 0 ] && [ "$out" != "y: float [4] = [1, 2, 3, 4]" ] &&
       [ "$out" != "z: float [4] = [666, 666, 666, 666]" ]; then
    bad "model directory swapped: call $k printed $out"
  elif [ "$rc" != 0 ]; then
    if printf '%s' "$err" | grep -q "the directory '.*' no longer holds the model 'model.onnx' (it changed while the model was loaded); external data is not read from it"; then
      refused=$((refused + 1))
    else
      bad "model directory swapped: call $k failed otherwise ($rc): $err"
    fi
  fi
  k=$((k + 1))
done
[ "$refused" -ge 1 ] && ok || bad "model directory swapped: no swap fell between the model's open and its directory's ($calls calls)"

# ---- OUTPUT-ALL-OR-NOTHING ----------------------------------------------------
# covers: OUTPUT-ALL-OR-NOTHING
# The second rename fails: the first output is put back as it was.
fresh_out "$work/o2"
# (-o names a relative directory, as the messages shorten long names in the
# middle, and the expected text must not depend on where the checkout is.)
run_shim SHIM_FAIL_RENAME_AT=2 -- run two_outputs.onnx -i x2.pb -o ../o2
expect "second rename fails" 2 "cannot write '../o2/output_1.pb': Input/output error"
unchanged "second rename fails" "$work/o2"
# The disk fills while output_1 is written: the message names output_1.pb,
# not a temporary file, and nothing changes.
mkdir -p "$work/ref"
"$bin" run two_outputs.onnx -i x2.pb -o "$work/ref" >/dev/null
fresh_out "$work/o3"
run_shim SHIM_ENOSPC_AFTER=$(($(size "$work/ref/output_0.pb") + 2)) -- run two_outputs.onnx -i x2.pb -o ../o3
expect "disk full" 2 "cannot write '../o3/output_1.pb': No space left on device"
unchanged "disk full" "$work/o3"
# SIGINT and SIGTERM in the middle of writing: the temporaries are removed
# and the process ends by the signal.
for sig in 2 15; do
  fresh_out "$work/o4"
  run_shim SHIM_SIGNAL_AT_WRITE="2:$sig" -- run two_outputs.onnx -i x2.pb -o "$work/o4"
  [ "$rc" = $((128 + sig)) ] && ok || bad "signal $sig: exit $rc, expected $((128 + sig))"
  unchanged "signal $sig" "$work/o4"
done
# Success replaces both, and leaves nothing else.
fresh_out "$work/o5"
run_shim -- run two_outputs.onnx -i x3.pb -o "$work/o5"
[ "$rc" = 0 ] && [ "$(ls -A "$work/o5" | tr '\n' ' ')" = "output_0.pb output_1.pb " ] &&
  ! cmp -s "$work/o5/output_0.pb" "$work/o5.saved/output_0.pb" && ok ||
  bad "success: exit $rc, $(ls -A "$work/o5")"

# Two runs into one directory: run A stops right after its first rename; run
# B (other data) is started and must wait for A's lock; then A goes on. Each
# exits 0, and the directory holds the outputs of one run, never a mix.
mkdir -p "$work/a" "$work/b"
"$bin" run two_outputs.onnx -i x2.pb -o "$work/a" >/dev/null
"$bin" run two_outputs.onnx -i x3.pb -o "$work/b" >/dev/null
rm -rf "$work/o6" "$work/note"; mkdir -p "$work/o6"
env LD_PRELOAD="$shim" SHIM_STOP_AT_RENAME=1 "$bin" run two_outputs.onnx -i x2.pb -o "$work/o6" >/dev/null &
pid_a=$!
while [ "$(cut -d' ' -f3 "/proc/$pid_a/stat" 2>/dev/null)" != T ]; do :; done
env LD_PRELOAD="$shim" SHIM_FLOCK_NOTE="$work/note" "$bin" run two_outputs.onnx -i x3.pb -o "$work/o6" >/dev/null &
pid_b=$!
# B either reached the lock or (without one) finished.
while [ ! -e "$work/note" ] && kill -0 "$pid_b" 2>/dev/null; do :; done
while kill -0 "$pid_b" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$pid_b/stat" 2>/dev/null)" = R ]; do :; done
kill -CONT "$pid_a"
wait "$pid_a"; rc_a=$?
wait "$pid_b"; rc_b=$?
if [ "$rc_a" != 0 ] || [ "$rc_b" != 0 ]; then
  bad "concurrent runs: exits $rc_a and $rc_b"
elif { cmp -s "$work/o6/output_0.pb" "$work/a/output_0.pb" && cmp -s "$work/o6/output_1.pb" "$work/a/output_1.pb"; } ||
     { cmp -s "$work/o6/output_0.pb" "$work/b/output_0.pb" && cmp -s "$work/o6/output_1.pb" "$work/b/output_1.pb"; }; then
  [ "$(ls -A "$work/o6" | tr '\n' ' ')" = "output_0.pb output_1.pb " ] && ok ||
    bad "concurrent runs left $(ls -A "$work/o6")"
else
  bad "concurrent runs: the outputs mix the two runs"
fi

# ---- positional binding is not quadratic --------------------------------------
# covers: MODEL-NAMES
# 3,000 inputs bound by position: string comparisons grow as n log n (about
# 36,000 here; a quadratic binding makes 4.5 million).
set -- ; i=1; while [ $i -lt 3000 ]; do set -- "$@" -i "many/x$i.pb"; i=$((i + 1)); done
env LD_PRELOAD="$shim" SHIM_COUNT="$work/count" "$bin" run many_inputs.onnx -i x0=many/x0.pb "$@" >/dev/null
n_cmp=$(sed -n 's/^strcmp //p' "$work/count")
[ "$n_cmp" -lt 200000 ] && ok || bad "positional binding: $n_cmp string comparisons for 3,000 inputs"

echo "$pass passed, $fail failed${skipped:+, $skipped skipped}" | sed 's/, 0 skipped//'
[ "$fail" -eq 0 ]
