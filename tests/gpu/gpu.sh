#!/bin/sh
# make gpu-check: tests/run's kernels with known answers on NVIDIA and AMD GPUs. CUDA/HIP
# (tests/gpu/kernels.cu, clang for nvptx64 and amdgcn) and LLVM IR -> gpucompile -> binaries (saxpy;
# the kernels) each holding NVPTX (cubin and PTX) and AMDGPU objects -> --host, run-time selection ->
# clang -> tests/run/run.c linked with our CUDA-driver runtime and, apart, with our HIP runtime ->
# run on the first GPU of each vendor; and tests/run/vulkan.sh's Vulkan rows on the first Vulkan
# device that is not a CPU. Where a vendor has no GPU its program skips with one line.
# Usage: gpu.sh BUILD [build] (build: build and link only, as make test does).
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
D=$T_TMP
G=$GPUCOMPILE
CLANG=clang-$T_LLVM_MAJOR
command -v "$CLANG" >/dev/null || CLANG=clang
# Chips: sm_90 cubins (Hopper) with sm_80 PTX that the driver compiles for any later chip;
# AMD code objects for the CDNA 2 and 3 data-centre GPUs.
NV_CUBIN=sm_90 NV_PTX=sm_80 AMD_CHIPS="gfx90a gfx942"
step() { # NAME COMMAND...: a build step; its failure fails the suite, with its output
  n=$1; shift
  if "$@" >"$D/out" 2>&1; then ok "$n"; else fail "$n"; sed 's/^/  /' "$D/out" | head -20; tally gpu-check; exit 1; fi
}
DEV="--cuda-device-only -nocudainc -nocudalib -nogpuinc -O1 -Xclang -disable-llvm-passes -emit-llvm -S -Wall -Werror -Wno-unknown-cuda-version"
step "clang: CUDA for nvptx64" $CLANG -x cuda $DEV --cuda-gpu-arch=$NV_PTX tests/gpu/kernels.cu -o "$D/kernels_nvptx.ll"
step "clang: HIP for amdgcn" $CLANG -x hip $DEV -nogpulib --offload-arch=gfx90a tests/gpu/kernels.cu -o "$D/kernels_amdgpu.ll"
step "the bitcode library" llvm-as tests/data/mylib.ll -o "$D/mylib.bc"
objects() { # NAME FILE_NVPTX FILE_AMDGPU [-l LIB]: NAME's objects, their texts in $D/NAME_*.mlir
  o=$1 nv=$2 amd=$3; shift 3
  "$G" -t "#nvvm.target<chip = \"$NV_CUBIN\">" -f bin "$nv" "$@" --emit-text "$D/${o}_cubin.mlir" --name "$o" -o "$D/$o.cubin" &&
  "$G" -t "#nvvm.target<chip = \"$NV_PTX\">" -f isa "$nv" "$@" --emit-text "$D/${o}_ptx.mlir" --name "$o" -o "$D/$o.ptx" || return 1
  for c in $AMD_CHIPS; do
    "$G" -t "#rocdl.target<chip = \"$c\">" -f bin "$amd" "$@" --emit-text "$D/${o}_$c.mlir" --name "$o" -o "$D/$o.$c.hsaco" || return 1
  done
  "$G" --merge "$D/${o}"_*.mlir -o "$D/$o.gpubin" --handler runtime --host "$D/$o.ll" --name "$o"
}
step "saxpy: cubin, PTX, AMDGPU objects, one binary, host module" objects sx examples/kernels/saxpy_nvptx.ll examples/kernels/saxpy_amdgpu.ll
step "kernels with -l: cubin, PTX, AMDGPU objects, one binary, host module" objects k "$D/kernels_nvptx.ll" "$D/kernels_amdgpu.ll" -l "$D/mylib.bc"
if [ -n "$HAVE_CUDA" ]; then check "ptxas takes the PTX for sm_90" "$T_CUDA/bin/ptxas" -arch=sm_90 "$D/k.ptx" -o "$D/k.ptxas.cubin"
else skip "ptxas: not found under $T_CUDA"; fi
check "the binaries hold NVPTX (cubin and PTX) and AMDGPU objects for every chip" sh -c "for b in sx k; do
  llvm-objdump --offloading '$D/'\$b.gpubin > '$D/off' 2>&1 && grep -q nvptx64 '$D/off' && grep -q gfx90a '$D/off' && grep -q gfx942 '$D/off' || exit 1
  '$G' --list '$D/'\$b.gpubin > '$D/list' 2>&1 && grep -q '$NV_CUBIN' '$D/list' && grep -q '$NV_PTX' '$D/list' || exit 1; done"
step "host modules: clang" sh -c "$CLANG -c -O1 '$D/sx.ll' -o '$D/sx.o' && $CLANG -c -O1 '$D/k.ll' -o '$D/k.o'"
LLVM_CFLAGS=$(llvm-config-$T_LLVM_MAJOR --cflags | tr '\n' ' ')
LLVM_LIBS=$(llvm-config-$T_LLVM_MAJOR --ldflags --libs | tr '\n' ' ')
for v in nvptx amdgpu; do
  step "link tests/run/run.c with the $v runtime" sh -c "cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g -DRUN_$(echo $v | tr a-z A-Z) $LLVM_CFLAGS -I. \
    tests/run/run.c '$D/sx.o' '$D/k.o' $BUILD/impl.o -Wl,--wrap=gpucompile_runtime_load_offload_binary -o '$D/run_$v' $LLVM_LIBS -lm -ldl -lpthread"
done
# Vulkan: tests/run/vulkan.sh's rows (its kernels, the mgpu* host program, the engine programs) on
# the first Vulkan device that is not a CPU: the loader is shown every installed driver but
# lavapipe's and SwiftShader's (VK_ICD_FILENAMES), so the runtime's first device is a GPU's.
# GPU_CHECK_VULKAN_ICDS (colon-separated driver files) overrides that list.
VK_ICDS=${GPU_CHECK_VULKAN_ICDS:-$(ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json /usr/local/share/vulkan/icd.d/*.json 2>/dev/null |
  grep -v -e lvp_icd -e swiftshader | tr '\n' ':' | sed 's/:$//')}
printf '%s\n' '#define GPUCOMPILE_VULKAN_RUNTIME' '#include "gpucompile_vulkan.h"' '#include <stdio.h>' \
  'static void quiet(const char *c, int r, const char *m, void *u) { (void)c; (void)r; (void)m; (void)u; }' \
  'int main(void) { /* the name of the Vulkan device the runtime starts on; exit 1: none */' \
  '    gpucompile_vulkan_runtime_info i;' '    gpucompile_runtime_set_error_callback(quiet, NULL);' \
  '    if (!gpucompile_vulkan_runtime_info_get(&i)) return 1;' '    printf("%s\n", i.device_name);' '    return 0;' '}' > "$D/vk_probe.c"
step "the Vulkan device probe: the Vulkan runtime alone, plain cc" cc -std=c11 -Wall -Wextra -pedantic -Werror -I. "$D/vk_probe.c" -o "$D/vk_probe" -ldl -lpthread
[ "$2" = build ] && { tally gpu-build; exit 0; }
for v in nvptx amdgpu; do # run.c's inputs for the API path
  mkdir -p "$D/$v" && cp examples/kernels/saxpy_$v.ll "$D/$v/saxpy.ll" && cp "$D/kernels_$v.ll" "$D/$v/kernels.ll" && cp "$D/mylib.bc" "$D/$v/"
done
tally gpu-build > "$D/tallies"
for v in nvptx amdgpu; do
  "$D/run_$v" "$D/$v" > "$D/run.out" 2>&1
  rc=$?
  cat "$D/run.out"
  grep -qE '^gpu-[a-z]+: [0-9]+ passed' "$D/run.out" || echo "gpu-$v: 0 passed, 1 failed, 0 skipped (it ended with status $rc and no closing line)"
done | tee -a "$D/tallies" | grep -v '^gpu-[a-z]*: [0-9]* passed'
vk_name=
[ -n "$VK_ICDS" ] && vk_name=$(VK_ICD_FILENAMES=$VK_ICDS VK_DRIVER_FILES=$VK_ICDS GPUCOMPILE_VULKAN_PIPELINE_CACHE=off "$D/vk_probe" 2>/dev/null)
if [ -z "$vk_name" ]; then
  echo "SKIP gpu-vulkan: no Vulkan device but the CPU's (lavapipe): no other installed Vulkan driver finds a device${VK_ICDS:+ ($VK_ICDS)}"
  echo "gpu-vulkan: 0 passed, 0 failed, 1 skipped" >> "$D/tallies"
else
  echo "== Vulkan: tests/run/vulkan.sh on $vk_name"
  T_PASS=0; T_FAIL=0; T_SKIP=0
  VK_ICD_FILENAMES=$VK_ICDS VK_DRIVER_FILES=$VK_ICDS bash tests/run/vulkan.sh "$BUILD" > "$D/vk.out" 2>&1; rc=$?
  sed -E 's/^(run-vulkan|engine-vulkan)/gpu-\1/' "$D/vk.out" | tee -a "$D/tallies" | grep -v '^gpu-[a-z-]*: [0-9]* passed'
  check "the Vulkan rows ran on $vk_name, not on lavapipe" sh -c "[ $rc = 0 ] && ! grep -q llvmpipe '$D/vk.out'"
  tally gpu-vulkan >> "$D/tallies"
fi
awk '/^gpu-[a-z-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4; s += $6 }
     END { printf "gpu-check: %d passed, %d failed, %d skipped\n", p, f, s; exit f > 0 }' "$D/tallies"
