#!/bin/sh
# The WebGPU backend (gpucompile_webgpu.h) against its oracles: spirv-val for SPIR-V 1.3 (what
# Dawn's reader takes) on every module, spirv-dis for each change WebGPU's readers need (no
# memory operands, the uniform block, NonWritable variables, interfaces, no names, no 8/16/64-bit
# types), the refusals (each names the function and the instruction; no output left), the
# reflection read from the bytes without LLVM (tests/data/webgpu_check.c), the declarations of
# webgpu.h's structures against wgpu-native's header (tests/data/webgpu_abi.c), and the real
# readers, naga (wgpu-native) and Tint (Dawn), making every module, where make test-run has
# installed them (build-deps/webgpu). Skips with one line on an LLVM without the SPIR-V target.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
G="$GPUCOMPILE --no-cache"
K=examples/kernels
W_DIR=${GPUCOMPILE_WEBGPU_DEPS:-$(pwd)/build-deps/webgpu} # absolute: the programs run from elsewhere
if ! "$GPUCOMPILE" --print-target '#gpu.webgpu' >/dev/null 2>"$T_TMP/err"; then
  skip "webgpu: $(sed 's/^gpucompile: error: //' "$T_TMP/err" | head -1)"; tally cli_webgpu; exit 0
fi
# ---- the target
check "#gpu.webgpu: bare" [ "$("$GPUCOMPILE" --print-target '#gpu.webgpu<>')" = '#gpu.webgpu' ]
check "#gpu.webgpu: parameters kept" [ "$("$GPUCOMPILE" --print-target '#gpu.webgpu<O = 3, features = "+shader-f16", triple = "spirv1.5-unknown-vulkan1.2-compute">')" = \
  '#gpu.webgpu<O = 3, triple = "spirv1.5-unknown-vulkan1.2-compute", features = "+shader-f16">' ]
for bad in 'triple = "spirv64-unknown-unknown"|WebGPU.s readers take Vulkan.s SPIR-V' 'chip = "vulkan"|chip of a WebGPU target' \
           'features = "+Int64"|not +NAME of a WebGPU feature' 'flags = {max_invocations = "x"}|are numbers' 'flags = {max_storage_buffers = "0"}|are numbers'; do
  rc=0; "$GPUCOMPILE" --print-target "#gpu.webgpu<${bad%%|*}>" 2>"$T_TMP/err" >/dev/null || rc=$?
  check "#gpu.webgpu<${bad%%|*}> refused" sh -c "[ $rc = 1 ] && grep -q -- '${bad#*|}' '$T_TMP/err'"
done
rc=0; $G -t '#gpu.webgpu' -f isa $K/saxpy_vulkan.ll -o "$T_TMP/x.s" 2>"$T_TMP/err" || rc=$?
check "format isa refused (spirv-dis reads the bin)" sh -c "[ $rc != 0 ] && grep -q 'does not produce isas' '$T_TMP/err' && [ ! -e '$T_TMP/x.s' ]"
check "gpucompile --help lists #gpu.webgpu" sh -c "'$GPUCOMPILE' --help | grep -q 'gpu.webgpu'"
# ---- Vulkan-shaped IR: each module valid SPIR-V 1.3, reshaped for WebGPU
for k in $K/saxpy_vulkan.ll $K/reduce_vulkan.ll tests/run/vulkan/two_entries.ll tests/run/vulkan/tile.ll; do
  n=$(basename "$k" .ll)
  check "$n: compiled for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin "$k" -o "$T_TMP/$n.spv"
  check "$n: spirv-val --target-env vulkan1.1" spirv-val --target-env vulkan1.1 "$T_TMP/$n.spv"
  spirv-dis "$T_TMP/$n.spv" > "$T_TMP/$n.txt" 2>&1
  check "$n: SPIR-V 1.3, no memory operands, no push constants, no names, no 8/16/64-bit capability" sh -c \
    "grep -q '; Version: 1.3' '$T_TMP/$n.txt' && ! grep -q 'Aligned\|PushConstant\|OpName\|Capability Int\|Capability Float64' '$T_TMP/$n.txt'"
done
check "saxpy: the push-constant block is the uniform buffer at binding 2, named by OpModuleProcessed" sh -c \
  "grep -q 'OpModuleProcessed \"gpucompile.uniforms 0 2\"' '$T_TMP/saxpy_vulkan.txt' && grep -q 'OpVariable %_ptr_Uniform_' '$T_TMP/saxpy_vulkan.txt'"
check "saxpy: the read-only buffer says NonWritable on its variable (naga reads that one)" sh -c \
  "grep -q '^ *OpDecorate %[0-9a-z_]* NonWritable' '$T_TMP/saxpy_vulkan.txt'"
$G -t '#gpu.webgpu' -f bin $K/saxpy_vulkan.ll -o "$T_TMP/s.spv" --emit-text "$T_TMP/s.mlir" 2>/dev/null
check "saxpy: the reflection in the kernel metadata (bindings, uniform block, workgroup size)" grep -q \
  'bindings = \[{binding = 0 : i32, read_only = true, set = 0 : i32, stride = 4 : i32}, {binding = 1 : i32, read_only = false, set = 0 : i32, stride = 4 : i32}\], uniform_binding = 2 : i32, uniform_bytes = 8 : i32, uniforms = \[{offset = 0 : i32, size = 4 : i32}, {offset = 4 : i32, size = 4 : i32}\], workgroup_memory_bytes = 0 : i64, workgroup_size = array<i32: 64, 1, 1>' "$T_TMP/s.mlir"
# ---- pointer kernels (OpenCL C, spirv32): the lowering, 32-bit addresses, each entry point its own interface
if command -v clang >/dev/null; then
  clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S tests/run/webgpu/kernels.cl -o "$T_TMP/k.ll"
  check "the OpenCL C kernels: compiled for #gpu.webgpu" $G -t '#gpu.webgpu' -f bin "$T_TMP/k.ll" -o "$T_TMP/kernels.spv" --emit-text "$T_TMP/k.mlir"
  check "the OpenCL C kernels: spirv-val --target-env vulkan1.1" spirv-val --target-env vulkan1.1 "$T_TMP/kernels.spv"
  spirv-dis "$T_TMP/kernels.spv" > "$T_TMP/k.txt" 2>&1
  check "the OpenCL C kernels: no Int8/Int64, saxpy's interface only its own built-in" sh -c \
    "! grep -q 'Capability Int' '$T_TMP/k.txt' && grep -q 'OpEntryPoint GLCompute %[0-9]* \"saxpy\" %gl_GlobalInvocationID\$' '$T_TMP/k.txt'"
  check "the OpenCL C kernels: saxpy's parameters in their order (the uniform block's a and n, buffers x and y)" grep -q \
    'parameters = "p0:4 b0 b1 p4:4", uniform_binding = [0-9]* : i32, uniform_bytes = 12 : i32' "$T_TMP/k.mlir"
  # what WGSL cannot express: refused before code generation, naming the function and the instruction
  while IFS='|' read -r src want; do
    printf '%b\n' "$src" > "$T_TMP/bad.cl"
    clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S "$T_TMP/bad.cl" -o "$T_TMP/bad.ll" 2>/dev/null
    rm -f "$T_TMP/bad.spv"; rc=0; $G -t '#gpu.webgpu' -f bin "$T_TMP/bad.ll" -o "$T_TMP/bad.spv" 2>"$T_TMP/err" || rc=$?
    check "refused: $want" sh -c "[ $rc = 1 ] && grep -q \"error: function 'k': \\\`.*\\\`: WebGPU cannot express $want\" '$T_TMP/err' && [ ! -e '$T_TMP/bad.spv' ]"
  done <<'CASES'
kernel void k(global long *o, long v) { o[get_global_id(0)] = v * 3; }|a 64-bit integer
kernel void k(global double *o, double v) { o[get_global_id(0)] = v * 3.0; }|a double
kernel void k(global char *o) { o[get_global_id(0)] = 7; }|an 8-bit integer
kernel void k(global short *o, short v) { o[get_global_id(0)] = v; }|a 16-bit integer
#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global float *o, float v) { half h = (half)v; o[get_global_id(0)] = (float)(h * h); }|a half
kernel void k(global int *o, int v) { atomic_max(o, v); }|a signed atomic min or max
CASES
  # nine storage buffers: above WebGPU's 8 per stage, unless the device has more (flag max_storage_buffers)
  printf 'kernel void k(global int *a, global int *b, global int *c, global int *d, global int *e, global int *f, global int *g, global int *h, global int *i) {\n  size_t x = get_global_id(0);\n  a[x] = b[x] + c[x] + d[x] + e[x] + f[x] + g[x] + h[x] + i[x];\n}\n' > "$T_TMP/nine.cl"
  clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S "$T_TMP/nine.cl" -o "$T_TMP/nine.ll" 2>/dev/null
  rc=0; $G -t '#gpu.webgpu' -f bin "$T_TMP/nine.ll" -o "$T_TMP/nine.spv" 2>"$T_TMP/err" || rc=$?
  check "refused: nine storage buffers in an entry point (WebGPU's limit is 8), nothing written" sh -c \
    "[ $rc = 1 ] && grep -q \"function 'k': 9 storage buffers: WebGPU's limit is 8 per shader stage\" '$T_TMP/err' && [ ! -e '$T_TMP/nine.spv' ]"
  check "... compiled for a device with more: flags max_storage_buffers" \
    $G -t '#gpu.webgpu<flags = {max_storage_buffers = "10"}>' -f bin "$T_TMP/nine.ll" -o "$T_TMP/nine.spv"
  printf 'kernel void k(write_only image2d_t im, global float *o) { write_imagef(im, (int2)(get_global_id(0), 0), (float4)(o[0])); }\n' > "$T_TMP/im.cl"
  clang -cl-std=CL2.0 -target spirv32 -O2 -emit-llvm -S "$T_TMP/im.cl" -o "$T_TMP/im.ll" 2>/dev/null
  rc=0; $G -t '#gpu.webgpu' -f bin "$T_TMP/im.ll" -o "$T_TMP/im.spv" 2>"$T_TMP/err" || rc=$?
  check "refused: an image parameter (naming the function and the parameter)" sh -c \
    "[ $rc = 1 ] && grep -q \"function 'k': parameter 0: an OpenCL image or sampler (WebGPU has no images yet)\" '$T_TMP/err' && [ ! -e '$T_TMP/im.spv' ]"
else
  skip "webgpu: no clang for the OpenCL C kernels"
fi
# Vulkan-shaped refusals: a float atomic, a workgroup too large, too much workgroup memory, a WGSL keyword as a name
vk_ir() { # NAME ATTRS BODY: an entry point with one float buffer
  printf 'target triple = "spirv1.6-unknown-vulkan1.3-compute"\n@n = private unnamed_addr constant [2 x i8] c"b\\00"\n%b\ndefine void @%s() #0 {\nentry:\n  %%h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @n)\n  %%p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %%h, i32 0)\n%b\n  ret void\n}\ndeclare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)\ndeclare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)\nattributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="%s" }\n' "$4" "$1" "$3" "$2"
}
while IFS='|' read -r name threads body globals want; do
  vk_ir "$name" "$threads" "$body" "$globals" > "$T_TMP/bad.ll"
  rm -f "$T_TMP/bad.spv"; rc=0; $G -t '#gpu.webgpu' -f bin "$T_TMP/bad.ll" -o "$T_TMP/bad.spv" 2>"$T_TMP/err" || rc=$?
  check "refused: $want" sh -c "[ $rc = 1 ] && grep -q -- \"$want\" '$T_TMP/err' && [ ! -e '$T_TMP/bad.spv' ]"
done <<'CASES'
k|64,1,1|  %o = atomicrmw fadd ptr addrspace(11) %p, float 1.0 seq_cst||function 'k': .*atomicrmw fadd.*: WebGPU cannot express a float atomic
k|512,1,1|  store float 1.0, ptr addrspace(11) %p||function 'k': workgroup size 512,1,1: WebGPU's limits are 256 invocations
k|16,1,128|  store float 1.0, ptr addrspace(11) %p||function 'k': workgroup size 16,1,128
k|64,1,1|  %i = call i32 @llvm.spv.thread.id.in.group.i32(i32 0)\n  %g = getelementptr [8192 x float], ptr addrspace(3) @big, i32 0, i32 %i\n  store float 1.0, ptr addrspace(3) %g\n  call void @llvm.spv.group.memory.barrier.with.group.sync()\n  %j = sub i32 63, %i\n  %q = getelementptr [8192 x float], ptr addrspace(3) @big, i32 0, i32 %j\n  %v = load float, ptr addrspace(3) %q\n  store float %v, ptr addrspace(11) %p|@big = internal addrspace(3) global [8192 x float] poison\ndeclare i32 @llvm.spv.thread.id.in.group.i32(i32)\ndeclare void @llvm.spv.group.memory.barrier.with.group.sync()|32768 bytes of workgroup memory: WebGPU's limit is 16384
loop|64,1,1|  store float 1.0, ptr addrspace(11) %p||function 'loop': WGSL does not take that name
__k|64,1,1|  store float 1.0, ptr addrspace(11) %p||function '__k': WGSL does not take that name
CASES
vk_ir k "32,32,1" '  store float 1.0, ptr addrspace(11) %p' '' > "$T_TMP/big.ll"
check "a device with more: flags max_invocations" $G -t '#gpu.webgpu<flags = {max_invocations = "1024"}>' -f bin "$T_TMP/big.ll" -o "$T_TMP/big.spv"
# ---- selection: one rule on the compile side and the runtime's; a Vulkan object is not WebGPU's, nor the other way
$G -t '#gpu.vulkan' -t '#gpu.webgpu' $K/saxpy_vulkan.ll -o "$T_TMP/both.gpubin" 2>/dev/null
check "--select webgpu takes the #gpu.webgpu object, --select vulkan the #gpu.vulkan one" sh -c \
  "'$GPUCOMPILE' --list '$T_TMP/both.gpubin' --select webgpu | grep -q '^device webgpu: \[1\] #gpu.webgpu bin' && \
   '$GPUCOMPILE' --list '$T_TMP/both.gpubin' --select vulkan | grep -q '^device vulkan: \[0\] #gpu.vulkan bin'"
# ---- the reflection from the bytes, without LLVM; webgpu.h's layouts; the real readers
W="-Wall -Wextra -pedantic -Werror"
if cc -std=c11 $W -I. tests/data/webgpu_check.c -o "$T_TMP/check" -ldl -lpthread 2>"$T_TMP/err"; then
  ok "the reflection reader builds with plain cc (no LLVM)"
  env -u GPUCOMPILE_LIBWEBGPU "$T_TMP/check" "$T_TMP/saxpy_vulkan.spv" "$T_TMP/reduce_vulkan.spv" > "$T_TMP/r.txt" 2>&1
  check "the reflection from the bytes: saxpy's bindings and uniform block, reduce's workgroup memory" sh -c \
    "grep -q '^  saxpy local=64,1,1 bindings=0:ro,1:rw uniform=0:2:8 params=0 wg=0' '$T_TMP/r.txt' && grep -q '^  reduce local=64,1,1 bindings=0:ro,1:rw params=0 wg=256' '$T_TMP/r.txt'"
else
  fail "the reflection reader builds with plain cc (no LLVM)" "$T_TMP/err"
fi
if [ -f "$W_DIR/wgpu/resources/webgpu.h" ]; then
  check "webgpu.h's layouts and numbers as the runtime declares them (wgpu-native's header)" sh -c \
    "cc -std=c11 $W -Wno-unused-local-typedefs -I. -I'$W_DIR/wgpu/resources' tests/data/webgpu_abi.c -o '$T_TMP/abi' && '$T_TMP/abi'"
else
  skip "webgpu: no $W_DIR/wgpu/resources/webgpu.h for the layout check (make test-run installs PyPI's wgpu)"
fi
mkdir -p "$T_TMP/xdg" && chmod 700 "$T_TMP/xdg"
mods="$T_TMP/saxpy_vulkan.spv $T_TMP/reduce_vulkan.spv $T_TMP/two_entries.spv $T_TMP/tile.spv"
[ -f "$T_TMP/kernels.spv" ] && mods="$mods $T_TMP/kernels.spv"
for impl in "naga (wgpu-native):$W_DIR/wgpu/resources/libwgpu_native-release.so" "Tint (Dawn):$W_DIR/pydawn/lib/libwebgpu_dawn_x86_64.so"; do
  lib=${impl#*:}
  if [ -f "$lib" ] && [ -x "$T_TMP/check" ]; then
    XDG_RUNTIME_DIR="$T_TMP/xdg" GPUCOMPILE_LIBWEBGPU="$lib" timeout 120 "$T_TMP/check" $mods > "$T_TMP/load.txt" 2>&1; rc=$?
    # the library is there: a library it cannot open fails; only no adapter (no device) skips
    if grep -q "no WebGPU adapter" "$T_TMP/load.txt" && ! grep -q "load ok\|cannot open\|has no '" "$T_TMP/load.txt"; then
      skip "webgpu: ${impl%%:*}: no adapter here"
    else
      check "${impl%%:*} makes every module (shader module and pipelines)" sh -c "[ $rc = 0 ] && [ \$(grep -c '  load ok' '$T_TMP/load.txt') = $(echo $mods | wc -w) ]"
    fi
  else
    skip "webgpu: no $lib for ${impl%%:*}'s reader (make test-run installs PyPI's wgpu and dawn-python)"
  fi
done
tally cli_webgpu
