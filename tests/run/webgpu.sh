#!/bin/sh
# make test-run, the WebGPU rows: tests/run/webgpu/kernels.cl (OpenCL C, clang -target spirv32)
# and Vulkan-shaped LLVM IR (examples/kernels/*_vulkan.ll, tests/run/vulkan/two_entries.ll)
# compiled for #gpu.webgpu by gpucompile -> spirv-val (SPIR-V 1.3, what Dawn's reader takes) ->
# launched through the mgpu* ABI by tests/run/webgpu/run_webgpu.c, built with gpucompile_webgpu.h's
# runtime alone (plain cc, no LLVM, no webgpu.h) -> run on wgpu-native and on Dawn (PyPI's wgpu and
# dawn-python wheels, installed into build-deps/webgpu by make test-run), each on the first adapter
# (lavapipe here), with the same answers; and a binary holding every backend's object (CUDA, HIP,
# OpenCL, Vulkan, WebGPU), from which each runtime's selection takes its own.
# Usage: webgpu.sh BUILD. Skips with one line where a tool, a wheel or the adapter is missing.
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
D=$T_TMP
W_DIR=${GPUCOMPILE_WEBGPU_DEPS:-$(pwd)/build-deps/webgpu} # absolute: the programs run from elsewhere
WGPU=$W_DIR/wgpu/resources/libwgpu_native-release.so
DAWN=$W_DIR/pydawn/lib/libwebgpu_dawn_x86_64.so
for tool in clang spirv-val cc; do
  command -v "$tool" >/dev/null 2>&1 || { skip "run-webgpu: no $tool (Debian: clang of the LLVM in use, spirv-tools)"; tally run-webgpu; exit 0; }
done
if ! [ -x "${GPUCOMPILE:-}" ] || ! "$GPUCOMPILE" --print-target '#gpu.webgpu' >/dev/null 2>&1; then
  skip "run-webgpu: no gpucompile with the WebGPU target (GPUCOMPILE=${GPUCOMPILE:-unset}; LLVM 22's SPIR-V code generator)"; tally run-webgpu; exit 0
fi
step() { # NAME COMMAND...: a build step; its failure fails the suite, with its output
  n=$1; shift
  if "$@" >"$D/out" 2>&1; then ok "$n"; else fail "$n"; sed 's/^/  /' "$D/out" | head -20; tally run-webgpu; exit 1; fi
}
G="$GPUCOMPILE --no-cache"
step "clang: tests/run/webgpu/kernels.cl for spirv32" clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S tests/run/webgpu/kernels.cl -o "$D/kernels.ll"
step "gpucompile: the OpenCL C kernels for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin "$D/kernels.ll" -o "$D/kernels.spv"
step "clang, gpucompile: tests/run/webgpu/cas.cl (a compare-exchange's old value) for #gpu.webgpu" sh -c \
  "clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S tests/run/webgpu/cas.cl -o '$D/cas.ll' && $G -t '#gpu.webgpu' -f bin '$D/cas.ll' -o '$D/cas.spv'"
step "gpucompile: saxpy_vulkan.ll for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin examples/kernels/saxpy_vulkan.ll -o "$D/saxpy.spv"
step "gpucompile: reduce_vulkan.ll for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin examples/kernels/reduce_vulkan.ll -o "$D/reduce.spv"
step "gpucompile: two_entries.ll for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin tests/run/vulkan/two_entries.ll -o "$D/two_entries.spv"
for k in kernels cas saxpy reduce two_entries; do
  check "spirv-val --target-env vulkan1.1 (SPIR-V 1.3): $k" spirv-val --target-env vulkan1.1 "$D/$k.spv"
done
# every backend's object in one binary: saxpy for OpenCL, Vulkan and WebGPU (OpenCL C), CUDA and HIP (LLVM IR)
printf 'kernel __attribute__((reqd_work_group_size(64, 1, 1))) void saxpy(float a, global const float *x, global float *y, int n) {\n  size_t i = get_global_id(0);\n  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n}\n' > "$D/sx.cl"
step "the binary of every backend's object" sh -c "clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S '$D/sx.cl' -o '$D/sx32.ll' && \
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S '$D/sx.cl' -o '$D/sx64.ll' && \
  $G -t '#gpu.webgpu' -t '#gpu.vulkan' '$D/sx32.ll' -o '$D/a.gpubin' && $G -t '#gpu.spirv' '$D/sx64.ll' -t '#gpu.vulkan' -o '$D/b.gpubin' && \
  $G -f isa -t '#gpu.nvptx<chip = \"sm_80\">' -t '#gpu.nvptx<chip = \"sm_90\">' examples/kernels/saxpy_nvptx.ll -o '$D/c.gpubin' && \
  $G -f isa -t '#gpu.amdgpu<chip = \"gfx90a\">' -t '#gpu.amdgpu<chip = \"gfx1100\">' examples/kernels/saxpy_amdgpu.ll -o '$D/d.gpubin' && \
  $G --merge '$D/c.gpubin' '$D/d.gpubin' '$D/b.gpubin' '$D/a.gpubin' -o '$D/all.bin' --handler runtime --host '$D/all_host.ll' --name sx"
for dev in webgpu:gpu.webgpu vulkan:gpu.vulkan; do
  check "gpucompile --list --select ${dev%%:*}: the #${dev#*:} object" sh -c "$GPUCOMPILE --list '$D/all.bin' --select ${dev%%:*} | grep -q '^device ${dev%%:*}: \[[0-9]*\] #${dev#*:} bin'"
done
W="-Wall -Wextra -pedantic -Werror"
step "the host program with the WebGPU runtime alone: plain cc, no LLVM, no webgpu.h" \
  cc -std=c11 $W -O1 -g -I. tests/run/webgpu/run_webgpu.c -o "$D/run_webgpu" -ldl -lpthread -lm
step "the same as C++17" c++ -std=c++17 -x c++ $W -I. -c tests/run/webgpu/run_webgpu.c -o "$D/run_webgpu_cxx.o"
step "the --host launch code (run-time selection) with the WebGPU runtime alone" sh -c \
  "clang -c -O1 '$D/all_host.ll' -o '$D/all_host.o' && cc -std=c11 $W -I. tests/run/webgpu/host_webgpu.c '$D/all_host.o' -o '$D/host_webgpu' -ldl -lpthread"
step "examples/10_webgpu.c with its one cc line" sh -c "cc -std=c11 $W examples/10_webgpu.c -I. \$(llvm-config --cflags --ldflags --libs) -ldl -lpthread -o '$D/ex10'"
step "the same launch code with the Vulkan runtime" cc -std=c11 $W -DRUN_VULKAN -I. tests/run/webgpu/host_webgpu.c "$D/all_host.o" -o "$D/host_vulkan" -ldl -lpthread
tally run-webgpu-build
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
# Mesa's lavapipe asks for a Wayland/X runtime directory it does not need: one of our own, quiet
mkdir -p "$D/xdg" && chmod 700 "$D/xdg"
for impl in wgpu-native:$WGPU Dawn:$DAWN; do
  name=${impl%%:*}; lib=${impl#*:}
  if [ ! -f "$lib" ]; then
    echo "SKIP run-webgpu-$name: $lib is not there (make test-run installs PyPI's wgpu and dawn-python into $W_DIR; see build-deps/pip-webgpu.log)"
    continue
  fi
  echo "== $name ($lib)"
  XDG_RUNTIME_DIR="$D/xdg" GPUCOMPILE_LIBWEBGPU="$lib" timeout 300 "$D/run_webgpu" "$D" > "$D/$name.log" 2>&1; rc=$?
  sed "s/^run-webgpu:/run-webgpu-$name:/" "$D/$name.log"
  if grep -q "^SKIP run-webgpu" "$D/$name.log"; then
    # the library is there: only a missing adapter (no device) may skip, never a library not used
    if grep -q "cannot open the WebGPU library\|the WebGPU library has no" "$D/$name.log"; then
      echo "FAIL run-webgpu-$name: $lib is there, and the runtime could not use it"; FAILED=${FAILED}1
    fi
    continue
  fi
  if [ $rc != 0 ] || ! grep -q "^run-webgpu: [0-9]* passed, 0 failed" "$D/$name.log"; then FAILED=${FAILED}1; fi
  grep -q "^$name " "$D/$name.log" || { echo "FAIL run-webgpu-$name: the runtime did not open $name"; FAILED=${FAILED}1; }
  XDG_RUNTIME_DIR="$D/xdg" GPUCOMPILE_LIBWEBGPU="$lib" timeout 300 "$D/host_webgpu" > "$D/$name-host.log" 2>&1; hrc=$?
  sed "s/^run-webgpu-host:/run-webgpu-host-$name:/" "$D/$name-host.log"
  XDG_RUNTIME_DIR="$D/xdg" GPUCOMPILE_LIBWEBGPU="$lib" timeout 300 "$D/ex10" > "$D/$name-ex10.log" 2>&1; rc=$?
  if [ $rc = 0 ] && grep -q "^y = 2 x + 1 over 1000 floats: right" "$D/$name-ex10.log"; then
    echo "ok   examples/10_webgpu.c on $name: the answers right"; echo "run-webgpu-example-$name: 1 passed, 0 failed"
  else
    echo "FAIL examples/10_webgpu.c on $name (exit $rc)"; sed 's/^/  /' "$D/$name-ex10.log" | tail -5; FAILED=${FAILED}1
    echo "run-webgpu-example-$name: 0 passed, 1 failed"
  fi
  if [ $hrc != 0 ] || ! grep -q "^run-webgpu-host: [0-9]* passed, 0 failed" "$D/$name-host.log"; then FAILED=${FAILED}1; fi
done
# an engine that owns its WGPUDevice: the real webgpu.h (wgpu-native's), linked against its library
if [ -f "$W_DIR/wgpu/resources/webgpu.h" ] && [ -f "$WGPU" ]; then
  echo "== an engine that owns its device (wgpu-native's webgpu.h and library)"
  if cc -std=c11 $W -I. -I"$W_DIR/wgpu/resources" tests/run/webgpu/engine_webgpu.c -o "$D/engine" "$WGPU" -Wl,-rpath,"$(cd "$(dirname "$WGPU")" && pwd)" \
       -ldl -lpthread > "$D/out" 2>&1; then
    XDG_RUNTIME_DIR="$D/xdg" GPUCOMPILE_LIBWEBGPU="$WGPU" timeout 300 "$D/engine" "$D" > "$D/engine.log" 2>&1; rc=$?
    cat "$D/engine.log"
    if ! grep -q "^SKIP" "$D/engine.log" && { [ $rc != 0 ] || ! grep -q "^run-webgpu-engine: [0-9]* passed, 0 failed" "$D/engine.log"; }; then FAILED=${FAILED}1; fi
  else
    echo "FAIL the engine program builds against wgpu-native's webgpu.h"; sed 's/^/  /' "$D/out" | head; echo "run-webgpu-engine: 0 passed, 1 failed"; FAILED=${FAILED}1
  fi
else
  echo "SKIP run-webgpu-engine: no wgpu-native header and library in $W_DIR"
fi
echo "== the binary of every backend's object with the Vulkan runtime (its selection: the #gpu.vulkan object)"
XDG_RUNTIME_DIR="$D/xdg" GPUCOMPILE_VULKAN_PIPELINE_CACHE=off timeout 300 "$D/host_vulkan" > "$D/vk-host.log" 2>&1; rc=$?
sed "s/^run-webgpu-host:/run-webgpu-host-vulkan:/" "$D/vk-host.log"
if ! grep -q "^SKIP" "$D/vk-host.log" && { [ $rc != 0 ] || ! grep -q "^runtime: vulkan" "$D/vk-host.log"; }; then FAILED=${FAILED}1; fi
[ -z "$(echo "$FAILED" | tr -d 0)" ]
