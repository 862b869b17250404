#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the built library into a scratch prefix, then builds and runs a
# consumer against it: with find_package(onnxshape), with
# find_package(onnxshape COMPONENTS kernels) and with pkg-config; then, as
# the README's "Installing to another prefix" says, the pkg-config consumer
# does not start without LD_LIBRARY_PATH and one built with the run path
# from pkg-config's libdir does.
# Usage: run.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR C_COMPILER [LINKER_FLAGS]
# (LINKER_FLAGS: the build's own, e.g. --coverage, which the static
# kernels archive then needs.)
set -eu
src=$1 build=$2 scratch=$3 cc=$4 ldflags=${5:-}
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

cmake -S "$src/tests/install/consumer" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
LD_LIBRARY_PATH=$prefix/lib:$prefix/lib64 "$scratch/cmake/consumer"
cmake -S "$src/tests/install/consumer" -B "$scratch/cmake-kernels" -DKERNELS=ON \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >/dev/null
cmake --build "$scratch/cmake-kernels" >/dev/null
"$scratch/cmake-kernels/consumer"

libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n 1)
PKG_CONFIG_PATH=$libdir "$cc" -std=c11 -Wall -Werror $(PKG_CONFIG_PATH=$libdir pkg-config --cflags onnxshape) \
  "$src/tests/install/consumer/consumer.c" -o "$scratch/consumer-pc" \
  $(PKG_CONFIG_PATH=$libdir pkg-config --libs onnxshape)
LD_LIBRARY_PATH=$(dirname "$libdir") "$scratch/consumer-pc"
# (Not where the loader's cache already has the library, installed before.)
if ldconfig -p 2>/dev/null | grep -q 'libonnxshape\.so'; then
  echo "a libonnxshape is in the loader's cache: the check without a run path is skipped"
elif env -u LD_LIBRARY_PATH "$scratch/consumer-pc" >"$scratch/norpath.out" 2>&1; then
  echo "FAIL: a consumer of $prefix started without a run path or LD_LIBRARY_PATH" >&2
  exit 1
elif ! grep -q 'error while loading shared libraries: libonnxshape' "$scratch/norpath.out"; then
  cat "$scratch/norpath.out" >&2
  exit 1
fi
rpath=$(PKG_CONFIG_PATH=$libdir pkg-config --variable=libdir onnxshape)
PKG_CONFIG_PATH=$libdir "$cc" -std=c11 -Wall -Werror $(PKG_CONFIG_PATH=$libdir pkg-config --cflags onnxshape) \
  "$src/tests/install/consumer/consumer.c" -o "$scratch/consumer-rpath" \
  $(PKG_CONFIG_PATH=$libdir pkg-config --libs onnxshape) -Wl,-rpath,"$rpath"
env -u LD_LIBRARY_PATH "$scratch/consumer-rpath"
echo "5 passed, 0 failed"
