#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# covers: KERNEL-ANY-FLAGS
# The kernels are compiled with their users' flags, not ours: the archive
# builds warning-free (-Wall -Wextra -Wpedantic -Werror and the project's
# other warnings) with GCC and clang at every optimization level, with and
# without messages. The optimizer's flow analysis warns at some levels and
# not others (GCC's -Wmaybe-uninitialized at -O1 and -Og, clang's
# -Wsometimes-uninitialized at -Os, where the fast path is left out), and
# make check otherwise builds at one level per compiler. Each compiler that
# is not installed is skipped by name. Prints "N passed, M failed".
# Usage: kernel_flags.sh SOURCE_DIR SCRATCH_DIR
set -u
src=$1 scratch=$2
pass=0 fail=0
rm -rf "$scratch"
mkdir -p "$scratch"
for cc in gcc clang; do
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "skipped: $cc is not installed"
    continue
  fi
  for opt in -O0 -O1 -Og -O2 -O3 -Os; do
    for messages in ON OFF; do
      b=$scratch/$cc$opt-$messages
      if cmake -S "$src" -B "$b" -DONNXSHAPE_KERNELS_ONLY=ON -DONNXSHAPE_MESSAGES=$messages \
           -DONNXSHAPE_WERROR=ON -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=None \
           -DCMAKE_C_FLAGS="$opt" >"$b.log" 2>&1 &&
         cmake --build "$b" --target onnxshape_kernels_static >>"$b.log" 2>&1; then
        pass=$((pass + 1))
      else
        echo "FAIL $cc $opt, messages $messages:"
        grep -E 'error|warning' "$b.log" | head -5
        fail=$((fail + 1))
      fi
      rm -rf "$b"
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
