#!/bin/sh
# The Vulkan backend (gpucompile_vulkan.h) against its oracles: mlir-opt's #spirv.target_env (MLIR 22's)
# (canonical text, and the gpu.binary text of an object), spirv-val for the Vulkan version asked
# on every module, spirv-as on the isa text, spirv-dis for each repair of what LLVM 22 writes
# wrong, and each IR shape LLVM 22 crashes on refused (in process: a crash would end the run) or
# compiled. Skips with one line on an LLVM without the SPIR-V target.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
G=$GPUCOMPILE
D=tests/data
K=examples/kernels
if ! "$G" --print-target '#gpu.vulkan' >/dev/null 2>"$T_TMP/err"; then
  skip "vulkan: $(sed 's/^gpucompile: error: //' "$T_TMP/err" | head -1)"; tally cli_vulkan; exit 0
fi
# ---- targets: #spirv.target_env printed as mlir-opt prints it
mlir_print() { # the attribute as mlir-opt prints it on a gpu.module
  printf 'module attributes {gpu.container_module} {\n  gpu.module @k [%s] {\n  }\n}\n' "$1" > "$T_TMP/t.mlir"
  mlir-opt "$T_TMP/t.mlir" 2>&1 | sed -n 's/.*gpu.module @k \[\(.*\)\] {/\1/p'
}
for a in '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader,Int64 , Int16], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>' \
         '#spirv.target_env<#spirv.vce<v1.5, [Shader, GroupNonUniform], [SPV_KHR_16bit_storage]>, api=Vulkan, NVIDIA:DiscreteGPU:0x1234, #spirv.resource_limits<max_compute_shared_memory_size = 16384, max_compute_workgroup_invocations = 128, min_subgroup_size = 32, max_subgroup_size = 64, cooperative_matrix_properties_khr = []>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<cooperative_matrix_properties_nv = [], cooperative_matrix_properties_khr = [], max_subgroup_size = 64, min_subgroup_size = 0x10, subgroup_size = 64, max_compute_workgroup_size = [64 : i32, 64, 1 : i16], max_compute_workgroup_invocations = 256, max_compute_shared_memory_size = 32768>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<max_compute_workgroup_size = [128 : i32, 128 : i32, 64 : i32], subgroup_size = 32, max_compute_workgroup_invocations = 128>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64], subgroup_size = -1>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader, Shader], [SPV_KHR_8bit_storage,SPV_KHR_8bit_storage]>, api = Vulkan, AMD : Other, #spirv.resource_limits<>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [], []>, Unknown:DiscreteGPU:1, #spirv.resource_limits<>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, NVIDIA:CPU:2147483647, #spirv.resource_limits<>>' \
         '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, api=Unknown, Intel, #spirv.resource_limits<>>'; do
  ours=$("$G" --print-target "$a" 2>&1)
  theirs=$(mlir_print "$a")
  check "print $a: as mlir-opt ($theirs)" [ -n "$theirs" -a "$ours" = "$theirs" ]
done
# what mlir-opt refuses, refused (a parse error naming it)
for bad in 'v1.7, [Shader], []>, #spirv.resource_limits<>>|unknown version: v1.7' \
           'v1.6, [Foo], []>, #spirv.resource_limits<>>|unknown capability: Foo' \
           'v1.6, [Shader], [SPV_FOO]>, #spirv.resource_limits<>>|unknown extension: SPV_FOO' \
           'v1.6, [Shader], []>, api=Foo, #spirv.resource_limits<>>|unknown client API: Foo' \
           'v1.6, [Shader], []>, Foo, #spirv.resource_limits<>>|unknown vendor: Foo' \
           'v1.6, [Shader], []>, #spirv.resource_limits<foo = 1>>|duplicate or unknown struct parameter name: foo' \
           'v1.6, [Shader], []>>|expected'; do
  a="#spirv.target_env<#spirv.vce<${bad%%|*}"; want=${bad#*|}
  rc=0; "$G" --print-target "$a" 2>"$T_TMP/err" >/dev/null || rc=$?
  mlir_print "$a" >/dev/null; mlir-opt "$T_TMP/t.mlir" >/dev/null 2>"$T_TMP/merr" # (an unknown API or vendor: an error, yet exit 0)
  check "refused as by mlir-opt: $want" sh -c "[ $rc = 1 ] && grep -q 'error: $want' '$T_TMP/merr' && grep -q 'column [0-9]*: $want' '$T_TMP/err'"
done
rc=0; "$G" --print-target '#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, #spirv.resource_limits<>>' 2>"$T_TMP/err" >/dev/null || rc=$?
check "SPIR-V 1.3: parsed, refused by verify (LLVM writes 1.5 and 1.6)" sh -c "[ $rc = 1 ] && grep -q 'SPIR-V 1.3 (Vulkan 1.1) is not compiled' '$T_TMP/err'"
rc=0; "$G" --print-target '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, api=OpenCL, #spirv.resource_limits<>>' 2>"$T_TMP/err" >/dev/null || rc=$?
check "api=OpenCL refused" sh -c "[ $rc = 1 ] && grep -q 'api=Vulkan, not api=OpenCL' '$T_TMP/err'"
# ours
check "#gpu.vulkan: bare" [ "$("$G" --print-target '#gpu.vulkan<>')" = '#gpu.vulkan' ]
check "#gpu.vulkan: parameters kept" [ "$("$G" --print-target '#gpu.vulkan<O = 3, features = "+AtomicFloat32MinMaxEXT,-Int64", triple = "spirv1.5-unknown-vulkan1.2-compute">')" = \
  '#gpu.vulkan<O = 3, triple = "spirv1.5-unknown-vulkan1.2-compute", features = "+AtomicFloat32MinMaxEXT,-Int64">' ]
for bad in 'triple = "spirv64-unknown-unknown"|not a Vulkan compute triple' 'triple = "spirv1.4-unknown-vulkan1.2-compute"|SPIR-V 1.4 (Vulkan 1.2) is not compiled' \
           'chip = "gfx90a"|chip of a Vulkan target' 'features = "+Foo"|+Foo' 'link = ["a.bc"]|unknown parameter'; do
  rc=0; "$G" --print-target "#gpu.vulkan<${bad%%|*}>" 2>"$T_TMP/err" >/dev/null || rc=$?
  check "#gpu.vulkan<${bad%%|*}> refused" sh -c "[ $rc = 1 ] && grep -q -- '${bad#*|}' '$T_TMP/err'"
done
# ---- every kernel for each spelling and Vulkan version: spirv-val, isa through spirv-as
ENV='#spirv.target_env<#spirv.vce<v1.6, [Shader, Int64, Float64, AtomicFloat32AddEXT], [SPV_EXT_shader_atomic_float_add]>, api=Vulkan, #spirv.resource_limits<>>'
ENV12='#spirv.target_env<#spirv.vce<v1.5, [Shader, Int64, Float64, AtomicFloat32AddEXT], [SPV_EXT_shader_atomic_float_add]>, api=Vulkan, #spirv.resource_limits<>>'
OURS12='#gpu.vulkan<triple = "spirv1.5-unknown-vulkan1.2-compute">'
shape() { spirv-dis --raw-id "$1" | grep -v '^;' | sed 's/%[0-9]*/%/g; s/^ *//'; }
for k in $K/saxpy_vulkan.ll $K/reduce_vulkan.ll $D/vulkan_atomics.ll $D/vulkan_grid2d.ll $D/vulkan_entries.ll $D/vulkan_push.ll; do
  n=$(basename "$k" .ll); kn=$n
  for t in "#gpu.vulkan|vulkan1.3" "$ENV|vulkan1.3" "$OURS12|vulkan1.2" "$ENV12|vulkan1.2"; do
    tgt=${t%|*}; env=${t##*|}
    check "$kn for ${tgt%%<*} ($env): spirv-val" sh -c "'$G' --no-cache -t '$tgt' -f bin $k -o '$T_TMP/$kn.spv' 2>/dev/null && spirv-val --target-env $env '$T_TMP/$kn.spv'"
  done
  n=$kn
  check "$kn: isa through spirv-as is the bin module, and valid" sh -c "'$G' --no-cache -t '#gpu.vulkan' -f isa $k -o '$T_TMP/$n.s' && \
    '$G' --no-cache -t '#gpu.vulkan' -f bin $k -o '$T_TMP/$n.spv' && spirv-as --target-env vulkan1.3 '$T_TMP/$n.s' -o '$T_TMP/$n.as.spv' && \
    spirv-val --target-env vulkan1.3 '$T_TMP/$n.as.spv'"
  shape "$T_TMP/$kn.spv" > "$T_TMP/a"; shape "$T_TMP/$kn.as.spv" > "$T_TMP/b"
  check "$kn: isa and bin hold the same instructions" cmp -s "$T_TMP/a" "$T_TMP/b"
  check "$kn: no Int8 left (the name strings' only use)" sh -c "! spirv-dis '$T_TMP/$kn.spv' | grep -q 'OpCapability Int8\|OpTypeInt 8'"
done
check "llvm: bitcode with the entry point" sh -c "'$G' --no-cache -t '#gpu.vulkan' -f llvm $K/saxpy_vulkan.ll -o '$T_TMP/s.bc' && llvm-dis '$T_TMP/s.bc' -o - | grep -q 'hlsl.shader'"
# clang's HLSL output (a reduction with groupshared memory and barriers)
if clang -cc1 -triple spirv1.6-unknown-vulkan1.3-compute -x hlsl -hlsl-entry reduce -emit-llvm -O1 $D/vulkan_reduce.hlsl -o "$T_TMP/h.ll" 2>"$T_TMP/err"; then
  "$G" --no-cache -v -t '#gpu.vulkan' -f bin "$T_TMP/h.ll" -o "$T_TMP/h.spv" 2>"$T_TMP/hv"
  check "HLSL (clang): spirv-val" spirv-val --target-env vulkan1.3 "$T_TMP/h.spv"
  check "HLSL: groupshared written without clang's zero initializer (it needs shaderZeroInitializeWorkgroupMemory)" sh -c \
    "grep -q 'note: vulkan: 1 workgroup variable written without its zero initializer' '$T_TMP/hv' && ! spirv-dis '$T_TMP/h.spv' | grep -q 'OpVariable .* Workgroup %'"
  check "HLSL: barriers repaired, reflection" sh -c "grep -q '2 OpControlBarriers given the WorkgroupMemory semantics' '$T_TMP/hv' && \
    grep -q 'kernel reduce: params 0, shared 256 bytes' '$T_TMP/hv' && grep -q 'read_only = true, set = 0 : i32, stride = 4 : i32}, {binding = 1 : i32, read_only = false' '$T_TMP/hv'"
else
  skip "HLSL: clang does not compile it here: $(head -1 "$T_TMP/err")"
fi
# ---- the repairs, each where LLVM 22 still has the defect (its own output shows it)
llc -O2 -filetype=obj $K/reduce_vulkan.ll -o "$T_TMP/raw.spv" 2>/dev/null
check "LLVM's barrier has no storage-class semantics (0x10)" sh -c "spirv-dis '$T_TMP/raw.spv' | grep -q 'OpControlBarrier %uint_2 %uint_2 %uint_16'"
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $K/reduce_vulkan.ll -o "$T_TMP/r.spv" 2>"$T_TMP/rv"
check "repaired: every barrier with WorkgroupMemory (0x148)" sh -c "spirv-dis '$T_TMP/r.spv' | grep -q 'OpControlBarrier %uint_2 %uint_2 %uint_328' && \
  ! spirv-dis '$T_TMP/r.spv' | grep 'OpControlBarrier' | grep -qv uint_328"
check "-v says so" grep -q 'note: vulkan: 7 OpControlBarriers given the WorkgroupMemory semantics' "$T_TMP/rv"
check "-v: the optimizer's byte-offset addresses rebuilt (LLVM 22 crashes on them)" grep -q 'note: vulkan: [0-9]* addresses into workgroup memory rebuilt' "$T_TMP/rv"
rc=0; opt -O2 $K/reduce_vulkan.ll -o "$T_TMP/o2.bc" && { llc -O2 -filetype=obj "$T_TMP/o2.bc" -o /dev/null 2>/dev/null || rc=$?; }
check "(LLVM 22 alone crashes on the same kernel at -O2: signal)" [ "$rc" -gt 128 ]
llc -O2 -filetype=obj -spirv-ext=+SPV_EXT_shader_atomic_float_add $D/vulkan_atomics.ll -o "$T_TMP/raw.spv" 2>/dev/null
check "LLVM's monotonic atomics: spirv-val refuses the null struct index" sh -c "! spirv-val --target-env vulkan1.3 '$T_TMP/raw.spv' 2>&1 | grep -q . || \
  spirv-val --target-env vulkan1.3 '$T_TMP/raw.spv' 2>&1 | grep -q 'must be an OpConstant'"
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_atomics.ll -o "$T_TMP/a.spv" 2>"$T_TMP/av"
check "repaired: no OpConstantNull in an access chain or atomic" sh -c "spirv-dis --raw-id '$T_TMP/a.spv' > '$T_TMP/a.dis' && \
  n=\$(sed -n 's/^ *\(%[0-9]*\) = OpConstantNull.*/\1/p' '$T_TMP/a.dis'); [ -z \"\$n\" ] || ! grep 'AccessChain\|OpAtomic' '$T_TMP/a.dis' | grep -q \"\$n\\( \\|\$\\)\""
check "-v says so" grep -q 'note: vulkan: [0-9]* instructions given constants for LLVM 22.s OpConstantNull' "$T_TMP/av"
check "LLVM's modules declare Int8 for the name strings" sh -c "spirv-dis '$T_TMP/raw.spv' | grep -q 'OpCapability Int8'"
check "-v: the name strings and Int8 removed" grep -q 'note: vulkan: 2 unused resource name strings removed, and the Int8 capability' "$T_TMP/av"
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_push.ll -o "$T_TMP/p.spv" 2>"$T_TMP/pv"
check "-v: push-constant loads moved into the entry block" grep -q 'note: vulkan: 5 push-constant loads moved into the entry block' "$T_TMP/pv"
# ---- reflection: in the kernel metadata (-v, the MLIR text, --list) and read without LLVM
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $K/saxpy_vulkan.ll -o "$T_TMP/s.spv" 2>"$T_TMP/sv"
check "-v: saxpy's reflection" grep -q 'bindings = \[{binding = 0 : i32, read_only = true, set = 0 : i32, stride = 4 : i32}, {binding = 1 : i32, read_only = false, set = 0 : i32, stride = 4 : i32}\], push_constant_bytes = 8 : i32, push_constants = \[{offset = 0 : i32, size = 4 : i32}, {offset = 4 : i32, size = 4 : i32}\], workgroup_size = array<i32: 64, 1, 1>' "$T_TMP/sv"
check "-v: reduce's workgroup memory (64 floats)" grep -q 'kernel reduce: params 0, shared 256 bytes' "$T_TMP/rv"
check "-v: the push block's fields (float, i32, <2 x float>, i64, double)" grep -q 'push_constant_bytes = 32 : i32, push_constants = \[{offset = 0 : i32, size = 4 : i32}, {offset = 4 : i32, size = 4 : i32}, {offset = 8 : i32, size = 8 : i32}, {offset = 16 : i32, size = 8 : i32}, {offset = 24 : i32, size = 8 : i32}\]' "$T_TMP/pv"
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_entries.ll -o "$T_TMP/e.spv" 2>"$T_TMP/ev"
check "several entry points, one push-constant block, each its own workgroup size" sh -c "grep -q 'kernel fill: params 0' '$T_TMP/ev' && \
  grep -q 'kernel scale: params 0' '$T_TMP/ev' && grep -q 'array<i32: 32, 1, 1>' '$T_TMP/ev' && [ \$(spirv-dis '$T_TMP/e.spv' | grep -c 'OpVariable .* PushConstant') = 1 ]"
"$G" --no-cache -t "$ENV" -f bin $K/reduce_vulkan.ll --emit-text "$T_TMP/r.mlir" -o /dev/null
check "the gpu.binary text: mlir-opt reads it and prints it the same" sh -c "mlir-opt '$T_TMP/r.mlir' | sed -n 2p | sed 's/^  //' | cmp -s - '$T_TMP/r.mlir'"
check "the gpu.binary text carries the reflection" grep -q 'kernel_metadata<"reduce", !llvm.func<void ()>, metadata = {bindings = \[.*workgroup_memory_bytes = 256 : i64, workgroup_size = array<i32: 64, 1, 1>}' "$T_TMP/r.mlir"
"$G" --no-cache -t '#gpu.vulkan' -t "$ENV" -f bin $D/vulkan_entries.ll -o "$T_TMP/e.gpubin"
"$G" --list "$T_TMP/e.gpubin" > "$T_TMP/list"
check "--list of an offload binary: the kernels and their reflection, from the modules themselves" sh -c "[ \$(grep -c 'kernel: fill\$' '$T_TMP/list') = 2 ] && \
  [ \$(grep -c 'metadata: {bindings = .*workgroup_size = array<i32: 32, 1, 1>}' '$T_TMP/list') = 2 ]"
check "--select vulkan: a Vulkan module" sh -c "'$G' --list '$T_TMP/e.gpubin' --select vulkan | grep -q '^device vulkan: \[0\] #gpu.vulkan bin'"
# beside an OpenCL SPIR-V module: each found by its own backend, and each device gets its own
"$G" --no-cache -t '#gpu.spirv' -f bin tests/run/saxpy_spirv.ll --emit-text "$T_TMP/cl.mlir" -o /dev/null
"$G" --no-cache -t '#gpu.vulkan' -f bin $K/saxpy_vulkan.ll --emit-text "$T_TMP/vk.mlir" -o /dev/null
"$G" --merge "$T_TMP/cl.mlir" "$T_TMP/vk.mlir" -o "$T_TMP/both.gpubin" --name saxpy
"$G" --list "$T_TMP/both.gpubin" > "$T_TMP/list"
check "OpenCL and Vulkan SPIR-V in one offload binary: both kernels found" [ "$(grep -c 'kernel: saxpy$' "$T_TMP/list")" = 2 ]
check "... the Vulkan one with its reflection" grep -q 'metadata: {bindings = .*workgroup_size = array<i32: 64, 1, 1>}' "$T_TMP/list"
check "... --select vulkan: the Vulkan module" sh -c "'$G' --list '$T_TMP/both.gpubin' --select vulkan | grep -q '^device vulkan: \[1\] #gpu.vulkan bin'"
check "... --select spirv (OpenCL): the OpenCL module" sh -c "'$G' --list '$T_TMP/both.gpubin' --select spirv | grep -q '^device spirv: \[0\] #xevm.target bin'"
if ${CC:-cc} -std=c11 -Wall -Wextra -pedantic -Werror -I. $D/vulkan_reflect.c -o "$T_TMP/refl" 2>"$T_TMP/err"; then
  check "a C program without LLVM reads the reflection (reduce)" sh -c "[ \"\$('$T_TMP/refl' '$T_TMP/r.spv')\" = 'reduce: local 64,1,1; workgroup 256 bytes; push 0 bytes; set 0 binding 0 stride 4 ro set 0 binding 1 stride 4 rw' ]"
  check "... (entries)" sh -c "'$T_TMP/refl' '$T_TMP/e.spv' | grep -q '^scale: local 32,1,1; workgroup 0 bytes; push 8 bytes \[0+4\] \[4+4\]; set 0 binding 0 stride 4 rw\$'"
  check "... and says what is not a module" sh -c "! '$T_TMP/refl' $K/saxpy_vulkan.ll >/dev/null"
else
  fail "the reflection reader alone does not compile: $(head -1 "$T_TMP/err")"
fi
printf '#define GPUCOMPILE_VULKAN_IMPLEMENTATION\n#include "gpucompile_vulkan.h"\n' > "$T_TMP/alone.c"
rc=0; ${CC:-cc} -I. -c "$T_TMP/alone.c" -o "$T_TMP/alone.o" 2>"$T_TMP/err" || rc=$?
check "the backend without gpucompile.h: a clear #error" sh -c "[ $rc != 0 ] && grep -q 'the backend needs gpucompile.h included first' '$T_TMP/err'"
mkdir -p "$T_TMP/c"
"$G" --cache-dir "$T_TMP/c" -t '#gpu.vulkan' -f bin $K/saxpy_vulkan.ll -o /dev/null
check "from the cache: the same reflection" sh -c "'$G' --cache-dir '$T_TMP/c' -v -t '#gpu.vulkan' -f bin $K/saxpy_vulkan.ll -o /dev/null 2>&1 | \
  grep -A1 'from the cache' | grep -q 'kernel saxpy' && '$G' --cache-dir '$T_TMP/c' -v -t '#gpu.vulkan' -f bin $K/saxpy_vulkan.ll -o /dev/null 2>&1 | grep -q 'workgroup_size = array<i32: 64, 1, 1>'"
# ---- the target's lists decide
rc=0; "$G" --no-cache -t '#gpu.vulkan<features = "-Int64">' -f bin $D/vulkan_int64.ll -o /dev/null 2>"$T_TMP/err" || rc=$?
check "#gpu.vulkan<features = \"-Int64\">: refused naming Int64" sh -c "[ $rc = 1 ] && grep -q 'needs the SPIR-V capability Int64, which the target does not allow' '$T_TMP/err'"
rc=0; "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>' -f bin $D/vulkan_int64.ll -o /dev/null 2>"$T_TMP/err" || rc=$?
check "#spirv.target_env without Int64: refused naming it" sh -c "[ $rc = 1 ] && grep -q 'capability Int64, which the target does not allow (add it to #spirv.vce' '$T_TMP/err'"
rc=0; "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader, AtomicFloat32AddEXT], []>, #spirv.resource_limits<>>' -f bin $D/vulkan_atomics.ll -o /dev/null 2>"$T_TMP/err" || rc=$?
check "an extension not listed: refused naming it" sh -c "[ $rc = 1 ] && grep -q 'extension SPV_EXT_shader_atomic_float_add, which the target does not allow' '$T_TMP/err'"
for k in $K/saxpy_vulkan.ll $K/reduce_vulkan.ll $D/vulkan_grid2d.ll $D/vulkan_entries.ll; do
  check "[Shader] alone: $(basename $k) (no Int8 for the names, no Int64 for the optimizer's byte offsets), spirv-val" sh -c "'$G' --no-cache \
    -t '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>' -f bin $k -o '$T_TMP/sh.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/sh.spv'"
done
# ---- what LLVM 22 crashes on or writes invalid: refused before it, in this process, exit 1
for b in gep_getpointer:"getelementptr on llvm.spv.resource.getpointer" null_name:"a resource's name must be a private constant string" \
         no_numthreads:"needs \"hlsl.numthreads\"" fence:"invalid OpMemoryBarrier" two_push:"two push-constant blocks" \
         two_types:"a binding is used with two types" undefined:"undefined function '__spirv_ControlBarrier'" \
         wg_init:"workgroup memory cannot be given initial values" atomic64_nand:"a 64-bit atomic outside a buffer and workgroup memory, or a nand"; do
  f=$D/vulkan_bad_${b%%:*}.ll; want=${b#*:}
  rc=0; "$G" --in-process --no-cache -t '#gpu.vulkan' -f bin "$f" -o "$T_TMP/bad.spv" 2>"$T_TMP/err" || rc=$?
  if [ $rc = 1 ] && grep -qF -- "$want" "$T_TMP/err" && grep -q "function 'k'\|globals 'pa' and 'pb'\|undefined function\|global 'tile'" "$T_TMP/err" && [ ! -e "$T_TMP/bad.spv" ]; then
    ok "refused: ${b%%:*} (exit 1, in process)"
  else
    fail "refused: ${b%%:*} (exit $rc): $(head -1 "$T_TMP/err")"
  fi
done
# a module of helpers and no kernel: LLVM 22 writes a library (Linkage), which no device loads
printf 'target triple = "spirv64"\ndefine spir_func float @twice(float %%x) {\n  %%y = fadd float %%x, %%x\n  ret float %%y\n}\n' > "$T_TMP/lib.ll"
rc=0; "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/lib.ll" -o "$T_TMP/lib.spv" 2>"$T_TMP/err" || rc=$?
check "no kernel: refused as such (exit 1), nothing written" sh -c "[ $rc = 1 ] && grep -q 'the module has no kernel' '$T_TMP/err' && [ ! -e '$T_TMP/lib.spv' ]"
rc=0; "$G" --no-cache -t '#gpu.vulkan' -f bin $D/vulkan_bad_gep_getpointer.ll -o /dev/null 2>/dev/null; llc $D/vulkan_bad_gep_getpointer.ll -filetype=obj -o /dev/null 2>/dev/null || rc=$?
check "(LLVM 22 alone crashes on the getpointer getelementptr: signal)" [ "$rc" -gt 128 ]
for f in vulkan_cmpxchg vulkan_atomic64; do
  rc=0; llc $D/$f.ll -filetype=obj -o /dev/null 2>/dev/null || rc=$?
  check "(LLVM 22 alone dies on $f: signal)" [ "$rc" -gt 128 ]
done
# ---- a cmpxchg: written as llvm.spv.cmpxchg, its { old, success } result repaired (both formats)
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_cmpxchg.ll -o "$T_TMP/cas.spv" 2>"$T_TMP/casv"
check "cmpxchg: compiled (-v says so), spirv-val, one OpAtomicCompareExchange at scope Device" sh -c \
  "grep -q '1 cmpxchg written as llvm.spv.cmpxchg' '$T_TMP/casv' && spirv-val --target-env vulkan1.3 '$T_TMP/cas.spv' && \
   spirv-dis '$T_TMP/cas.spv' | grep -q 'OpAtomicCompareExchange %uint %[0-9]* %uint_1 '"
check "... the isa text the same repairs: spirv-as and spirv-val take it" sh -c "'$G' --no-cache -t '#gpu.vulkan' -f isa $D/vulkan_cmpxchg.ll -o '$T_TMP/cas.s' && \
  spirv-as --target-env vulkan1.3 '$T_TMP/cas.s' -o '$T_TMP/cas2.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/cas2.spv' && grep -q OpSelect '$T_TMP/cas.s'"
# ---- a one-lane vector read from a private array of float2 (darktable's liquify.cl): LLVM 22 died
# on the vector of vectors the rewrite made (a fatal error: in process, the host's end)
rc=0; "$G" --in-process --no-cache -t '#gpu.vulkan' -f bin $D/vulkan_one_lane.ll -o "$T_TMP/ol.spv" 2>"$T_TMP/err" || rc=$?
check "vulkan_one_lane.ll: compiled in process, spirv-val (no one-lane vector)" sh -c "[ $rc = 0 ] && spirv-val --target-env vulkan1.3 '$T_TMP/ol.spv'"
# ---- a 64-bit atomic: a marked load and store before LLVM, OpAtomicIAdd of a ulong after (both formats)
"$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_atomic64.ll -o "$T_TMP/a64.spv" 2>"$T_TMP/a64v"
check "64-bit atomic: compiled (-v says so), spirv-val, OpAtomicIAdd of a ulong, Int64Atomics declared" sh -c \
  "grep -q '1 64-bit atomic made again of marked loads and stores' '$T_TMP/a64v' && spirv-val --target-env vulkan1.3 '$T_TMP/a64.spv' && \
   spirv-dis '$T_TMP/a64.spv' | grep -q 'OpAtomicIAdd %ulong %[0-9]* %uint_1 %uint_16' && spirv-dis '$T_TMP/a64.spv' | grep -q 'OpCapability Int64Atomics'"
check "... the isa text too: spirv-as and spirv-val take it" sh -c "'$G' --no-cache -t '#gpu.vulkan' -f isa $D/vulkan_atomic64.ll -o '$T_TMP/a64.s' && \
  spirv-as --target-env vulkan1.3 '$T_TMP/a64.s' -o '$T_TMP/a642.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/a642.spv' && grep -q 'OpCapability Int64Atomics' '$T_TMP/a64.s'"
rc=0; "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader, Int64], []>, #spirv.resource_limits<>>' -f bin $D/vulkan_atomic64.ll -o /dev/null 2>"$T_TMP/err" || rc=$?
check "... a target without Int64Atomics: refused naming it" sh -c "[ $rc = 1 ] && grep -q 'a 64-bit atomic needs the SPIR-V capability Int64Atomics' '$T_TMP/err'"
# ---- a select of opposites on a product compared with zero (pyFAI's separate.cl: OpenCL's round of
# a product): LLVM 22 made it FaceForward and died; written with the inverse comparison first
rc=0; "$G" --no-cache -v -t '#gpu.vulkan' -f bin $D/vulkan_faceforward.ll -o "$T_TMP/ff.spv" 2>"$T_TMP/ffv" || rc=$?
check "vulkan_faceforward.ll: compiled (-v says the select was rewritten), spirv-val, no FaceForward" sh -c \
  "[ $rc = 0 ] && grep -q '1 select of a product compared with zero written with the inverse comparison' '$T_TMP/ffv' && \
   spirv-val --target-env vulkan1.3 '$T_TMP/ff.spv' && ! spirv-dis '$T_TMP/ff.spv' | grep -q FaceForward"
# ---- pointer kernels (OpenCL C from clang): rewritten into the Vulkan shape
if command -v clang >/dev/null 2>&1 && command -v spirv-val >/dev/null 2>&1; then
  clang -cl-std=CL2.0 -target spirv64 -O0 -Xclang -disable-O0-optnone -emit-llvm -S tests/run/vulkan/pointer_kernels.cl -o "$T_TMP/pk.ll"
  "$G" -v -t '#gpu.vulkan' -f bin "$T_TMP/pk.ll" -o "$T_TMP/pk.spv" > "$T_TMP/pk.log" 2>&1; rc=$?
  check "OpenCL C pointer kernels for #gpu.vulkan: compiled, spirv-val --target-env vulkan1.3" sh -c "[ $rc = 0 ] && spirv-val --target-env vulkan1.3 '$T_TMP/pk.spv'"
  check "... -v says they were rewritten" grep -q 'kernels rewritten into the Vulkan shape' "$T_TMP/pk.log"
  check "... without a warning: spirv64 (clang's OpenCL C) is the backend's documented input" sh -c "! grep -q 'warning' '$T_TMP/pk.log'"
  sed 's/^target triple = .*/target triple = "x86_64-pc-linux-gnu"/' examples/kernels/saxpy_vulkan.ll > "$T_TMP/x86.ll"
  "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/x86.ll" -o /dev/null 2> "$T_TMP/err"
  check "... another architecture's triple still warns" grep -q "warning: the module's triple 'x86_64-pc-linux-gnu' names another target than 'spirv1.6-unknown-vulkan1.3-compute'" "$T_TMP/err"
  check "... and in the kernel metadata" grep -q 'parameters = "p0:4 b0 b1 p4:4"' "$T_TMP/pk.log"
  check "... the parameters' order is in the module (OpModuleProcessed)" sh -c "spirv-dis '$T_TMP/pk.spv' | grep -q 'OpModuleProcessed \"gpucompile.params saxpy p0:4 b0 b1 p4:4\"'"
  check "each kernel's bindings its own, from 0, in set 0 (nine kernels, 15 buffers: the highest binding 1)" sh -c \
    "spirv-dis '$T_TMP/pk.spv' > '$T_TMP/pk.txt' && [ \"\$(sed -n 's/.* Binding \([0-9]*\)\$/\1/p' '$T_TMP/pk.txt' | sort -n | tail -1)\" = 1 ] && \
     [ \"\$(grep -c ' DescriptorSet 0\$' '$T_TMP/pk.txt')\" = \"\$(grep -c ' Binding ' '$T_TMP/pk.txt')\" ]"
  check "each entry point's interface only its own variables (LLVM 22 lists the module's all in each)" sh -c \
    "[ \"\$(grep 'OpEntryPoint.*%scalars ' '$T_TMP/pk.txt' | wc -w)\" = 6 ] && \
     [ \"\$(grep -c 'OpEntryPoint.* %grid2d_arg0' '$T_TMP/pk.txt')\" = 1 ] && [ \"\$(grep 'OpEntryPoint.*%saxpy ' '$T_TMP/pk.txt' | wc -w)\" = 8 ]"
  "$G" -t '#gpu.vulkan<flags = {workgroup_size = "32,2,1"}>' -f bin "$T_TMP/pk.ll" -o "$T_TMP/pk2.spv" -v > "$T_TMP/pk2.log" 2>&1
  check "flags workgroup_size: a kernel without reqd_work_group_size gets it" sh -c "grep -A1 'kernel blur:' '$T_TMP/pk2.log' | grep -q 'workgroup_size = array<i32: 32, 2, 1>'"
  check "... compiled in: no size set at launch" sh -c "! grep -A1 'kernel blur:' '$T_TMP/pk2.log' | grep -q 'launch_sizes'"
  for w in 12 0 64; do
    rc=0; "$G" --no-cache -t "#gpu.vulkan<flags = {warp_size = \"$w\"}>" -f bin "$T_TMP/pk.ll" -o "$T_TMP/pk3.spv" 2>"$T_TMP/err" || rc=$?
    check "flags warp_size = \"$w\" (CUDA's warp: a power of two up to 32): refused naming the flag" sh -c \
      "[ $rc = 1 ] && grep -q 'flag warp_size: the lanes of CUDA.s warp, a power of two up to 32' '$T_TMP/err' && [ ! -e '$T_TMP/pk3.spv' ]"
  done
  check "flags warp_size = \"8\": taken (a kernel without warp functions needs no sub-group size)" sh -c \
    "'$G' --no-cache -t '#gpu.vulkan<flags = {warp_size = \"8\"}>' -f bin '$T_TMP/pk.ll' -o '$T_TMP/pk3.spv' && cmp -s '$T_TMP/pk3.spv' '$T_TMP/pk.spv'"
  # CUDA-style IR (NVVM's ids, barrier and warp functions) through the command line; an NVVM
  # intrinsic the lowering does not map refused by name before LLVM's code generator
  check "CUDA-style IR (tests/data/vulkan_warps_nvptx.ll) for a warp of 8: compiled without a warning of its triple, spirv-val, its sub-group size recorded" sh -c \
    "'$G' --no-cache -t '#gpu.vulkan<flags = {warp_size = \"8\"}>' -f bin $D/vulkan_warps_nvptx.ll -o '$T_TMP/warps.spv' 2>'$T_TMP/warps.err' && \
     ! grep -q 'names another target' '$T_TMP/warps.err' && \
     spirv-val --target-env vulkan1.3 '$T_TMP/warps.spv' && spirv-dis '$T_TMP/warps.spv' | grep -q 'OpModuleProcessed \"gpucompile.subgroup_size warps 8\"'"
  printf 'declare i32 @llvm.nvvm.read.ptx.sreg.clock()\ndefine ptx_kernel void @k(ptr addrspace(1) %%o) {\n  %%c = call i32 @llvm.nvvm.read.ptx.sreg.clock()\n  store i32 %%c, ptr addrspace(1) %%o\n  ret void\n}\n' > "$T_TMP/clock.ll"
  rc=0; "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/clock.ll" -o "$T_TMP/clock.spv" 2>"$T_TMP/err" || rc=$?
  check "... an NVVM intrinsic the lowering does not map (%clock): refused naming it, nothing written" sh -c \
    "[ $rc = 1 ] && grep -q 'llvm.nvvm.read.ptx.sreg.clock.*an NVVM intrinsic the pointer-kernel lowering does not map' '$T_TMP/err' && [ ! -e '$T_TMP/clock.spv' ]"
  check "without the flag: its workgroup size is set at launch (the metadata's launch_sizes)" sh -c \
    "grep -A1 'kernel blur:' '$T_TMP/pk.log' | grep -q 'launch_sizes = \"local_size_x=0 local_size_y=1 local_size_z=2\"'"
  check "... a local parameter's array too (shared=SPECID/4)" sh -c "grep -A1 'kernel sized_reduce:' '$T_TMP/pk.log' | grep -q 'shared=[0-9]*/4\"'"
  check "... a kernel with reqd_work_group_size keeps LocalSize" sh -c "spirv-dis '$T_TMP/pk.spv' | grep -q 'OpExecutionMode %saxpy LocalSize 64 1 1' && \
    spirv-dis '$T_TMP/pk.spv' | grep -q 'OpExecutionModeId %blur LocalSizeId'"
  # only the capabilities the kernel's own code needs: OpenCL's 64-bit size_t computed in 32 bits
  # (size_t i: saxpy; int i: the optimizer's sign extension, shl and ashr of 64 bits, as silx's addition.cl has it)
  printf 'kernel void saxpy(int n, float a, global const float *x, global float *y) {\n  size_t i = get_global_id(0);\n  if (i < n) y[i] = a * x[i] + y[i];\n}\n' > "$T_TMP/saxpy.cl"
  printf 'kernel void add(global const float *a, global const float *b, global float *c, int n) {\n  int i = get_global_id(0);\n  if (i < n) c[i] = a[i] + b[i];\n}\n' > "$T_TMP/add.cl"
  for k in saxpy add; do for t in spirv64 spirv32; do
    clang -cl-std=CL2.0 -target $t -O2 -emit-llvm -S "$T_TMP/$k.cl" -o "$T_TMP/saxpy.ll"
    "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/saxpy.ll" -o "$T_TMP/saxpy.spv"
    check "$k (clang -target $t -O2): valid, Shader its only capability (no Int64, Int8, Int16)" sh -c \
      "spirv-val --target-env vulkan1.3 '$T_TMP/saxpy.spv' && [ \"\$(spirv-dis '$T_TMP/saxpy.spv' | grep -c OpCapability)\" = 1 ] && spirv-dis '$T_TMP/saxpy.spv' | grep -q 'OpCapability Shader'"
  done; done
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S tests/run/kernels.cl -o "$T_TMP/rk.ll" && llvm-link -S "$T_TMP/rk.ll" $D/mylib.ll -o "$T_TMP/rkl.ll"
  "$G" --no-cache -t '#gpu.vulkan<chip = "android">' -f bin "$T_TMP/rkl.ll" -o "$T_TMP/rk.spv"
  check "tests/run/kernels.cl (six kernels; size_t loop counters halved): valid, Shader its only capability, for chip \"android\" too" sh -c \
    "spirv-val --target-env vulkan1.3 '$T_TMP/rk.spv' && [ \"\$(spirv-dis '$T_TMP/rk.spv' | grep OpCapability)\" = '               OpCapability Shader' ]"
  printf 'kernel void add(global long *x, long v) { x[get_global_id(0)] += v; }\n' > "$T_TMP/longs.cl"
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$T_TMP/longs.cl" -o "$T_TMP/longs.ll"
  "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/longs.ll" -o "$T_TMP/longs.spv"
  check "... a long buffer keeps Int64" sh -c "spirv-val --target-env vulkan1.3 '$T_TMP/longs.spv' && spirv-dis '$T_TMP/longs.spv' | grep -q 'OpCapability Int64'"
  # chip = "android": what Android's baseline devices have; what they lack refused by name before code generation
  check "#gpu.vulkan<chip = \"android\">: printed as written" [ "$("$G" --print-target '#gpu.vulkan<chip = "android">')" = '#gpu.vulkan<chip = "android">' ]
  "$G" --no-cache -t '#gpu.vulkan<chip = "android">' -f bin "$T_TMP/saxpy.ll" -o "$T_TMP/saxpy_android.spv"
  check "... saxpy: the same module as for bare #gpu.vulkan (Shader only)" cmp -s "$T_TMP/saxpy.spv" "$T_TMP/saxpy_android.spv"
  "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<>>' \
    -f bin "$T_TMP/saxpy.ll" -o "$T_TMP/saxpy_env.spv"
  check "... and as for its #spirv.target_env spelling (docs/formats.md)" cmp -s "$T_TMP/saxpy_env.spv" "$T_TMP/saxpy_android.spv"
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S $D/vulkan_many_scalars.cl -o "$T_TMP/many.ll"
  check "vulkan_many_scalars.cl (164 bytes of scalars), chip = \"android\" too: the uniform buffer at binding 1, valid, in the metadata" sh -c \
    "'$G' --no-cache -t '#gpu.vulkan<chip = \"android\">' -f bin '$T_TMP/many.ll' -o '$T_TMP/many.spv' --emit-text '$T_TMP/many.txt' && \
     spirv-val --target-env vulkan1.3 '$T_TMP/many.spv' && spirv-dis '$T_TMP/many.spv' | grep -q 'OpModuleProcessed \"gpucompile.uniforms 0 1\"' && \
     grep -q 'uniform_binding = 1 : i32, uniform_bytes = 164 : i32' '$T_TMP/many.txt' && ! grep -q push_constant '$T_TMP/many.txt'"
  printf 'kernel void c(global char *x) { x[get_global_id(0)] += 1; }\n' > "$T_TMP/chars.cl"
  printf 'kernel __attribute__((reqd_work_group_size(64, 1, 1))) void big(global float *x) {\n  local float t[8192];\n  size_t i = get_local_id(0);\n  t[i * 128] = x[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  x[i] = t[(63 - i) * 128];\n}\n' > "$T_TMP/big.cl"
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$T_TMP/chars.cl" -o "$T_TMP/chars.ll"
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$T_TMP/big.cl" -o "$T_TMP/big.ll"
  for c in "longs|chip = \"android\"|function 'add': .*: a 64-bit integer needs the SPIR-V capability Int64, which the target does not allow (chip \"android\"" \
           "chars|chip = \"android\"|function 'c': .*load i8, ptr addrspace(11).*: an 8-bit integer needs the SPIR-V capability Int8" \
           "chars|chip = \"android\", features = \"+Int8\"|function 'c': .*load i8.*: an 8-bit value in a storage buffer needs the SPIR-V capability StorageBuffer8BitAccess" \
           "big|chip = \"android\"|function 'big': 32768 bytes of workgroup memory; the target's devices have 16384 (chip \"android\")"; do
    k=${c%%|*}; rest=${c#*|}; a=${rest%%|*}; want=${rest#*|}
    rc=0; "$G" --in-process --no-cache -t "#gpu.vulkan<$a>" -f bin "$T_TMP/$k.ll" -o "$T_TMP/refused.spv" 2>"$T_TMP/err" || rc=$?
    check "#gpu.vulkan<$a>: $k refused before code generation, by name" sh -c '[ "$1" = 1 ] && grep -q -- "$2" "$3" && [ ! -e "$4" ]' _ "$rc" "$want" "$T_TMP/err" "$T_TMP/refused.spv"
  done
  rc=0; "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>' -f bin "$T_TMP/longs.ll" -o /dev/null 2>"$T_TMP/err" || rc=$?
  check "#spirv.target_env without Int64: the same refusal, naming the function and the instruction" sh -c \
    "[ $rc = 1 ] && grep -q \"function 'add': .*Int64, which the target does not allow (add it to #spirv.vce's capabilities)\" '$T_TMP/err'"
  rc=0; "$G" --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<max_compute_shared_memory_size = 65536>>' -f bin "$T_TMP/big.ll" -o "$T_TMP/big.spv" 2>"$T_TMP/err" || rc=$?
  check "... its max_compute_shared_memory_size read (65536: 32 KiB taken; MLIR's default, 16384, refuses it)" sh -c \
    "[ $rc = 0 ] && ! '$G' --no-cache -t '#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>' -f bin '$T_TMP/big.ll' -o /dev/null 2>/dev/null"
  printf 'kernel void k(global int *p, global int * global *q) { *q = p; }\n' > "$T_TMP/bad.cl"
  clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$T_TMP/bad.cl" -o "$T_TMP/bad.ll"
  "$G" -t '#gpu.vulkan' -f bin "$T_TMP/bad.ll" -o /dev/null 2> "$T_TMP/err"; rc=$?
  check "a pointer stored to memory: refused before LLVM, naming the function and the instruction" sh -c \
    "[ $rc = 1 ] && grep -q \"function 'k': .store ptr addrspace(1).*a pointer stored to memory\" '$T_TMP/err'"
  # OpenCL images (tests/test_vulkan_images.c runs them): valid modules at -O2 and -O0, as bin and as isa
  for o in O2 O0; do
    clang -cl-std=CL2.0 -target spirv64 -$o -emit-llvm -S $D/vulkan_images.cl -o "$T_TMP/img$o.ll"
    check "vulkan_images.cl (-$o): image bindings, samplers, size queries: spirv-val" sh -c \
      "'$G' --no-cache -t '#gpu.vulkan' -f bin '$T_TMP/img$o.ll' -o '$T_TMP/img$o.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/img$o.spv'"
  done
  check "... as isa through spirv-as: valid, no Linkage left" sh -c "'$G' --no-cache -t '#gpu.vulkan' -f isa '$T_TMP/imgO2.ll' -o '$T_TMP/img.s' && \
    spirv-as --target-env vulkan1.3 '$T_TMP/img.s' -o '$T_TMP/img_s.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/img_s.spv' && ! grep -q 'Linkage' '$T_TMP/img.s'"
  check "... sampled at level 0, sizes queried, no image read without a format" sh -c "spirv-dis '$T_TMP/imgO2.spv' > '$T_TMP/img.dis' && \
    grep -q 'OpImageSampleExplicitLod .* Lod ' '$T_TMP/img.dis' && grep -q 'OpImageQuerySizeLod' '$T_TMP/img.dis' && grep -q 'OpImageQuerySize ' '$T_TMP/img.dis' && \
    ! grep -q 'StorageImageReadWithoutFormat\|OpCapability Linkage' '$T_TMP/img.dis'"
  "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/imgO2.ll" -o /dev/null --emit-text "$T_TMP/img.txt"
  check "... the metadata: blur's parameters (image and sampler, sampler, storage image, buffer) and its bindings' kinds" sh -c \
    "grep -q 'parameters = \"i0:s1+1 s i2 b3\"' '$T_TMP/img.txt' && grep -q 'dim = \"2D\", image = \"image_sampler\"' '$T_TMP/img.txt' && \
     grep -q 'dim = \"3D\", image = \"sampled_image\"' '$T_TMP/img.txt' && grep -q 'dim = \"2DArray\", image = \"sampled_image\"' '$T_TMP/img.txt'"
  check "... channels' parameters: each image's words at their push-constant offset, between the scalar's (i@O alone: five words, i0@O with a binding: one)" \
    grep -q 'parameters = "i@0 p20:4 i0@24 i@28 b1 i@48"' "$T_TMP/img.txt"
  # what stays refused, by name
  for c in "#pragma OPENCL EXTENSION cl_khr_gl_msaa_sharing : enable\nkernel void k(read_only image2d_msaa_t a, global float4 *o) { *o = read_imagef(a, (int2)(0), 1); }|parameter 0: a multisampled image (not yet on Vulkan"; do
    printf "${c%%|*}\n" > "$T_TMP/ri.cl"; rm -f "$T_TMP/ri.spv"
    clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$T_TMP/ri.cl" -o "$T_TMP/ri.ll" 2>/dev/null
    rc=0; "$G" --no-cache -t '#gpu.vulkan' -f bin "$T_TMP/ri.ll" -o "$T_TMP/ri.spv" 2>"$T_TMP/err" || rc=$?
    check "refused by name: ${c#*|}" sh -c '[ "$1" = 1 ] && grep -q -- "$2" "$3" && [ ! -e "$4" ]' _ "$rc" "${c#*|}" "$T_TMP/err" "$T_TMP/ri.spv"
  done
  # atomics of 1024 work-items in a buffer and in workgroup memory, on the device: compare-and-swap
  # loops (32-bit), 64-bit ones, and OpenCL 2.0's functions (a file ending _cl20: OpenCL C 2.0);
  # async copies; sub-groups (the last: its module is the next checks')
  R=$(dirname "$G")/tests/piglit_run
  for a in cas:"atomic_cmpxchg in buffers and workgroup memory" atomic64:"64-bit atomics in buffers and workgroup memory" \
           volatile_wide:"volatile long16 and int8 split lane by lane, a private variable's address aligned" \
           select_offset:"an element chosen between two byte offsets" nan_tests:"NaN tests (no OpUnordered in a shader)" \
           atomics_cl20:"OpenCL 2.0's atomic functions in buffers and workgroup memory" async_copy:"async copies in and out of workgroup memory" \
           narrow_cl20:"size_t's loop counters, offsets and bit counts in 32 bits" vec3:"vload3 and vstore3 lane by lane, arrays of float3 in private and workgroup memory" subgroups_cl20:"OpenCL's sub-group functions"; do
    f=vulkan_${a%%:*}.cl std=CL1.2
    case $f in *_cl20.cl) std=CL2.0 ;; esac
    clang -cl-std=$std -target spirv64 -O2 -Xclang -finclude-default-header -emit-llvm -S $D/$f -o "$T_TMP/a.ll"
    check "$f (${a#*:}): compiled, spirv-val" sh -c \
      "'$G' --no-cache -t '#gpu.vulkan' -f bin '$T_TMP/a.ll' -o '$T_TMP/a.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/a.spv'"
    [ $f = vulkan_narrow_cl20.cl ] && check "... Shader its only capability (no Int64)" sh -c \
      "[ \"\$(spirv-dis '$T_TMP/a.spv' | grep OpCapability)\" = '               OpCapability Shader' ]"
    if [ -x "$R" ] && GPUCOMPILE_VULKAN_VALIDATION=1 "$R" "$T_TMP/a.spv" $D/$f > "$T_TMP/arun" 2>&1 && ! grep -qv '^PASS' "$T_TMP/arun"; then ok "... right on the device (the values of its comment), the validation layer quiet"
    elif [ -x "$R" ] && grep -q 'no Vulkan device\|cannot be loaded' "$T_TMP/arun"; then skip "$f on a device: $(head -1 "$T_TMP/arun")"
    elif [ -x "$R" ]; then fail "$f on the device: $(grep -v '^PASS' "$T_TMP/arun" | head -1)"
    else skip "$f on a device: no $R"; fi
  done
  # sub-groups where the target has none or not all: refused by name
  printf '#pragma OPENCL EXTENSION cl_khr_subgroups : enable\nkernel void k(global int *o) { o[get_global_id(0)] = sub_group_reduce_add(o[0]); }\n' > "$T_TMP/sg.cl"
  clang -cl-std=CL2.0 -target spirv64 -O2 -Xclang -finclude-default-header -emit-llvm -S "$T_TMP/sg.cl" -o "$T_TMP/sg.ll"
  rc=0; "$G" --no-cache -t '#gpu.vulkan<chip = "android">' -f bin "$T_TMP/sg.ll" -o "$T_TMP/sg.spv" 2>"$T_TMP/err" || rc=$?
  check "sub-group reductions for chip android (its baseline has GroupNonUniform alone): refused naming the capability" sh -c \
    "[ $rc = 1 ] && grep -q 'GroupNonUniformArithmetic' '$T_TMP/err' && [ ! -e '$T_TMP/sg.spv' ]"
  rc=0; "$G" --no-cache -t '#gpu.webgpu' -f bin "$T_TMP/a.ll" -o "$T_TMP/sg.spv" 2>"$T_TMP/err" || rc=$?
  check "sub-groups for #gpu.webgpu: refused by name" sh -c "[ $rc = 1 ] && grep -q 'sub-groups: not on this target' '$T_TMP/err' && [ ! -e '$T_TMP/sg.spv' ]"
  check "vulkan_dead_table.ll: a constant table named only by unused constant expressions deleted (spirv-val, no array in UniformConstant)" sh -c \
    "'$G' --no-cache -t '#gpu.vulkan' -f bin $D/vulkan_dead_table.ll -o '$T_TMP/dt.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/dt.spv' && \
     ! spirv-dis '$T_TMP/dt.spv' | grep -q 'OpVariable %_ptr_UniformConstant__arr'"
  # structured control flow: LLVM 22's SPIR-V structurizer wrote merges spirv-val rejects for each
  # (or crashed); LLVM's own passes before it and its code generator unoptimized make them valid
  for f in $D/vulkan_cf_*.cl; do
    clang -cl-std=CL1.2 -target spirv64 -O2 -Xclang -finclude-default-header -emit-llvm -c "$f" -o "$T_TMP/cf.bc"
    check "$(basename "$f"): compiled, spirv-val" sh -c \
      "'$G' --no-cache -t '#gpu.vulkan' -f bin '$T_TMP/cf.bc' -o '$T_TMP/cf.spv' && spirv-val --target-env vulkan1.3 '$T_TMP/cf.spv'"
  done
else
  skip "vulkan pointer kernels: no clang or spirv-val"
fi
tally cli_vulkan
