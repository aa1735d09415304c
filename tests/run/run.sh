#!/bin/sh
# make test-run: kernels with known answers through the whole chain. OpenCL C (clang for
# spirv64) and LLVM IR -> gpucompile -> binaries (saxpy: SPIR-V, NVPTX and AMDGPU objects) ->
# --host with run-time selection -> clang -> linked with gpucompile_spirv.h's OpenCL runtime
# -> run on the first OpenCL device that takes SPIR-V (tests/run/run.c checks the answers).
# Usage: run.sh BUILD (the build directory: gpucompile, impl.o). Skips with one line where the
# LLVM has no SPIR-V target or no OpenCL device takes SPIR-V.
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
D=$T_TMP
G=$GPUCOMPILE
if [ -n "$GPUCOMPILE_OPENCL" ] && [ -f "$GPUCOMPILE_OPENCL/vendors/intel-cpu.icd" ]; then # make's Intel CPU runtime
  OCL_ICD_VENDORS=$GPUCOMPILE_OPENCL/vendors; LD_LIBRARY_PATH=$GPUCOMPILE_OPENCL/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export OCL_ICD_VENDORS LD_LIBRARY_PATH
fi
if ! "$G" --print-target '#gpu.spirv' >/dev/null 2>"$D/err"; then
  skip "run: $(sed 's/^gpucompile: error: //' "$D/err" | head -1)"; tally run; exit 0
fi
CLANG=clang-$T_LLVM_MAJOR
command -v "$CLANG" >/dev/null || CLANG=clang
CL="-x cl -cl-std=CL3.0 --target=spirv64 -Xclang -finclude-default-header -Xclang -disable-O0-optnone -O0 -emit-llvm -S"
step() { # NAME COMMAND...: a build step; its failure fails the suite, with its output
  n=$1; shift
  if "$@" >"$D/out" 2>&1; then ok "$n"; else fail "$n"; sed 's/^/  /' "$D/out" | head -20; tally run; exit 1; fi
}
step "clang: OpenCL C for spirv64" $CLANG $CL tests/run/kernels.cl -o "$D/kernels.ll"
step "the bitcode library" llvm-as tests/data/mylib.ll -o "$D/mylib.bc"
cp tests/run/saxpy_spirv.ll "$D/saxpy.ll"
# saxpy: three objects, the SPIR-V one picked at run time
step "saxpy: SPIR-V" "$G" -t '#gpu.spirv' -f bin tests/run/saxpy_spirv.ll --emit-text "$D/s1.mlir" --name sx -o "$D/sx.spv"
step "saxpy: NVPTX" "$G" -t '#nvvm.target<chip = "sm_80">' -f isa examples/kernels/saxpy_nvptx.ll --emit-text "$D/s2.mlir" --name sx
step "saxpy: AMDGPU" "$G" -t '#rocdl.target<chip = "gfx90a">' -f bin examples/kernels/saxpy_amdgpu.ll --emit-text "$D/s3.mlir" --name sx
step "saxpy: one binary, run-time selection, host module" \
  "$G" --merge "$D/s1.mlir" "$D/s2.mlir" "$D/s3.mlir" -o "$D/sx.gpubin" --handler runtime --host "$D/sx.ll" --name sx
step "OpenCL C kernels with -l: SPIR-V, host module" \
  "$G" -t '#xevm.target' -f bin "$D/kernels.ll" -l "$D/mylib.bc" -o "$D/k.spv" --handler runtime --host "$D/k.ll" --name k
check "spirv-val: saxpy" spirv-val "$D/sx.spv"
check "spirv-val: OpenCL C kernels" spirv-val "$D/k.spv"
check "the binary holds SPIR-V (SYCL's offload kind), NVPTX and AMDGPU" sh -c \
  "llvm-objdump --offloading '$D/sx.gpubin' > '$D/off' 2>&1 && grep -q spirv64 '$D/off' && grep -q sycl '$D/off' && grep -q nvptx64 '$D/off' && grep -q amdgcn '$D/off'"
check "--select spirv picks the SPIR-V object" sh -c "'$G' --list '$D/sx.gpubin' --select spirv | grep -q 'device spirv: \[0\] #xevm.target'"
step "host modules: clang" sh -c "$CLANG -c -O1 '$D/sx.ll' -o '$D/sx.o' && $CLANG -c -O1 '$D/k.ll' -o '$D/k.o'"
LLVM_CFLAGS=$(llvm-config-$T_LLVM_MAJOR --cflags | tr '\n' ' ')
LLVM_LIBS=$(llvm-config-$T_LLVM_MAJOR --ldflags --libs | tr '\n' ' ')
step "link with the OpenCL runtime" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g $LLVM_CFLAGS -I. \
  tests/run/run.c '$D/sx.o' '$D/k.o' $BUILD/impl.o -Wl,--wrap=gpucompile_runtime_load_offload_binary -o '$D/run' $LLVM_LIBS -lm -ldl -lpthread"
printf '#define GPUCOMPILE_SPIRV_RUNTIME\n#include "gpucompile_spirv.h"\nint main(void) { return !gpucompile_runtime_available(); }\n' > "$D/alone.c"
check "the OpenCL runtime alone: plain cc, no LLVM, C and C++" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -I. '$D/alone.c' -o '$D/alone' -ldl -lpthread && \
  c++ -std=c++17 -x c++ -Wall -Wextra -pedantic -Werror -I. -c '$D/alone.c' -o '$D/alone_cxx.o'"
tally run-build
[ -n "$RUN_KEEP" ] && cp -r "$D" "$RUN_KEEP" && exit 0
"$D/run" "$D"
