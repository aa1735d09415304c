#!/bin/sh
# The main job, end to end: real example kernels compiled for NVIDIA and AMD, then a look at
# what came out; then kernels that run here: SPIR-V through OpenCL and Vulkan compute shaders on
# the CPU. Run through `make demo` (which installs what is missing and builds first).
G=${GPUCOMPILE:-build/gpucompile}
OUT=${DEMO_OUT:-build/demo}
K=examples/kernels
mkdir -p "$OUT"
step() { printf '\n== %s\n' "$*"; }
run() { echo "\$ $*"; "$@" 2>&1 | grep -v ': note: '; }  # -v notes (tool command lines, logs) left out

step "targets: MLIR's syntax, defaults dropped, flags sorted"
run "$G" --print-target '#gpu.nvptx<O = 2, chip = "sm_90", flags = {ftz, fast}>'
run "$G" --print-target '#rocdl.target<chip = "gfx1100", abi = "500", flags = {wave64}>'

step "NVIDIA: saxpy, a libdevice math kernel and a shared-memory reduction for sm_80"
for k in saxpy math reduce; do
  run "$G" --no-cache -v -t '#gpu.nvptx<chip = "sm_80">' -f bin "$K/${k}_nvptx.ll" -o "$OUT/$k.cubin"
done
run "$G" -t '#gpu.nvptx<chip = "sm_80">' -f isa "$K/math_nvptx.ll" -o "$OUT/math.ptx"
echo "first instructions of math.ptx:"; grep -m 8 -E '^\s+(ex2|sin|sqrt|fma|mul|ld|st)' "$OUT/math.ptx"
run "$G" -t '#gpu.nvptx<chip = "sm_80">' -f fatbin "$K/saxpy_nvptx.ll" -o "$OUT/saxpy.fatbin"
command -v cuobjdump >/dev/null && run cuobjdump --list-elf --list-ptx "$OUT/saxpy.fatbin"

step "AMD: the same kernels for gfx90a (wave64) and gfx1100 (wave32)"
for chip in gfx90a gfx1100; do
  for k in saxpy math reduce; do
    run "$G" --no-cache -v -t "#gpu.amdgpu<chip = \"$chip\">" -f bin "$K/${k}_amdgpu.ll" -o "$OUT/$k-$chip.hsaco"
  done
done
command -v llvm-readelf >/dev/null && [ -f "$OUT/reduce-gfx1100.hsaco" ] &&
  llvm-readelf --notes "$OUT/reduce-gfx1100.hsaco" | grep -E '\.name:|\.wavefront_size|\.vgpr_count|amdhsa.target'

step "one binary for both vendors, in LLVM's offload format and MLIR's text"
run "$G" -t '#gpu.nvptx<chip = "sm_80">' -t '#gpu.nvptx<chip = "sm_90">' -f bin "$K/saxpy_nvptx.ll" \
  --name saxpy -o "$OUT/saxpy-nv.gpubin" --emit-text "$OUT/saxpy-nv.mlir"
run "$G" -t '#gpu.amdgpu<chip = "gfx90a">' -t '#gpu.amdgpu<chip = "gfx1100">' -f bin "$K/saxpy_amdgpu.ll" \
  --name saxpy -o "$OUT/saxpy-amd.gpubin"
run "$G" --merge "$OUT/saxpy-nv.gpubin" "$OUT/saxpy-amd.gpubin" -o "$OUT/saxpy.gpubin"
run "$G" --list "$OUT/saxpy.gpubin"
run "$G" --list "$OUT/saxpy.gpubin" --select sm_86
command -v clang-offload-packager >/dev/null && run llvm-objdump --offloading "$OUT/saxpy.gpubin" | grep -E 'arch|kind' | head -8

step "host code: the binary embedded, chosen at run time for the device, one launch function per kernel"
run "$G" --merge "$OUT/saxpy.gpubin" --handler runtime --host "$OUT/saxpy_host.ll"
grep -E '^define .*_launch' "$OUT/saxpy_host.ll"
step "a kernel that runs here: saxpy compiled to SPIR-V and run through OpenCL on the CPU (examples/06)"
if [ -x "${EX06:-build/examples/06_run_on_cpu}" ]; then
  OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$PWD/build-deps/opencl/vendors} "${EX06:-build/examples/06_run_on_cpu}"
  [ $? = 77 ] && echo "(no OpenCL device that takes SPIR-V here: make opencl installs Intel's CPU runtime)"
fi
step "Vulkan: saxpy and a workgroup reduction as compute shaders with their reflection, run on the first Vulkan device (lavapipe here) by a plain C engine (examples/08)"
mkdir -p "$OUT/vulkan"
for k in saxpy reduce; do
  run "$G" --no-cache -v -t '#gpu.vulkan' -f bin "$K/${k}_vulkan.ll" -o "$OUT/vulkan/$k.spv"
done
command -v spirv-val >/dev/null && for k in saxpy reduce; do
  spirv-val --target-env vulkan1.3 "$OUT/vulkan/$k.spv" && echo "spirv-val --target-env vulkan1.3 $k.spv: valid"
done
if [ -x "${EX08:-build/examples/08_vulkan_runtime}" ]; then
  "${EX08:-build/examples/08_vulkan_runtime}" "$OUT/vulkan"
  [ $? = 77 ] && echo "(no Vulkan device here: Debian's mesa-vulkan-drivers has lavapipe, which runs on the CPU)"
fi
step "an engine that owns its Vulkan device: a kernel compiled at load time, recorded into the engine's command buffer (examples/09)"
if [ -x "${EX09:-build/examples/09_vulkan_engine}" ]; then
  "${EX09:-build/examples/09_vulkan_engine}"
  [ $? = 77 ] && echo "(no Vulkan device, or no SPIR-V target in this LLVM: nothing run)"
fi
step "WebGPU: saxpy compiled for #gpu.webgpu and run through webgpu.h on wgpu-native and on Dawn, each on its first adapter (examples/10)"
W=${WEBGPU_DIR:-$PWD/build-deps/webgpu}
for lib in "$W/wgpu/resources/libwgpu_native-release.so" "$W/pydawn/lib/libwebgpu_dawn_x86_64.so"; do
  if [ ! -f "$lib" ] || [ ! -x "${EX10:-build/examples/10_webgpu}" ]; then
    echo "(not here: $lib; make webgpu-deps installs PyPI's wgpu and dawn-python)"
    continue
  fi
  echo "$ GPUCOMPILE_LIBWEBGPU=$lib ${EX10:-build/examples/10_webgpu}"
  mkdir -p "$OUT/xdg" && chmod 700 "$OUT/xdg"  # the WebGPU libraries ask for one (absolute), as a desktop session has
  XDG_RUNTIME_DIR="$(cd "$OUT/xdg" && pwd)" GPUCOMPILE_LIBWEBGPU="$lib" "${EX10:-build/examples/10_webgpu}"
  [ $? = 77 ] && echo "(no WebGPU adapter here)"
done
echo
echo "outputs are in $OUT"
