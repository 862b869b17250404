# SPDX-License-Identifier: Apache-2.0
# Front door: `make demo` builds and runs the example model; `make check`
# installs what is missing, builds with gcc and with clang (warnings are
# errors) and runs every test; `make` builds.

BUILD       ?= build
BUILD_CLANG ?= build-clang
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all deps build check check-gcc check-clang demo install clean

all: build

deps:
	@bash scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

check: deps
	$(MAKE) check-gcc check-clang

check-gcc: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

check-clang:
	cmake -S . -B $(BUILD_CLANG) $(CMAKE_FLAGS) -DCMAKE_C_COMPILER=clang
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	ctest --test-dir $(BUILD_CLANG) --output-on-failure -j $(JOBS)

# The README's first command: build, then run the bundled example model.
demo: deps build
	./$(BUILD)/onnxshape run examples/demo.onnx -i examples/demo_input.pb
	./$(BUILD)/onnxshape infer examples/demo.onnx

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_CLANG)
