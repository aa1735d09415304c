# gpucompile: `make` builds build/gpucompile; `make demo` and `make test` also set up a fresh
# Debian 12 machine (they install the Debian packages below when missing).
LLVM_CONFIG ?= llvm-config-19
CC ?= cc
CXX ?= c++
CLANG ?= clang-19
CLANGXX ?= clang++-19
BUILD ?= build
WARN = -Wall -Wextra -pedantic
CFLAGS ?= -O2 -g
DEBS = llvm-19-dev lld-19 clang-19 mlir-19-tools rocm-device-libs

LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null) -ldl -lpthread
HEADERS = gpucompile.h gpucompile_nvptx.h gpucompile_amdgpu.h
TEST_SRCS = $(sort $(wildcard tests/test_*.c))
TEST_BINS = $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

.PHONY: all setup demo test check-headers examples windows cmake-example clean
all: $(BUILD)/gpucompile

# Installs what is missing (root on a fresh Debian machine; sudo otherwise).
setup:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

$(BUILD)/gpucompile: tools/gpucompile.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $(LLVM_CFLAGS) -I. tools/gpucompile.c -o $@ $(LLVM_LIBS)

# The implementation in its own translation unit; tests use the headers only.
$(BUILD)/impl.o: tests/impl.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. -c tests/impl.c -o $@

$(BUILD)/tests/%: tests/%.c tests/test.h $(BUILD)/impl.o
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. $< $(BUILD)/impl.o -o $@ $(LLVM_LIBS)

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
	@echo "headers: gcc and clang, C11 and C++17, static, split: ok"

# Examples: numbered single files, each with the implementation in it (its one `cc` line).
EXAMPLE_BINS = $(patsubst examples/%.c,$(BUILD)/examples/%,$(sort $(wildcard examples/[0-9][0-9]_*.c)))
examples: $(EXAMPLE_BINS)
$(BUILD)/examples/%: examples/%.c $(HEADERS)
	@mkdir -p $(BUILD)/examples
	$(CC) -std=c11 $(WARN) -Werror $(CFLAGS) $(LLVM_CFLAGS) -I. $< -o $@ $(LLVM_LIBS)

# The Windows code paths compile (objects only; nothing runs): Debian's mingw-w64 cross
# compilers with LLVM's C headers, which need nothing but <windows.h> there.
MINGW ?= x86_64-w64-mingw32-
MINGW_FLAGS = $(WARN) -Werror -I$(shell $(LLVM_CONFIG) --includedir 2>/dev/null) -I.
windows: $(HEADERS)
	@mkdir -p $(BUILD)/windows
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -c tests/impl.c -o $(BUILD)/windows/impl_c.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -DGPUCOMPILE_STATIC -c tests/impl.c -o $(BUILD)/windows/impl_static.o
	$(MINGW)g++ -std=c++17 -x c++ $(MINGW_FLAGS) -c tests/impl.c -o $(BUILD)/windows/impl_cxx.o
	$(MINGW)gcc -std=c11 $(MINGW_FLAGS) -c tools/gpucompile.c -o $(BUILD)/windows/gpucompile.o
	@echo "windows: mingw-w64 gcc and g++, C11, C++17, static, CLI: ok"

# examples/cmake: the headers vendored into a CMake project with find_package(LLVM).
cmake-example: $(HEADERS)
	cmake -S examples/cmake -B $(BUILD)/cmake -DLLVM_DIR=$$($(LLVM_CONFIG) --cmakedir) >/dev/null
	cmake --build $(BUILD)/cmake

demo: setup all
	@sh examples/demo.sh

test: setup all $(TEST_BINS) check-headers
	@sh tests/run.sh $(BUILD)

clean:
	rm -rf $(BUILD)
