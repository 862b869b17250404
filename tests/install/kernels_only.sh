#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kernels-only package: configures the source with
# ONNXSHAPE_KERNELS_ONLY=ON and with protoc-c and protobuf-c made
# unfindable, builds, runs the kernels' tests, installs into a scratch
# prefix, checks what was installed and what the library needs from the C
# library (memcpy, memmove, memset and nothing else; libgcc's 64-bit
# division helpers on 32-bit targets), and builds and runs
# a consumer with find_package(onnxshape COMPONENTS kernels) and with
# pkg-config onnxshape-kernels. Prints "N passed, M failed".
# Usage: kernels_only.sh SOURCE_DIR SCRATCH_DIR C_COMPILER
# covers: API-HEADERS (the kernels' header alone, installed and compiled against)
set -u
src=$1 scratch=$2 cc=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$scratch"
mkdir -p "$scratch"
build=$scratch/build prefix=$scratch/prefix

# Nothing of protobuf-c may be needed: point its finders at nothing.
if cmake -S "$src" -B "$build" -DONNXSHAPE_KERNELS_ONLY=ON -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON -DCMAKE_C_COMPILER="$cc" \
     -DPROTOC_C=/nonexistent/protoc-c -DPROTOBUF_C_LIBRARY=/nonexistent/libprotobuf-c.so \
     -DPROTOBUF_C_INCLUDE_DIR=/nonexistent >"$scratch/configure.log" 2>&1 &&
   cmake --build "$build" -j 2 >"$scratch/build.log" 2>&1; then
  ok
else
  bad "kernels-only configure or build (see $scratch/*.log)"; echo "$pass passed, $fail failed"; exit 1
fi
# Only the kernels were built: no protobuf code, no command.
if [ -e "$build/onnxshape" ] || [ -d "$build/generated" ]; then
  bad "kernels-only build made the command or the protobuf code"
else
  ok
fi
ctest --test-dir "$build" >"$scratch/ctest.log" 2>&1 &&
  grep -q "100% tests passed, 0 tests failed out of 5" "$scratch/ctest.log" && ok ||
  bad "kernels' tests in the kernels-only build: $(grep 'tests passed' "$scratch/ctest.log")"

cmake --install "$build" --prefix "$prefix" >/dev/null 2>&1 || bad "install"
libdir=$(ls -d "$prefix"/lib*/pkgconfig 2>/dev/null | head -n 1)
libdir=${libdir%/pkgconfig}
# The kernels' header (not the whole library's onnxshape.h), the archive, the CMake component and the .pc file; nothing of
# the whole library or the command.
missing=""
for f in include/onnxshape_kernels.h include/onnxshape_spec.h "${libdir#$prefix/}/libonnxshape-kernels.a" \
         "${libdir#$prefix/}/pkgconfig/onnxshape-kernels.pc" \
         "${libdir#$prefix/}/cmake/onnxshape/onnxshapeConfig.cmake" \
         "${libdir#$prefix/}/cmake/onnxshape/onnxshapeKernelsTargets.cmake"; do
  [ -f "$prefix/$f" ] || missing="$missing $f"
done
extra=$(cd "$prefix" && find . -name 'libonnxshape.*' -o -name onnxshape -type f \
  -o -name onnxshapeTargets.cmake -o -name onnxshape.pc -o -name onnxshape.h | tr '\n' ' ')
[ -z "$missing" ] && [ -z "$extra" ] && ok || bad "installed files: missing$missing; unexpected $extra"

# What the archive needs from outside itself (on 32-bit targets also
# libgcc's 64-bit division helpers, which are not the C library).
a=$libdir/libonnxshape-kernels.a
nm --defined-only "$a" | awk 'NF == 3 {print $3}' | sort -u >"$scratch/defined"
nm -u "$a" | awk 'NF {print $NF}' | grep -v ':$' | sort -u >"$scratch/undefined"
undef=$(comm -23 "$scratch/undefined" "$scratch/defined" |
  grep -vxE 'memcpy|memmove|memset|_GLOBAL_OFFSET_TABLE_|__(u?div|u?mod)di3|__aeabi_u?ldivmod' |
  tr '\n' ' ')
[ -z "$undef" ] && ok || bad "libonnxshape-kernels.a needs more than memcpy/memmove/memset: $undef"

if cmake -S "$src/tests/install/consumer" -B "$scratch/consumer" -DKERNELS=ON \
     -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >"$scratch/consumer.log" 2>&1 &&
   cmake --build "$scratch/consumer" >>"$scratch/consumer.log" 2>&1 &&
   [ "$("$scratch/consumer/consumer")" = "consumer: [2,3,4] -> [4,6]" ]; then
  ok
else
  bad "find_package(onnxshape COMPONENTS kernels) consumer (see $scratch/consumer.log)"
fi
# Asking a kernels-only install for the whole library fails at configure.
if cmake -S "$src/tests/install/consumer" -B "$scratch/consumer-lib" \
     -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" >"$scratch/consumer-lib.log" 2>&1; then
  bad "find_package(onnxshape) found the library in a kernels-only install"
else
  ok
fi
pc=$libdir/pkgconfig
if PKG_CONFIG_PATH=$pc "$cc" -std=c11 -Wall -Werror -DKERNELS_ONLY $(PKG_CONFIG_PATH=$pc pkg-config --cflags onnxshape-kernels) \
     "$src/tests/install/consumer/consumer.c" -o "$scratch/consumer-pc" \
     $(PKG_CONFIG_PATH=$pc pkg-config --libs onnxshape-kernels) 2>"$scratch/pc.log" &&
   [ "$("$scratch/consumer-pc")" = "consumer: [2,3,4] -> [4,6]" ]; then
  ok
else
  bad "pkg-config onnxshape-kernels consumer (see $scratch/pc.log)"
fi

# Messages compiled out (ONNXSHAPE_MESSAGES=OFF): the kernels' tests pass
# expecting "error <status number>" for every message, and the archive holds
# none of the message formats that the build with messages holds.
nomsg=$scratch/build-nomsg
if cmake -S "$src" -B "$nomsg" -DONNXSHAPE_KERNELS_ONLY=ON -DONNXSHAPE_MESSAGES=OFF -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON \
     -DCMAKE_C_COMPILER="$cc" >"$scratch/nomsg.log" 2>&1 &&
   cmake --build "$nomsg" -j 2 >>"$scratch/nomsg.log" 2>&1 &&
   ctest --test-dir "$nomsg" >"$scratch/ctest-nomsg.log" 2>&1 &&
   grep -q "100% tests passed, 0 tests failed out of 5" "$scratch/ctest-nomsg.log"; then
  ok
else
  bad "kernels' tests with ONNXSHAPE_MESSAGES=OFF (see $scratch/nomsg.log, ctest-nomsg.log)"
fi
formats() { strings -a "$1" | grep -c -e 'is not allowed (allowed: {})' -e 'a dimension cannot be below -1'; }
with=$(formats "$a") without=$(formats "$nomsg/libonnxshape-kernels.a")
[ "$with" -eq 2 ] && [ "$without" -eq 0 ] && ok ||
  bad "message formats in the archive: $with with messages (expected 2), $without without (expected 0)"
# Messages off is for the kernels alone: the whole library refuses it.
if cmake -S "$src" -B "$scratch/nomsg-full" -DONNXSHAPE_MESSAGES=OFF -DCMAKE_C_COMPILER="$cc" \
     >"$scratch/nomsg-full.log" 2>&1; then
  bad "ONNXSHAPE_MESSAGES=OFF accepted without ONNXSHAPE_KERNELS_ONLY"
else
  grep -q "ONNXSHAPE_MESSAGES=OFF needs ONNXSHAPE_KERNELS_ONLY=ON" "$scratch/nomsg-full.log" && ok ||
    bad "ONNXSHAPE_MESSAGES=OFF without ONNXSHAPE_KERNELS_ONLY: no clear error"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
