#!/bin/sh
# The numbered examples: `make examples` builds them all; those that need no GPU (01, 02, 03, 05;
# 06 on an OpenCL CPU device, 07, 08 and 09 on a Vulkan one) run here and their output is checked
# with the real tools (ptxas, llvm-readelf, llvm-objdump, mlir-opt, opt, spirv-val).
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
BUILD_DIR=$(dirname "$GPUCOMPILE")
EX=$BUILD_DIR/examples
OUT=$T_TMP/out; ERR=$T_TMP/err
PTXAS=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
[ -x "$PTXAS" ] || PTXAS=$(command -v ptxas || true)
has() { grep -qF -- "$2" "$1"; }
# run NAME ARGS...: runs example NAME, stdout in $OUT, stderr in $ERR; exit status in $rc
run() { n=$1; shift; "$EX/$n" "$@" >"$OUT" 2>"$ERR"; rc=$?; }

if make -s BUILD="$BUILD_DIR" examples >"$T_TMP/make.log" 2>&1; then ok "make examples"
else fail "make examples: $(tail -5 "$T_TMP/make.log")"; tally examples; exit 0; fi

# ---- 01: PTX and cubin for sm_80, metadata; files checked by ptxas and llvm-readelf
run 01_ptx_and_cubin examples/kernels/saxpy_nvptx.ll sm_80 "$T_TMP/saxpy"
check "01 exits 0" [ $rc -eq 0 ]
check "01 names the target" has "$OUT" 'target #gpu.nvptx<chip = "sm_80">'
check "01 PTX for sm_80" has "$OUT" '.target sm_80'
check "01 PTX entry" has "$OUT" '.visible .entry saxpy('
check "01 PTX metadata" has "$OUT" 'ptx kernel saxpy, params 4'
if [ -n "$PTXAS" ] && [ -x "$PTXAS" ]; then
  check "01 .ptx assembles with ptxas" "$PTXAS" -arch=sm_80 "$T_TMP/saxpy.ptx" -o "$T_TMP/ptxas.cubin"
else skip "01 ptxas check: no CUDA toolkit"; fi
if has "$OUT" "cubin: skipped"; then
  skip "01 cubin: no CUDA toolkit (the example says so and exits 0)"
else
  check "01 cubin is an NVIDIA ELF" sh -c "llvm-readelf -h '$T_TMP/saxpy.cubin' | grep -q 'NVIDIA CUDA'"
  check "01 cubin defines saxpy" sh -c "llvm-readelf -s '$T_TMP/saxpy.cubin' | grep -q ' saxpy$'"
  regs=$(sed -n 's/^cubin kernel saxpy, params 4, registers \([0-9]*\),.*/\1/p' "$OUT")
  if [ -n "$regs" ] && [ -x "$PTXAS" ]; then
    want=$("$PTXAS" -arch=sm_80 -O2 -v "$T_TMP/saxpy.ptx" -o /dev/null 2>&1 | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p')
    check "01 cubin registers ($regs) = ptxas -v ($want)" [ "$regs" = "$want" ]
  else fail "01 cubin metadata line: $(cat "$OUT")"; fi
fi
check "01 no errors on stderr" [ ! -s "$ERR" ]
run 01_ptx_and_cubin "$T_TMP/missing.ll"
check "01 missing input: exit 1 with a message" sh -c "[ $rc -eq 1 ] && grep -q 'PTX failed' '$ERR'"
run 01_ptx_and_cubin examples/kernels/saxpy_nvptx.ll sm_999
check "01 unknown chip refused" sh -c "[ $rc -eq 1 ] && grep -q 'bad target' '$ERR'"

# ---- 02: four targets, two vendors, one binary in both forms
run 02_multi_target_binary "$T_TMP/multi"
check "02 exits 0" [ $rc -eq 0 ]
check "02 four objects" has "$OUT" 'binary @saxpy: 4 objects'
if [ -s "$T_TMP/multi.offload" ]; then
  llvm-objdump --offloading "$T_TMP/multi.offload" >"$T_TMP/images" 2>&1
  check "02 offload binary: 4 images (llvm-objdump)" [ "$(grep -c '^arch' "$T_TMP/images")" -eq 4 ]
  for a in sm_80 sm_90 gfx90a gfx1100; do
    check "02 offload binary has $a" grep -q "^arch *$a\$" "$T_TMP/images"
  done
else fail "02 no offload binary written"; fi
MO=mlir-opt-$("$GPUCOMPILE" --version | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p') # the MLIR of our LLVM
check "02 text form parses with $MO" sh -c "$MO '$T_TMP/multi.mlir' | grep -q 'gpu.binary @saxpy'"
check "02 selection: sm_86 loads the sm_80 cubin" has "$OUT" 'a sm_86 GPU loads object 0'
check "02 selection: gfx942 finds none" has "$OUT" 'a gfx942 GPU finds no object'

# ---- 01 and 02 without a CUDA toolkit: hidden in a private mount namespace (needs root) by a
# tmpfs over the toolkit's directory, nvJitLink's and those of each ptxas on PATH; only what
# lies under /usr/local or /opt is hidden, else the check is skipped
mounts=; kept=
for d in $( (readlink -f "${CUDA_PATH:-/usr/local/cuda}"
             ldconfig -p 2>/dev/null | sed -n 's/.*libnvJitLink\.so.* => \(.*\)\/[^/]*$/\1/p' | xargs -r readlink -f
             for p in $(echo "$PATH" | tr ':' ' '); do [ -f "$p/ptxas" ] && readlink -f "$p"; done) |
           awk '{ print length, $0 }' | sort -n | cut -d' ' -f2-); do
  case "$d" in /usr/local/?*|/opt/?*) ;; *) continue ;; esac
  inside=; for k in $kept; do case "$d/" in "$k"/*) inside=1 ;; esac; done
  [ -d "$d" ] && [ -z "$inside" ] && kept="$kept $d" && mounts="$mounts mount -t tmpfs none '$d' &&"
done
if [ -n "$mounts" ] && unshare -m --propagation private sh -c "$mounts true" 2>/dev/null; then
  unshare -m --propagation private sh -c "$mounts '$EX/01_ptx_and_cubin'" >"$OUT" 2>"$ERR"; rc=$?
  check "01 without a toolkit: the PTX, then a clear skip, exit 0" \
    sh -c "[ $rc -eq 0 ] && grep -q 'cubin: skipped, no CUDA toolkit' '$OUT' && grep -qF '.entry saxpy(' '$OUT'"
  unshare -m --propagation private sh -c "$mounts '$EX/02_multi_target_binary' '$T_TMP/ptxonly'" >"$OUT" 2>"$ERR"; rc=$?
  check "02 without a toolkit: PTX objects for NVIDIA, hsaco for AMD" \
    sh -c "[ $rc -eq 0 ] && grep -q 'NVIDIA objects are PTX' '$OUT' && [ \$(grep -c 'nvvm.target.* isa ' '$OUT') -eq 2 ] && [ \$(grep -c 'rocdl.target.* bin ' '$OUT') -eq 2 ]"
else skip "01/02 without a toolkit: cannot hide it here (needs unshare -m as root, a toolkit under /usr/local or /opt)"; fi

# ---- 03: a module built in memory; PTX on stdout
run 03_in_memory_module sm_80
check "03 exits 0" [ $rc -eq 0 ]
check "03 PTX entry on stdout" has "$OUT" '.visible .entry saxpy('
check "03 PTX reads the thread index" has "$OUT" '%tid.x'
if [ -x "$PTXAS" ]; then check "03 PTX assembles with ptxas" "$PTXAS" -arch=sm_80 "$OUT" -o "$T_TMP/03.cubin"
else skip "03 ptxas check: no CUDA toolkit"; fi
check "03 bitcode read back defines saxpy" has "$ERR" 'bitcode: defines saxpy'
check "03 caller's module kept" has "$ERR" 'module still has saxpy'

# ---- 06: a kernel compiled and run on an OpenCL device that takes SPIR-V (the CPU here)
if [ -n "$GPUCOMPILE_OPENCL" ] && [ -f "$GPUCOMPILE_OPENCL/vendors/intel-cpu.icd" ]; then
  OCL_ICD_VENDORS=$GPUCOMPILE_OPENCL/vendors run 06_run_on_cpu
else run 06_run_on_cpu; fi
if [ $rc -eq 77 ]; then skip "06: no OpenCL device that takes SPIR-V, or no SPIR-V in this LLVM ($(head -1 "$ERR"))"
else
  check "06 exits 0" [ $rc -eq 0 ]
  check "06 every answer right" has "$OUT" 'ran on spirv: y = 2 x + 1 for 1000 elements, 0 wrong'
fi

# ---- 07 and 08: Vulkan kernels compiled with their reflection (07), then run by a plain C engine
# with the Vulkan runtime alone (08: built here with its one cc line, no LLVM) on the first Vulkan
# device (lavapipe here); the pipeline cache and Mesa's shader cache go to the test's directory
mkdir -p "$T_TMP/vk"
run 07_vulkan "$T_TMP/vk"
if [ $rc -eq 77 ]; then skip "07, 08: no SPIR-V target in this LLVM ($(head -1 "$ERR"))"
else
  check "07 exits 0" [ $rc -eq 0 ]
  check "07 names the target" grep -qx 'target #gpu.vulkan' "$OUT"
  check "07 saxpy's kernel metadata: bindings, push constants, workgroup size" has "$OUT" \
    'push_constant_bytes = 8 : i32, push_constants = [{offset = 0 : i32, size = 4 : i32}, {offset = 4 : i32, size = 4 : i32}], workgroup_size = array<i32: 64, 1, 1>'
  check "07 saxpy's reflection read back from the bytes" sh -c "grep -q 'reflect saxpy: workgroup size 64 x 1 x 1, workgroup memory 0 bytes' '$OUT' && \
    grep -q 'set 0 binding 0: storage buffer, element stride 4, read-only' '$OUT' && grep -q 'push constant 1: offset 4, 4 bytes' '$OUT'"
  check "07 reduce: 256 bytes of workgroup memory in the metadata and the reflection" sh -c \
    "grep -q 'kernel reduce, workgroup memory 256 bytes' '$OUT' && grep -q 'reflect reduce: workgroup size 64 x 1 x 1, workgroup memory 256 bytes' '$OUT'"
  check "07 says what it repaired of LLVM 22's output (the barrier's WorkgroupMemory semantics)" has "$ERR" 'OpControlBarriers given the WorkgroupMemory semantics'
  for k in saxpy reduce; do
    check "07 $k.spv passes spirv-val --target-env vulkan1.3" spirv-val --target-env vulkan1.3 "$T_TMP/vk/$k.spv"
  done
  check "08 builds with its one cc line: the runtime header alone, no LLVM" \
    cc -std=c11 -Wall -Wextra -pedantic -Werror examples/08_vulkan_runtime.c -I. -ldl -lpthread -o "$T_TMP/ex08"
  GPUCOMPILE_VULKAN_PIPELINE_CACHE=$T_TMP/vk/pipelines.bin MESA_SHADER_CACHE_DIR=$T_TMP/vk/mesa "$T_TMP/ex08" "$T_TMP/vk" >"$OUT" 2>"$ERR"; rc=$?
  if [ $rc -eq 77 ]; then skip "08: no Vulkan device ($(head -1 "$ERR"))"
  else
    check "08 exits 0" [ $rc -eq 0 ]
    check "08 builds the layout from the reflection" has "$OUT" 'saxpy.spv: entry point saxpy, workgroup 64 x 1 x 1, layout: set 0 binding 0 (read-only) set 0 binding 1 (read-write); push constants 8 bytes in 2 fields'
    check "08 saxpy's answers" has "$OUT" 'saxpy: y = 3 x + 1 for 1000 elements, 0 wrong (y[999] = 2998)'
    check "08 reduce's answers (the barriers repaired)" has "$OUT" 'reduce: 16 workgroup sums of 64, all right (out[0] = 189)'
    check "08 no runtime error" [ ! -s "$ERR" ]
  fi
fi

# ---- 09: an engine that owns its Vulkan device (the Vulkan headers and loader): a kernel compiled
# at load time, made a program on the engine's device, recorded into its command buffer, through
# push descriptors and through a descriptor set of its own
for mode in push sets; do
  arg=; [ $mode = sets ] && arg=sets
  MESA_SHADER_CACHE_DIR=$T_TMP/vk/mesa run 09_vulkan_engine $arg
  if [ $rc -eq 77 ]; then skip "09: no Vulkan device or no SPIR-V target in this LLVM ($(head -1 "$ERR"))"; break; fi
  check "09 ($mode) exits 0" [ $rc -eq 0 ]
  check "09 ($mode) maps the kernel's parameters from the reflection" has "$OUT" 'saxpy: workgroup 64 x 1 x 1, 4 parameters, 2 bindings, 8 bytes of push constants'
  check "09 ($mode) binds the buffers as asked" has "$OUT" "$([ $mode = sets ] && echo 'a descriptor set of its own' || echo 'push descriptors')"
  check "09 ($mode) saxpy's answers" has "$OUT" 'saxpy: y = 3 x + 1 for 1000 elements in 16 workgroups, 0 wrong (y[999] = 2998)'
  check "09 ($mode) nothing on stderr" [ ! -s "$ERR" ]
done
# ---- 10: a kernel compiled for #gpu.webgpu and run through the WebGPU runtime, on each library
# make test-run installs (build-deps/webgpu); without them it says so and exits 77
W_LIB=${GPUCOMPILE_WEBGPU_DEPS:-$(pwd)/build-deps/webgpu}/wgpu/resources/libwgpu_native-release.so
mkdir -p "$T_TMP/xdg" && chmod 700 "$T_TMP/xdg"
if [ -f "$W_LIB" ]; then
  XDG_RUNTIME_DIR=$T_TMP/xdg GPUCOMPILE_LIBWEBGPU=$W_LIB run 10_webgpu
  if [ $rc -eq 77 ]; then skip "10: no SPIR-V target or no WebGPU adapter ($(tail -1 "$OUT"))"
  else
    check "10 exits 0" [ $rc -eq 0 ]
    check "10 the uniform block in the metadata" has "$OUT" 'uniform_binding = 2 : i32, uniform_bytes = 8 : i32'
    check "10 ran on wgpu-native, the answers right" sh -c "grep -q '^wgpu-native: ' '$OUT' && grep -q '^y = 2 x + 1 over 1000 floats: right' '$OUT'"
  fi
else
  XDG_RUNTIME_DIR=$T_TMP/xdg GPUCOMPILE_LIBWEBGPU=/nonexistent/libwgpu_native.so run 10_webgpu
  check "10 without a WebGPU library: says so, exit 77 (or 77 for no SPIR-V target)" sh -c "[ $rc -eq 77 ]"
fi

# ---- 05: custom host target, hooks dumping each stage
mkdir -p "$T_TMP/dump"
run 05_custom_target_and_hooks "$T_TMP/dump" "$T_TMP/saxpy.o"
check "05 exits 0" [ $rc -eq 0 ]
check "05 registered target parses and prints canonically" grep -qx 'target #example.host' "$OUT"
check "05 the backend's verify refuses another chip" has "$OUT" 'verify chip "pentium": invalid target'
check "05 second compile comes from the cache, same bytes" has "$OUT" 'cached compile: from the cache, same bytes'
check "05 binary with the NVPTX and AMDGPU objects" has "$OUT" 'binary @mixed: 3 objects'
check "05 selection: host" has "$OUT" 'binary: device host loads object 0, #example.host'
check "05 selection: sm_80" has "$OUT" 'binary: device sm_80 loads object 1, #gpu.nvptx<chip = "sm_80">'
check "05 selection: gfx90a" has "$OUT" 'binary: device gfx90a loads object 2, #gpu.amdgpu<chip = "gfx90a">'
check "05 offload binary read back, host selected" has "$OUT" 'offload binary: device host loads object 0, #example.host'
check "05 MLIR text read back, host selected" has "$OUT" 'MLIR text: device host loads object 0, #example.host'
check "05 five stages dumped" has "$OUT" 'stages dumped: 5'
for f in 1-initial_ir.ll 2-pre_link.ll 3-post_link.ll 4-optimized_ir.ll; do
  check "05 $f is valid IR (opt)" opt -disable-output "$T_TMP/dump/$f"
done
check "05 isa dump has saxpy" grep -q '^saxpy:' "$T_TMP/dump/5-isa.s"
check "05 object defines saxpy (llvm-objdump)" sh -c "llvm-objdump -d '$T_TMP/saxpy.o' | grep -q '<saxpy>:'"
check "05 object is relocatable (llvm-readelf)" sh -c "llvm-readelf -h '$T_TMP/saxpy.o' | grep -q 'REL (Relocatable'"
run 05_custom_target_and_hooks
check "05 without a directory: stages on stderr" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^=== ' '$ERR') -eq 5 ] && grep -q '^=== optimized_ir ===' '$ERR'"

# ---- the CLI's first screen: --help names every option tools/gpucompile.c parses
"$GPUCOMPILE" --help >"$OUT" 2>&1; rc=$?
missing=
for o in $(grep -oE '(strcmp\(a, |TAKES\()"-[^"]*"(, "-[^"]*")?' tools/gpucompile.c | grep -oE '"-[^"]*"' | tr -d '"' | sort -u); do
  grep -qE -- "(^|[ ,])$o([ ,=]|\$)" "$OUT" || missing="$missing $o"
done
check "--help exits 0 and lists every option${missing:+ (missing:$missing)}" [ $rc -eq 0 -a -z "$missing" ]

tally examples
