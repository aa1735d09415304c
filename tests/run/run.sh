#!/bin/sh
# make test-run: kernels with known answers through the whole chain. OpenCL C (clang for
# spirv64) and LLVM IR -> gpucompile -> binaries (saxpy: SPIR-V, Vulkan, NVPTX and AMDGPU
# objects; the OpenCL C kernels: SPIR-V and Vulkan; the image kernels: SPIR-V) -> --host with
# run-time selection (the image kernels: without) -> clang
# -> linked with gpucompile_spirv.h's OpenCL runtime -> run on the first OpenCL device that
# takes SPIR-V; and the same host modules linked with gpucompile_vulkan.h's runtime -> run on the
# first Vulkan device (lavapipe here): one binary, one launch code, the same expected answers
# (tests/run/run.c checks them; -DRUN_VULKAN).
# Usage: run.sh BUILD (the build directory: gpucompile, impl.o). Skips with one line where the
# LLVM has no SPIR-V target or no OpenCL device takes SPIR-V.
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
D=$T_TMP
G=$GPUCOMPILE
t_opencl_here
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
step "clang: the image kernels for spirv64" $CLANG $CL tests/run/images.cl -o "$D/images.ll"
step "the bitcode library" llvm-as tests/data/mylib.ll -o "$D/mylib.bc"
cp tests/run/saxpy_spirv.ll "$D/saxpy.ll"
# saxpy: three objects, the SPIR-V one picked at run time
step "saxpy: SPIR-V" "$G" -t '#gpu.spirv' -f bin tests/run/saxpy_spirv.ll --emit-text "$D/s1.mlir" --name sx -o "$D/sx.spv"
step "saxpy: NVPTX" "$G" -t '#nvvm.target<chip = "sm_80">' -f isa examples/kernels/saxpy_nvptx.ll --emit-text "$D/s2.mlir" --name sx
step "saxpy: AMDGPU" "$G" -t '#rocdl.target<chip = "gfx90a">' -f bin examples/kernels/saxpy_amdgpu.ll --emit-text "$D/s3.mlir" --name sx
# the same OpenCL kernel for Vulkan: pointer kernels rewritten by the Vulkan backend
step "saxpy: Vulkan" "$G" -t '#gpu.vulkan' -f bin tests/run/saxpy_spirv.ll -o "$D/sxv.spv" --emit-text "$D/s4.mlir" --name sx
step "saxpy: one binary, run-time selection, host module" \
  "$G" --merge "$D/s1.mlir" "$D/s2.mlir" "$D/s3.mlir" "$D/s4.mlir" -o "$D/sx.gpubin" --handler runtime --host "$D/sx.ll" --name sx
step "OpenCL C kernels with -l: SPIR-V" \
  "$G" -t '#xevm.target' -f bin "$D/kernels.ll" -l "$D/mylib.bc" -o "$D/k.spv" --emit-text "$D/k1.mlir" --name k
# the kernels without reqd_work_group_size (grid, launched with 4x2 blocks) take the launch's
# workgroup size, as on OpenCL: the same launch code
step "OpenCL C kernels with -l: Vulkan" \
  "$G" -t '#gpu.vulkan' -f bin "$D/kernels.ll" -l "$D/mylib.bc" -o "$D/kv.spv" --emit-text "$D/k2.mlir" --name k
step "OpenCL C kernels: one binary (SPIR-V and Vulkan), run-time selection, host module" \
  "$G" --merge "$D/k1.mlir" "$D/k2.mlir" -o "$D/k.gpubin" --handler runtime --host "$D/k.ll" --name k
check "spirv-val: saxpy" spirv-val "$D/sx.spv"
check "spirv-val: OpenCL C kernels" spirv-val "$D/k.spv"
step "the image kernels: SPIR-V, host module" "$G" -t '#gpu.spirv' -f bin "$D/images.ll" -o "$D/images.spv" --host "$D/img.ll" --name img
check "spirv-val: the image kernels" spirv-val "$D/images.spv"
check "spirv-val --target-env vulkan1.3: saxpy and the OpenCL C kernels for Vulkan" sh -c \
  "spirv-val --target-env vulkan1.3 '$D/sxv.spv' && spirv-val --target-env vulkan1.3 '$D/kv.spv'"
check "--select vulkan picks the Vulkan object of both binaries" sh -c \
  "'$G' --list '$D/sx.gpubin' --select vulkan | grep -q 'device vulkan: \[3\]' && '$G' --list '$D/k.gpubin' --select vulkan | grep -q 'device vulkan: \[1\]'"
check "the binary holds SPIR-V (SYCL's offload kind), NVPTX and AMDGPU" sh -c \
  "llvm-objdump --offloading '$D/sx.gpubin' > '$D/off' 2>&1 && grep -q spirv64 '$D/off' && grep -q sycl '$D/off' && grep -q nvptx64 '$D/off' && grep -q amdgcn '$D/off'"
check "--select spirv picks the SPIR-V object" sh -c "'$G' --list '$D/sx.gpubin' --select spirv | grep -q 'device spirv: \[0\] #xevm.target'"
step "host modules: clang" sh -c "$CLANG -c -O1 '$D/sx.ll' -o '$D/sx.o' && $CLANG -c -O1 '$D/k.ll' -o '$D/k.o' && $CLANG -c -O1 '$D/img.ll' -o '$D/img.o'"
LLVM_CFLAGS=$(llvm-config-$T_LLVM_MAJOR --cflags | tr '\n' ' ')
LLVM_LIBS=$(llvm-config-$T_LLVM_MAJOR --ldflags --libs | tr '\n' ' ')
step "link with the OpenCL runtime" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g $LLVM_CFLAGS -I. \
  tests/run/run.c '$D/sx.o' '$D/k.o' '$D/img.o' $BUILD/impl.o -Wl,--wrap=gpucompile_runtime_load_offload_binary -o '$D/run' $LLVM_LIBS -lm -ldl -lpthread"
printf '#define GPUCOMPILE_SPIRV_RUNTIME\n#include "gpucompile_spirv.h"\nint main(void) { return !gpucompile_runtime_available(); }\n' > "$D/alone.c"
check "the OpenCL runtime alone: plain cc, no LLVM, C and C++" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -I. '$D/alone.c' -o '$D/alone' -ldl -lpthread && \
  c++ -std=c++17 -x c++ -Wall -Wextra -pedantic -Werror -I. -c '$D/alone.c' -o '$D/alone_cxx.o'"
step "link with the Vulkan runtime (the same host modules)" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g -DRUN_VULKAN $LLVM_CFLAGS -I. \
  tests/run/run.c '$D/sx.o' '$D/k.o' $BUILD/impl.o -Wl,--wrap=gpucompile_runtime_load_offload_binary -o '$D/run_vulkan' $LLVM_LIBS -lm -ldl -lpthread"
tally run-build
[ -n "$RUN_KEEP" ] && cp -r "$D" "$RUN_KEEP" && exit 0
"$D/run" "$D"; rc=$?
# the same binaries and launch code on the first Vulkan device (the program skips without one),
# with the Khronos validation layer where it is installed: no message of it allowed
V=0
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] && V=1
MESA_SHADER_CACHE_DIR="$D/mesa" GPUCOMPILE_VULKAN_PIPELINE_CACHE=off GPUCOMPILE_VULKAN_VALIDATION=$V "$D/run_vulkan" "$D" > "$D/vk.log" 2>&1 || rc=1
cat "$D/vk.log"
if grep -q "vkDebugUtilsMessengerEXT" "$D/vk.log"; then
  echo "run-vulkan-validation: 0 passed, 1 failed, 0 skipped (the validation layer reported the messages above)"; rc=1
fi
exit $rc
