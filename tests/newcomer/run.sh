#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# covers: CLI-HELP
# A newcomer's first commands, as a user who is not root (a throwaway account
# made for the test): `make demo` needs only the build tier (run with only
# that tier's commands on PATH), so it runs without root and prints the
# demo's results (also with BUILD as an absolute path), and CMake without
# options builds no tests; `make install PREFIX=...`
# installs the command, its man page, completion and docs under that prefix
# and names it in onnxshape.pc, and a later `make install` without PREFIX
# goes to /usr/local again; make demo and make install use build/ alone;
# `make bench` refuses a Debug build-bench/ and says how to fix it; `make
# prove` on a machine without Frama-C says exactly which packages to install;
# and `make clean` removes every build directory.
# Skipped (exit 77) unless run as root with useradd and runuser.
# Usage: run.sh SOURCE_DIR
set -eu
src=$1
if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
  echo "SKIP: needs root, useradd and runuser to make a throwaway user; run make check as root"
  exit 77
fi
user=onnxnew$$
home=$(mktemp -d /tmp/onnxshape-newcomer.XXXXXX)
chmod 755 "$home"
useradd --no-create-home --home-dir "$home" --shell /bin/sh "$user"
trap 'userdel "$user" 2>/dev/null || true; rm -rf "$home"' EXIT
mkdir "$home/onnxshape"
# The source tree as a clone has it: no build directories, caches or .git.
(cd "$src" && tar --exclude='./build*' --exclude=./.cache --exclude=./.git \
   --exclude=./node_modules -cf - .) | tar -C "$home/onnxshape" -xf -
chown -R "$user" "$home"
as_user() { runuser -u "$user" -- env HOME="$home" PATH="$PATH" "$@"; }
fail=0
bad() { echo "FAIL $*"; fail=1; }

# Only the build tier: a PATH holding the commands of Debian's essential
# packages and of the build tier's packages (and their compilers), nothing
# else, so that a target needing python3, clang, pkg-config or any other
# tier's command fails here although this machine has every tier.
tierbin=$home/build-tier-bin
mkdir "$tierbin"
essential=$(dpkg-query -Wf '${Package} ${Essential}\n' | awk '$2 == "yes" { print $1 }')
for p in $essential build-essential gcc gcc-12 cpp cpp-12 g++ g++-12 make cmake binutils \
         binutils-x86-64-linux-gnu protobuf-c-compiler dpkg-dev; do
  dpkg -L "$p" 2>/dev/null | grep -E '^(/usr)?/s?bin/[^/]+$' | while read -r f; do
    [ -x "$f" ] && [ ! -e "$tierbin/${f##*/}" ] && ln -s "$f" "$tierbin/${f##*/}"
  done
done
for cmd in python3 clang pkg-config frama-c; do
  [ ! -e "$tierbin/$cmd" ] || bad "$cmd is on the build tier's PATH"
done

if ! as_user env PATH="$tierbin" make -C "$home/onnxshape" demo JOBS=2 >"$home/demo.log" 2>&1; then
  tail -30 "$home/demo.log"
  bad "make demo as a user who is not root"
fi
for want in "install-deps: everything the build tier needs is installed" \
            "count: int64 [] = 24" "inner_dims: int64 [2] = [3, 4]" \
            'matrix: float [N,12] from Reshape-21 "flatten_rows"'; do
  grep -qxF "$want" "$home/demo.log" || bad "make demo did not print: $want"
done
# A plain build builds no tests, in build/ alone.
[ ! -e "$home/onnxshape/build/tests" ] || bad "make demo built the tests"
others() { (cd "$home/onnxshape" && ls -d build?* 2>/dev/null | tr '\n' ' '); }
[ -z "$(others)" ] || bad "make demo made other build directories: $(others)"
# make demo with BUILD given as an absolute path (the same directory).
as_user env PATH="$tierbin" make -C "$home/onnxshape" demo BUILD="$home/onnxshape/build" JOBS=2 \
  >"$home/demo-abs.log" 2>&1 || { tail -5 "$home/demo-abs.log"; bad "make demo BUILD=<absolute path>"; }
# CMake without options, as a consumer or packager runs it: no tests (they
# would need python3, which the build tier does not have), nothing else.
if as_user env PATH="$tierbin" cmake -S "$home/onnxshape" -B "$home/plain" >"$home/plain.log" 2>&1; then
  grep -qx 'BUILD_TESTING:BOOL=OFF' "$home/plain/CMakeCache.txt" ||
    bad "CMake without options turns the tests on"
else
  tail -5 "$home/plain.log"
  bad "CMake without options, with only the build tier"
fi

prefix=$home/prefix
if ! as_user env PATH="$tierbin" make -C "$home/onnxshape" install PREFIX="$prefix" JOBS=2 \
       >"$home/install.log" 2>&1; then
  tail -30 "$home/install.log"
  bad "make install PREFIX=$prefix"
fi
for f in bin/onnxshape share/man/man1/onnxshape.1 share/bash-completion/completions/onnxshape \
         share/doc/onnxshape/docs/cli.md share/doc/onnxshape/README.md include/onnxshape.h; do
  [ -f "$prefix/$f" ] || bad "make install did not install $f"
done
# The installed README's links to the docs lead to installed files.
for link in $(grep -o '](docs/[^)#]*' "$prefix/share/doc/onnxshape/README.md" 2>/dev/null | sed 's/^](//' | sort -u); do
  [ -f "$prefix/share/doc/onnxshape/$link" ] || bad "the installed README links to $link, not installed"
done
pcdir=$(ls -d "$prefix"/lib*/pkgconfig 2>/dev/null | head -n 1)
inc=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags-only-I onnxshape 2>/dev/null | sed 's/^-I//; s/ *$//')
[ -n "$inc" ] && [ "$(realpath "$inc")" = "$prefix/include" ] ||
  bad "onnxshape.pc does not lead to $prefix/include (got '$inc')"
"$prefix/bin/onnxshape" --version | grep -q '^onnxshape ' || bad "the installed command does not run"
# The help pages' examples work from the installed documentation.
(cd "$prefix/share/doc/onnxshape" &&
   "$prefix/bin/onnxshape" run examples/demo.onnx -i examples/demo_input.pb >/dev/null &&
   "$prefix/bin/onnxshape" check --profile sonnx examples/demo.onnx >/dev/null) ||
  bad "the help pages' examples do not run from $prefix/share/doc/onnxshape"
# An earlier PREFIX is not kept: make install without one installs into
# /usr/local (which this user may not write: the configured prefix counts).
as_user env PATH="$tierbin" make -C "$home/onnxshape" install JOBS=2 >"$home/install2.log" 2>&1 || true
grep -qx 'CMAKE_INSTALL_PREFIX:PATH=/usr/local' "$home/onnxshape/build/CMakeCache.txt" ||
  bad "make install without PREFIX kept the earlier prefix"
[ -z "$(others)" ] || bad "make install made other build directories: $(others)"

# make bench builds in build-bench/, configured as the committed figures were
# measured (RelWithDebInfo); a Debug cache there is refused, before any
# package is asked for, with the directory and the fix.
bench_dir=$home/onnxshape/build-bench
as_user env PATH="$tierbin" cmake -S "$home/onnxshape" -B "$bench_dir" -DCMAKE_BUILD_TYPE=Debug \
  >"$home/bench-debug.log" 2>&1 || { tail -5 "$home/bench-debug.log"; bad "cmake -DCMAKE_BUILD_TYPE=Debug"; }
if as_user env PATH="$tierbin" make -C "$home/onnxshape" bench >"$home/bench.log" 2>&1; then
  bad "make bench over a Debug build-bench/ went ahead"
fi
for want in "make bench: build-bench is configured as a Debug build, not RelWithDebInfo (the build type of the figures in docs/performance.md)." \
            "make bench: remove it (rm -rf build-bench) or measure elsewhere (make bench BUILD_BENCH=DIR): make bench configures a fresh directory itself."; do
  grep -qxF "$want" "$home/bench.log" || { cat "$home/bench.log"; bad "make bench did not print: $want"; }
done
if grep -q 'install-deps' "$home/bench.log"; then bad "make bench looked for packages before refusing"; fi
grep -qx 'CMAKE_BUILD_TYPE:STRING=Debug' "$bench_dir/CMakeCache.txt" || bad "make bench touched the refused cache"

# make prove without Frama-C: the tools the script needs, but no frama-c,
# why3, z3 or cvc4 on PATH.
mkdir "$home/bin"
for c in sh bash make id cat dirname find mkdir touch grep; do
  ln -s "$(command -v $c)" "$home/bin/$c"
done
if as_user env PATH="$home/bin" make -C "$home/onnxshape" prove >"$home/prove.log" 2>&1; then
  bad "make prove without Frama-C succeeded"
fi
grep -qxF "install-deps: the prove tier needs Debian packages that are not installed: frama-c-base why3 z3 cvc4" \
  "$home/prove.log" || { cat "$home/prove.log"; bad "make prove did not name the missing packages"; }
grep -qxF "install-deps: install them as root: apt-get install frama-c-base why3 z3 cvc4" \
  "$home/prove.log" || bad "make prove did not say how to install them"

# make clean removes every build directory, build/ and the others alike.
as_user mkdir "$home/onnxshape/build-check" "$home/onnxshape/build-clang" "$home/onnxshape/build-prove"
as_user env PATH="$tierbin" make -C "$home/onnxshape" clean >"$home/clean.log" 2>&1 || bad "make clean"
left=$(cd "$home/onnxshape" && ls -d build* 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] || bad "make clean left $left"

[ $fail = 0 ] && echo "newcomer: make demo, make install PREFIX, make bench's refusal, make prove's message and make clean as user $user: passed"
exit $fail
