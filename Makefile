# gpucompile: `make` builds build/gpucompile; `make demo` and `make test` also set up a fresh
# Debian 12 machine (they install the Debian packages below when missing).
LLVM_CONFIG ?= llvm-config-19
CC ?= cc
CXX ?= c++
CLANG ?= clang-19
BUILD ?= build
WARN = -Wall -Wextra -pedantic
CFLAGS ?= -O2 -g
DEBS = llvm-19-dev lld-19 clang-19 mlir-19-tools rocm-device-libs

LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs 2>/dev/null) -ldl -lpthread
HEADERS = gpucompile.h gpucompile_nvptx.h gpucompile_amdgpu.h
TEST_SRCS = $(sort $(wildcard tests/test_*.c))
TEST_BINS = $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

.PHONY: all setup demo test check-headers examples clean
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
	$(CLANG)++ -std=c++17 -x c++ $(WARN) -Werror $(LLVM_CFLAGS) -I. -c tests/impl.c -o $(BUILD)/hdr/impl_clangxx.o
	@echo "headers: gcc and clang, C11 and C++17, static, split: ok"

demo: setup all
	@sh examples/demo.sh

test: setup all $(TEST_BINS) check-headers
	@sh tests/run.sh $(BUILD)

clean:
	rm -rf $(BUILD)
