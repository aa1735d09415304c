# gpucompile: `make` builds build/gpucompile; `make demo` and `make test` also set up a fresh
# Debian 12 machine (they install the Debian packages below when missing).
# The LLVM: the newest supported one (22 ... 19) that is installed, or 22 when apt can install it
# (`make setup` does); `make LLVM_CONFIG=llvm-config-19 BUILD=build19 test` for another. The
# tools the tests call (llc, opt, mlir-opt, clang, ...) are that LLVM's (its --bindir).
LLVM_MAJORS = 22 21 20 19
ifeq ($(origin LLVM_CONFIG),undefined)
  LLVM_CONFIG := $(if $(shell command -v llvm-config-22 || apt-cache show llvm-22-dev 2>/dev/null | head -1),llvm-config-22,$(firstword \
    $(foreach v,$(LLVM_MAJORS),$(if $(shell command -v llvm-config-$(v)),llvm-config-$(v))) llvm-config-22))
endif
LLVM_MAJOR := $(or $(patsubst llvm-config-%,%,$(filter llvm-config-%,$(notdir $(LLVM_CONFIG)))),$(firstword $(subst ., ,$(shell $(LLVM_CONFIG) --version 2>/dev/null))),22)
CC ?= cc
CXX ?= c++
CLANG ?= clang-$(LLVM_MAJOR)
CLANGXX ?= clang++-$(LLVM_MAJOR)
BUILD ?= build
WARN = -Wall -Wextra -pedantic
CFLAGS ?= -O2 -g
# libclc: 19 on every LLVM (Debian's libclc-22 conflicts with libclc-19; the tests read 19's).
DEBS = llvm-$(LLVM_MAJOR)-dev lld-$(LLVM_MAJOR) clang-$(LLVM_MAJOR) mlir-$(LLVM_MAJOR)-tools rocm-device-libs libclc-19 redis-server libhiredis0.14 \
       ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers spirv-tools \
       mesa-vulkan-drivers libvulkan1 libvulkan-dev vulkan-validationlayers glslang-tools python3-venv
# what `make bench` needs besides: LLVM 19 beside the default (its rows, and bench/run.sh's clang-19)
BENCH_DEBS = llvm-19-dev lld-19 clang-19 mlir-19-tools bc python3
# what CI's extra checks need besides (make windows, cmake-example, valgrind, sanitize, fuzz)
CI_DEBS = gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 cmake valgrind libclang-rt-$(LLVM_MAJOR)-dev libzstd-dev
# what `make test-run` needs besides: the Vulkan rows' Windows build, run under Wine (about 100
# packages: test-run's alone, not make test's)
RUN_DEBS = gcc-mingw-w64-x86-64 wine64 xvfb
LLVM_BINDIR = $(shell $(LLVM_CONFIG) --bindir 2>/dev/null)

LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null) -ldl -lpthread
# A build directory holds one LLVM's objects: switching LLVM_CONFIG rebuilds them.
LLVM_STAMP = $(BUILD)/.llvm-$(LLVM_MAJOR)
HEADERS = gpucompile.h gpucompile_runtime.h gpucompile_nvptx.h gpucompile_amdgpu.h gpucompile_spirv.h gpucompile_lower.h gpucompile_vulkan.h gpucompile_webgpu.h $(LLVM_STAMP)
TEST_SRCS = $(sort $(wildcard tests/test_*.c))
TEST_BINS = $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

.PHONY: test-run setup-run opencl webgpu-deps gpu-check
.PHONY: all setup setup-ci demo test check-headers examples windows cmake-example clean sanitize valgrind fuzz test-corpus test-piglit bench bench-quick bench-vulkan setup-bench
all: $(BUILD)/gpucompile

# Installs what is missing (root on a fresh Debian machine; sudo otherwise).
setup-ci:
	@$(MAKE) --no-print-directory setup DEBS="$(CI_DEBS)"
setup:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

$(LLVM_STAMP):
	@mkdir -p $(BUILD)
	@rm -f $(BUILD)/.llvm-*; touch $@

$(BUILD)/gpucompile: tools/gpucompile.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $(LLVM_CFLAGS) -I. tools/gpucompile.c -o $@ $(LLVM_LIBS)

# The implementation in its own translation unit; tests use the headers only.
$(BUILD)/impl.o: tests/impl.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. -c tests/impl.c -o $@

$(BUILD)/tests/%: tests/%.c tests/test.h $(BUILD)/impl.o
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. $< $(BUILD)/impl.o -o $@ $(LLVM_LIBS) -lm

# Each backend's implementation in a file of its own, the core's in another, linked into one
# program (tests/split/main.c); the CUDA runtime's file is compiled without LLVM's flags.
SPLIT_SRCS = tests/split/core.c tests/split/nvptx.c tests/split/amdgpu.c tests/split/spirv.c tests/split/lower.c tests/split/vulkan.c tests/split/webgpu.c tests/split/cuda_runtime.c
SPLIT_OBJS = $(patsubst tests/split/%.c,$(BUILD)/split/%.o,$(SPLIT_SRCS))
$(BUILD)/split/cuda_runtime.o: tests/split/cuda_runtime.c $(HEADERS)
	@mkdir -p $(BUILD)/split
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) -I. -c $< -o $@
$(BUILD)/split/%.o: tests/split/%.c $(HEADERS)
	@mkdir -p $(BUILD)/split
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. -c $< -o $@
$(BUILD)/tests/test_split: tests/split/main.c tests/test.h $(SPLIT_OBJS)
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. tests/split/main.c $(SPLIT_OBJS) -o $@ $(LLVM_LIBS)

# C11 and C++17, static mode, implementation split from users: warning-free with -Werror.
check-headers: $(HEADERS)
	@mkdir -p $(BUILD)/hdr
	$(CC) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/impl.c -o $(BUILD)/hdr/impl_c.o
	$(CXX) -std=c++17 -x c++ $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/impl.c -o $(BUILD)/hdr/impl_cxx.o
	$(CC) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -DGPUCOMPILE_STATIC -c tests/impl.c -o $(BUILD)/hdr/impl_static.o
	$(CXX) -std=c++17 -x c++ $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/users.c -o $(BUILD)/hdr/users_cxx.o
	$(CC) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/users.c -o $(BUILD)/hdr/users_c.o
	$(CC) $(BUILD)/hdr/users_c.o $(BUILD)/hdr/impl_cxx.o -o $(BUILD)/hdr/users_mixed $(LLVM_LIBS) -lstdc++
	$(CLANG) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/impl.c -o $(BUILD)/hdr/impl_clang.o
	$(CLANGXX) -std=c++17 -x c++ $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/impl.c -o $(BUILD)/hdr/impl_clangxx.o
	$(CC) -std=c11 $(WARN) -Werror -x c -DGPUCOMPILE_RUNTIME_IMPLEMENTATION -c gpucompile_runtime.h -o $(BUILD)/hdr/runtime_c.o
	$(CLANGXX) -std=c++17 $(WARN) -Werror -x c++ -DGPUCOMPILE_RUNTIME_IMPLEMENTATION -c gpucompile_runtime.h -o $(BUILD)/hdr/runtime_cxx.o
	$(CLANG) -std=c11 $(WARN) -Werror -I. -DHIP -c tests/data/embed_runtime.c -o $(BUILD)/hdr/runtime_hip.o
	$(CC) -std=c11 $(WARN) -Werror -x c -I. -DGPUCOMPILE_VULKAN_RUNTIME -c gpucompile_vulkan.h -o $(BUILD)/hdr/vulkan_rt_c.o
	$(CLANGXX) -std=c++17 $(WARN) -Werror -x c++ -I. -DGPUCOMPILE_VULKAN_RUNTIME -c gpucompile_vulkan.h -o $(BUILD)/hdr/vulkan_rt_cxx.o
	$(CC) -std=c11 $(WARN) -Werror -x c -I. -DGPUCOMPILE_WEBGPU_RUNTIME -c gpucompile_webgpu.h -o $(BUILD)/hdr/webgpu_rt_c.o
	$(CLANGXX) -std=c++17 $(WARN) -Werror -x c++ -I. -DGPUCOMPILE_WEBGPU_RUNTIME -c gpucompile_webgpu.h -o $(BUILD)/hdr/webgpu_rt_cxx.o
	$(CLANG) -std=c11 $(WARN) -Werror -x c -I. -DGPUCOMPILE_WEBGPU_RUNTIME -c gpucompile_webgpu.h -o $(BUILD)/hdr/webgpu_rt_clang.o
	$(CC) -std=c11 $(WARN) -Werror -I. -c tests/data/vulkan_reflect.c -o $(BUILD)/hdr/vulkan_reflect_c.o
	$(CLANGXX) -std=c++17 -x c++ $(WARN) -Werror -I. -c tests/data/vulkan_reflect.c -o $(BUILD)/hdr/vulkan_reflect_cxx.o
	for f in $(SPLIT_SRCS); do \
	  $(CC) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -c $$f -o $(BUILD)/hdr/split_c.o && \
	  $(CLANG) -std=c11 $(WARN) -Werror $(LLVM_CFLAGS) -I. -c $$f -o $(BUILD)/hdr/split_clang.o && \
	  $(CXX) -std=c++17 -x c++ $(WARN) -Werror $(LLVM_CFLAGS) -I. -c $$f -o $(BUILD)/hdr/split_cxx.o || exit 1; done
	@echo "headers: gcc and clang, C11 and C++17, static, split, each backend in a file of its own, the runtime without LLVM: ok"

# Examples: numbered single files, each with the implementation in it (its one `cc` line).
# 09 is an engine with the Vulkan headers and loader of its own (libvulkan-dev).
EXAMPLE_BINS = $(patsubst examples/%.c,$(BUILD)/examples/%,$(sort $(wildcard examples/[0-9][0-9]_*.c)))
examples: $(EXAMPLE_BINS)
$(BUILD)/examples/09_vulkan_engine: EXAMPLE_LIBS = -lvulkan
$(BUILD)/examples/%: examples/%.c $(HEADERS) $(wildcard examples/*.h)
	@mkdir -p $(BUILD)/examples
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. $< -o $@ $(EXAMPLE_LIBS) $(LLVM_LIBS)

# The Windows code paths compile (objects only; nothing runs): Debian's mingw-w64 cross
# compilers with LLVM's C headers, which need nothing but <windows.h> there, and for
# examples/09 the Vulkan headers (platform-neutral), reached through a directory that holds
# them alone so that nothing else of the host's /usr/include is seen.
MINGW ?= x86_64-w64-mingw32-
MINGW_FLAGS = $(WARN) -Werror -I$(shell $(LLVM_CONFIG) --includedir 2>/dev/null) -I.
VULKAN_INCLUDE ?= /usr/include
windows: $(HEADERS)
	@mkdir -p $(BUILD)/windows/vulkan-headers
	ln -sfn $(VULKAN_INCLUDE)/vulkan $(VULKAN_INCLUDE)/vk_video $(BUILD)/windows/vulkan-headers/
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -c tests/impl.c -o $(BUILD)/windows/impl_c.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -DGPUCOMPILE_STATIC -c tests/impl.c -o $(BUILD)/windows/impl_static.o
	$(MINGW)g++ -std=c++17 -x c++ $(MINGW_FLAGS) -c tests/impl.c -o $(BUILD)/windows/impl_cxx.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -DGPUCOMPILE_NVPTX_RUNTIME -c tests/impl.c -o $(BUILD)/windows/impl_cuda_rt.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -DGPUCOMPILE_AMDGPU_RUNTIME -c tests/impl.c -o $(BUILD)/windows/impl_hip_rt.o
	$(MINGW)gcc -std=c11 $(WARN) -Werror -I. -c tests/data/embed_runtime.c -o $(BUILD)/windows/runtime_cuda.o
	$(MINGW)g++ -std=c++17 -x c++ $(WARN) -Werror -I. -DHIP -c tests/data/embed_runtime.c -o $(BUILD)/windows/runtime_hip.o
	$(MINGW)gcc -std=c11 $(WARN) -Werror -I. tests/run/vulkan/run_vulkan.c -o $(BUILD)/windows/run_vulkan.exe -static -lpthread
	$(MINGW)g++ -std=c++17 -x c++ $(WARN) -Werror -I. -DGPUCOMPILE_VULKAN_RUNTIME -c gpucompile_vulkan.h -o $(BUILD)/windows/runtime_vulkan.o
	$(MINGW)gcc -std=c11 $(WARN) -Werror -I. tests/run/webgpu/run_webgpu.c -o $(BUILD)/windows/run_webgpu.exe -static -lpthread
	$(MINGW)g++ -std=c++17 -x c++ $(WARN) -Werror -I. -DGPUCOMPILE_WEBGPU_RUNTIME -c gpucompile_webgpu.h -o $(BUILD)/windows/runtime_webgpu.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -c tools/gpucompile.c -o $(BUILD)/windows/gpucompile.o
	for f in $(SPLIT_SRCS); do $(MINGW)gcc -std=c11 $(MINGW_FLAGS) -c $$f -o $(BUILD)/windows/split.o || exit 1; done
	for f in examples/[0-9][0-9]_*.c; do $(MINGW)gcc -std=c11 $(MINGW_FLAGS) -I$(BUILD)/windows/vulkan-headers -c $$f -o $(BUILD)/windows/example.o || exit 1; done
	@echo "windows: mingw-w64 gcc and g++, C11, C++17, static, the runtimes (also without LLVM), CLI, examples: ok"

# examples/cmake: the headers vendored into a CMake project with find_package(LLVM).
cmake-example: $(HEADERS)
	cmake -S examples/cmake -B $(BUILD)/cmake -DLLVM_DIR=$$($(LLVM_CONFIG) --cmakedir) >/dev/null
	cmake --build $(BUILD)/cmake
	$(BUILD)/cmake/ex01 | grep -q '.entry saxpy' && echo "cmake-example: ex01 built and ran: ok"

demo: setup all opencl webgpu-deps $(BUILD)/examples/06_run_on_cpu $(BUILD)/examples/08_vulkan_runtime $(BUILD)/examples/09_vulkan_engine $(BUILD)/examples/10_webgpu
	@PATH="$(LLVM_BINDIR):$$PATH" EX06=$(BUILD)/examples/06_run_on_cpu EX08=$(BUILD)/examples/08_vulkan_runtime EX09=$(BUILD)/examples/09_vulkan_engine \
	  EX10=$(BUILD)/examples/10_webgpu WEBGPU_DIR=$(WEBGPU_DIR) OCL_ICD_VENDORS=$(OPENCL_DIR)/vendors sh examples/demo.sh

# make test T="cli_nvptx test_cache": only those units (docs/testing.md), and only what they need
# is built; T_ONLY=NAME: only the RUN tests of the test programs whose name holds NAME.
T_UNITS = $(foreach t,$(T),$(basename $(notdir $(t))))
TEST_NEEDS = $(if $(T),$(patsubst %,$(BUILD)/tests/%,$(filter test_%,$(T_UNITS))) $(if $(filter run gpu,$(T_UNITS)),$(BUILD)/impl.o) \
  $(if $(filter run cli_examples,$(T_UNITS)),opencl) $(if $(filter webgpu cli_webgpu,$(T_UNITS)),webgpu-deps) \
  $(if $(filter cli_vulkan,$(T_UNITS)),$(BUILD)/tests/piglit_run),$(TEST_BINS) $(BUILD)/tests/test_split $(BUILD)/tests/piglit_run $(BUILD)/tests/piglit_run_webgpu check-headers opencl webgpu-deps)
test: setup all $(TEST_NEEDS)
	@PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE_OPENCL=$(OPENCL_DIR) T_ONLY="$(T_ONLY)" sh tests/run.sh $(BUILD) $(T_UNITS)

# Kernels that run (tests/run/): SPIR-V on Intel's OpenCL CPU runtime, from PyPI into
# build-deps/opencl (not committed; ~800 MB), a virtual environment: Debian's pip installs outside
# one under PREFIX/local (its posix_local scheme), a venv's pip under PREFIX/lib, where the .icd
# and tests/run/run.sh look. Its own .icd names a placeholder path, so the
# vendors directory is ours; tests/run/run.sh points OCL_ICD_VENDORS and LD_LIBRARY_PATH at it.
# Where pip cannot install it, the suite skips with one line (no OpenCL device).
OPENCL_DIR = $(CURDIR)/build-deps/opencl
opencl: $(OPENCL_DIR)/vendors/intel-cpu.icd
$(OPENCL_DIR)/vendors/intel-cpu.icd:
	@echo "installing Intel's OpenCL CPU runtime (PyPI) into $(OPENCL_DIR)"
	@mkdir -p $(CURDIR)/build-deps && python3 -m venv $(OPENCL_DIR) >$(CURDIR)/build-deps/pip.log 2>&1 \
	  && $(OPENCL_DIR)/bin/pip install -q --disable-pip-version-check intel-opencl-rt intel-cmplr-lib-rt >>$(CURDIR)/build-deps/pip.log 2>&1 \
	  && test -f $(OPENCL_DIR)/lib/libintelocl.so && mkdir -p $(OPENCL_DIR)/vendors \
	  && echo "$(OPENCL_DIR)/lib/libintelocl.so" > $@ \
	  || echo "opencl: pip could not install intel-opencl-rt (see build-deps/pip.log): the kernels will not run here"
# The WebGPU implementations (tests/run/webgpu.sh): PyPI's wgpu wheel (wgpu-native) and
# dawn-python (Dawn), their C libraries only (--no-deps), into build-deps/webgpu (not committed),
# with a virtual environment's pip (a fresh Debian 12 has no pip; python3-venv is in DEBS).
WEBGPU_DIR = $(CURDIR)/build-deps/webgpu
webgpu-deps: $(WEBGPU_DIR)/.installed
$(WEBGPU_DIR)/.installed:
	@echo "installing wgpu-native and Dawn (PyPI: wgpu, dawn-python) into $(WEBGPU_DIR)"
	@mkdir -p $(CURDIR)/build-deps && python3 -m venv $(CURDIR)/build-deps/webgpu-pip >$(CURDIR)/build-deps/pip-webgpu.log 2>&1 \
	  && $(CURDIR)/build-deps/webgpu-pip/bin/pip install -q --disable-pip-version-check --no-deps --target $(WEBGPU_DIR) wgpu==0.32.0 dawn-python==0.3.0 >>$(CURDIR)/build-deps/pip-webgpu.log 2>&1 \
	  && touch $@ || echo "webgpu: pip could not install wgpu / dawn-python (see build-deps/pip-webgpu.log): the WebGPU rows will skip"
# The Vulkan rows (tests/run/vulkan.sh): on the first Vulkan device, lavapipe here; in test-run
# also cross-built with mingw-w64 and run under Wine (GPUCOMPILE_RUN_WINDOWS=1). The WebGPU rows
# (tests/run/webgpu.sh): on wgpu-native and on Dawn, each on its first adapter. The corpus' kernels
# (tests/run/corpus.sh, tests/run/corpus.spec): on OpenCL and on Vulkan, OpenCL's answers expected.
setup-run:
	@$(MAKE) --no-print-directory setup DEBS="$(DEBS) $(RUN_DEBS)"
test-run: setup-run all $(BUILD)/impl.o opencl webgpu-deps
	@PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE_OPENCL=$(OPENCL_DIR) GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash tests/run/run.sh $(BUILD); r=$$?; \
	PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile GPUCOMPILE_RUN_WINDOWS=1 bash tests/run/vulkan.sh $(BUILD) || r=1; \
	PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile GPUCOMPILE_WEBGPU_DEPS=$(WEBGPU_DIR) bash tests/run/webgpu.sh $(BUILD) || r=1; \
	PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE_OPENCL=$(OPENCL_DIR) GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash tests/run/corpus.sh $(BUILD) || r=1; exit $$r

# The same kernels on NVIDIA and AMD GPUs through the CUDA driver and HIP (tests/gpu/gpu.sh);
# without a GPU it builds everything and skips the runs with one line per vendor.
gpu-check: setup all $(BUILD)/impl.o
	@PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash tests/gpu/gpu.sh $(BUILD)

# piglit's OpenCL program tests run on Vulkan (lavapipe), counted per file (tests/corpus/piglit.sh;
# PIGLIT_FLAGS: its options, e.g. --mode both). Not part of make test: it fetches the package.
$(BUILD)/tests/piglit_run: tests/corpus/piglit_run.c gpucompile_runtime.h gpucompile_vulkan.h
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) -I. $< -o $@ -ldl -lpthread -lm
$(BUILD)/tests/piglit_run_webgpu: tests/corpus/piglit_run.c gpucompile_runtime.h gpucompile_vulkan.h gpucompile_webgpu.h
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) -I. -DPIGLIT_WEBGPU $< -o $@ -ldl -lpthread -lm
test-piglit: setup all $(BUILD)/tests/piglit_run $(BUILD)/tests/piglit_run_webgpu
	@bash tests/corpus/piglit.sh $(PIGLIT_FLAGS) $(BUILD); r=$$?; [ $$r = 77 ] || exit $$r

# Real kernels from Debian packages, gpucompile against that LLVM's own tools (tests/corpus/).
test-corpus: setup all
	@PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash tests/corpus/corpus.sh; r=$$?; [ $$r = 77 ] || exit $$r

# The benchmark (bench/README.md): many minutes, a table of ratios; not part of `make test`.
# BENCH_ARGS="--reps 5" or "--max 10" to change it; `make bench-quick`: the big-module and
# small-kernel rows, one repetition (a few minutes).
# Each LLVM measured: this one and LLVM 19 (build19/), built here when llvm-config-19 exists.
bench-quick: BENCH_ARGS = --rows big,small --reps 1
setup-bench:
	@$(MAKE) --no-print-directory setup DEBS="$(DEBS) $(BENCH_DEBS)"
bench bench-quick: setup-bench all
	@if [ $(LLVM_MAJOR) != 19 ] && command -v llvm-config-19 >/dev/null; then $(MAKE) --no-print-directory LLVM_CONFIG=llvm-config-19 BUILD=build19 all; fi
	@GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash bench/run.sh $(BENCH_ARGS); r=$$?; [ $$r = 77 ] || exit $$r

# The Vulkan rows alone (bench/vulkan.sh): IR to the first dispatch on the first Vulkan device,
# beside glslangValidator and llc; about a minute. BENCH_ARGS="--reps 9" to change it.
bench-vulkan: setup all
	@PATH="$(LLVM_BINDIR):$$PATH" GPUCOMPILE=$(CURDIR)/$(BUILD)/gpucompile bash bench/run.sh --rows vulkan $(BENCH_ARGS); r=$$?; [ $$r = 77 ] || exit $$r

clean:
	rm -rf $(BUILD)

# ---- Never take the host down (docs/guarantees.md): separate from `make test`; .ci/run calls them. ----
# make sanitize: the CLI and the unit tests with ASan + UBSan (libLLVM itself is not
# instrumented) into build-asan/, then the unit tests and the bad-input battery against them;
# and the threads test with ThreadSanitizer.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# No Vulkan device for the sanitized programs (VK_ICD_FILENAMES, VK_DRIVER_FILES): lavapipe compiles
# shaders with LLVM's JIT inside the process, and registering the JIT's EH frames deadlocks in
# libgcc's unwinder under ASan's slow unwinding (fast_unwind_on_malloc=0, which the leak stacks
# need); the Vulkan runs are make test's and make test-run's, which skip nothing.
SAN_ENV = VK_ICD_FILENAMES=/nonexistent VK_DRIVER_FILES=/nonexistent ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitize:
	$(MAKE) BUILD=build-asan CFLAGS="$(SAN_FLAGS)" build-asan/gpucompile $(patsubst tests/%.c,build-asan/tests/%,$(TEST_SRCS))
	@fails=0; for t in build-asan/tests/test_*; do echo "== $$t"; $(SAN_ENV) GPUCOMPILE=$(CURDIR)/build-asan/gpucompile $$t > build-asan/$${t##*/}.log 2>&1 || fails=1; \
	  grep -E "FAIL|ERROR|runtime error|passed," build-asan/$${t##*/}.log; done; \
	echo "== tests/cli_battery.sh"; $(SAN_ENV) GPUCOMPILE=$(CURDIR)/build-asan/gpucompile bash tests/cli_battery.sh > build-asan/cli_battery.log 2>&1; \
	grep -E "FAIL|SKIP|passed," build-asan/cli_battery.log; grep -q ", 0 failed" build-asan/cli_battery.log || fails=1; \
	echo "== tests/test_threads.c with ThreadSanitizer (clang)"; \
	$(CLANG) -std=c11 -O1 -g -fsanitize=thread $(LLVM_CFLAGS) -I. tests/impl.c tests/test_threads.c -o build-asan/tsan_threads $(LLVM_LIBS) \
	  && TSAN_OPTIONS=halt_on_error=1 build-asan/tsan_threads > build-asan/tsan_threads.log 2>&1 || fails=1; grep -E "WARNING|passed," build-asan/tsan_threads.log; \
	if grep -l -E "ERROR: (Address|Leak)Sanitizer|runtime error|ThreadSanitizer" build-asan/*.log; then fails=1; fi; \
	if [ $$fails = 0 ]; then echo "sanitize: ok"; else echo "sanitize: FAILED (logs in build-asan/)"; exit 1; fi

# make valgrind: a full compile per backend (bin where the toolkit allows, else isa) and two
# failing compiles, under valgrind: no definitely-lost bytes, no invalid access.
VALGRIND = valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --suppressions=tests/valgrind.supp
valgrind: all
	@mkdir -p $(BUILD)/vg
	@for tk in '#gpu.nvptx<chip = "sm_90">|examples/kernels/math_nvptx.ll' '#gpu.amdgpu<chip = "gfx90a">|examples/kernels/math_amdgpu.ll'; do \
	  t=$${tk%%|*}; k=$${tk#*|}; f=bin; \
	  $(BUILD)/gpucompile --no-cache -t "$$t" -f bin $$k -o $(BUILD)/vg/probe 2>/dev/null || f=isa; \
	  echo "valgrind: $$t, format $$f"; \
	  $(VALGRIND) $(BUILD)/gpucompile --no-cache -t "$$t" -f $$f $$k -o $(BUILD)/vg/out || exit 1; \
	done
	@echo 'declare i32 @llvm.amdgcn.workitem.id.x()' > $(BUILD)/vg/bad.ll
	@printf 'define ptx_kernel void @k() {\n  %%x = call i32 @llvm.amdgcn.workitem.id.x()\n  ret void\n}\n' >> $(BUILD)/vg/bad.ll
	@echo "valgrind: failing compiles (foreign intrinsic; ld.lld missing)"
	@$(VALGRIND) $(BUILD)/gpucompile --no-cache -f isa $(BUILD)/vg/bad.ll -o $(BUILD)/vg/out 2>/dev/null; test $$? = 1
	@$(VALGRIND) $(BUILD)/gpucompile --no-cache -t '#gpu.amdgpu' --tool ld.lld=/nonexistent -f bin examples/kernels/saxpy_amdgpu.ll -o $(BUILD)/vg/out 2>/dev/null; test $$? = 1
	@echo "valgrind: ok"

# make fuzz FUZZ_SECONDS=60: each libFuzzer target for FUZZ_SECONDS, from the committed inputs
# (new inputs go to build-fuzz/corpus/, crashes to build-fuzz/crash-*: add those to
# tests/fuzz/regressions/<target>/, which tests/test_fuzz.c replays in `make test`).
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
FUZZ_TARGETS = target binary_text offload object ir
FUZZ_FLAGS = -std=c11 -g -O1 -fno-omit-frame-pointer $(LLVM_CFLAGS) -I.
build-fuzz/impl.o: tests/impl.c $(HEADERS)
	@mkdir -p build-fuzz
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address -c tests/impl.c -o $@
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h tests/fuzz/driver.c build-fuzz/impl.o
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer,address -Itests/fuzz '-DFUZZ_FILE="fuzz_$*.c"' -DFUZZ_FN=fuzz_$* tests/fuzz/driver.c \
	  build-fuzz/impl.o -o $@ $(LLVM_LIBS)
fuzz: $(patsubst %,build-fuzz/fuzz_%,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do mkdir -p build-fuzz/corpus/$$t; echo "fuzz: $$t, $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp build-fuzz/fuzz_$$t -seed=$(FUZZ_SEED) -max_total_time=$(FUZZ_SECONDS) -timeout=30 \
	    -max_len=65536 -print_final_stats=1 -artifact_prefix=build-fuzz/crash-$$t- build-fuzz/corpus/$$t tests/fuzz/corpus/$$t \
	    > build-fuzz/$$t.log 2>&1 || { tail -60 build-fuzz/$$t.log; echo "fuzz: $$t FAILED"; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::new_units_added" build-fuzz/$$t.log | tr '\n' ' '; echo; done
	@echo "fuzz: ok"

# The fuzz targets' sources are part of the replay test.
$(BUILD)/tests/test_fuzz: $(wildcard tests/fuzz/*.c tests/fuzz/*.h)
