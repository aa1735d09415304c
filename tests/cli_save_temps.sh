# --save-temps: every stage on disk per target, and repro.sh redoing the compile with LLVM's own
# tools (llvm-link, opt, llc, then ptxas / ld.lld as gpucompile ran them) gives the same PTX and
# the same hsaco; a failed compile keeps its stages and the tool's errors name the saved file.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
K=examples/kernels
NV='#gpu.nvptx<chip = "sm_90">' AMD='#gpu.amdgpu<chip = "gfx90a">'
PTXAS=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
for k in saxpy reduce math; do
    S="$T_TMP/s_nv_$k"
    "$GPUCOMPILE" -t "$NV" -f isa "$K/${k}_nvptx.ll" -o "$T_TMP/$k.ptx" --save-temps "$S"
    D="$S/${k}_nvptx.sm_90.isa"
    check "$k NVPTX: input, linked, optimized IR, ISA, binary and repro.sh saved" sh -c "cd '$D' && ls input.ll linked.ll optimized.ll isa.s binary.isa repro.sh target.txt >/dev/null"
    check "$k NVPTX: the saved ISA is the output" cmp -s "$D/isa.s" "$T_TMP/$k.ptx"
    sh "$D/repro.sh" > "$T_TMP/repro.log" 2>&1
    check "$k NVPTX: repro.sh gives the same PTX" cmp -s "$D/repro.isa.s" "$T_TMP/$k.ptx"
    S="$T_TMP/s_amd_$k"
    "$GPUCOMPILE" -t "$AMD" "$K/${k}_amdgpu.ll" -o "$T_TMP/$k.hsaco" --save-temps "$S"
    D="$S/${k}_amdgpu.gfx90a.bin"
    check "$k AMDGPU: object, its assembly and the ld.lld log saved" sh -c "cd '$D' && ls object.o isa.s binary.bin tool-1-ld.lld*.log >/dev/null"
    sh "$D/repro.sh" > "$T_TMP/repro.log" 2>&1
    check "$k AMDGPU: repro.sh gives the same hsaco" sh -c "cmp -s '$T_TMP/$k.hsaco' \"\$(ls '$D'/repro.t*.hsaco)\""
done
"$GPUCOMPILE" --in-process -t "$NV" -f isa "$K/saxpy_nvptx.ll" -o "$T_TMP/ip.ptx" --save-temps "$T_TMP/s_ip"
check "in process: the same files" cmp -s "$T_TMP/s_ip/saxpy_nvptx.sm_90.isa/isa.s" "$T_TMP/ip.ptx"
check "--save-temps bypasses the cache (nothing stored)" test ! -e "$XDG_CACHE_HOME/gpucompile" -o -z "$(ls "$XDG_CACHE_HOME/gpucompile" 2>/dev/null)"

if [ -x "$PTXAS" ]; then
    printf 'target triple = "nvptx64-nvidia-cuda"\ndefine ptx_kernel void @k(ptr addrspace(1) %%p) {\n  call void asm sideeffect "bogus.instr;", ""()\n  ret void\n}\n' > "$T_TMP/bad.ll"
    "$GPUCOMPILE" -t "$NV" --bin-method ptxas "$T_TMP/bad.ll" -o "$T_TMP/bad.cubin" --save-temps "$T_TMP/s_bad" 2>"$T_TMP/err"; rc=$?
    D="$T_TMP/s_bad/bad.sm_90.bin"
    check "a ptxas failure: exit 1, no output" sh -c "[ $rc -eq 1 ] && [ ! -e '$T_TMP/bad.cubin' ]"
    check "a ptxas failure: the stages up to it and repro.sh are kept" sh -c "cd '$D' && ls input.ll linked.ll optimized.ll isa.s repro.sh >/dev/null"
    line=$(sed -n "s|.*ptxas $D/isa.s, line \([0-9]*\);.*|\1|p" "$T_TMP/err" | head -n 1)
    check "a ptxas failure: its error names the saved isa.s and the line with the bad instruction" sh -c "[ -n '$line' ] && sed -n '${line}p' '$D/isa.s' | grep -q bogus"
    check "a ptxas failure: repro.sh reruns ptxas, which fails the same way" sh -c "! sh '$D/repro.sh' > '$T_TMP/rerr' 2>&1 && grep -q 'repro.isa.s, line $line;' '$T_TMP/rerr'"
    "$GPUCOMPILE" -t "$NV" --bin-method nvjitlink "$T_TMP/bad.ll" -o "$T_TMP/bad.cubin" --save-temps "$T_TMP/s_badj" 2>"$T_TMP/errj"
    D="$T_TMP/s_badj/bad.sm_90.bin"
    line=$(sed -n 's|.*ptx input, line \([0-9]*\);.*|\1|p' "$T_TMP/errj" | head -n 1)
    check "an nvJitLink failure: its error names the saved isa.s, whose line is the bad instruction" sh -c \
      "grep -q 'kept as $D/isa.s' '$T_TMP/errj' && [ -n '$line' ] && sed -n '${line}p' '$D/isa.s' | grep -q bogus"
else skip "a ptxas failure (no ptxas)"; fi
# A cubin by either method (nvJitLink in-process, the default below 512 KiB of PTX; ptxas):
# repro.sh redoes it, byte for byte
if [ -x "$PTXAS" ]; then
    for m in default nvjitlink ptxas; do
        S="$T_TMP/s_cubin_$m"
        "$GPUCOMPILE" --no-cache -t "$NV" $( [ $m = default ] || echo "--bin-method $m" ) "$K/saxpy_nvptx.ll" -o "$T_TMP/$m.cubin" --save-temps "$S"
        D="$S/saxpy_nvptx.sm_90.bin"
        sh "$D/repro.sh" > "$T_TMP/repro.log" 2>&1; rc=$?
        out=$(ls "$D"/repro.cubin "$D"/repro.t*.cubin 2>/dev/null | head -n 1)
        check "cubin ($m): repro.sh exits 0 and makes the same cubin" sh -c "[ $rc -eq 0 ] && [ -n '$out' ] && cmp -s '$T_TMP/$m.cubin' '$out'"
    done
    check "nvJitLink's cubin: repro.sh also names the equivalent ptxas line" grep -q '^# .*ptxas -arch=sm_90 -O2 -v repro.isa.s' "$T_TMP/s_cubin_nvjitlink/saxpy_nvptx.sm_90.bin/repro.sh"
else skip "cubins' repro.sh (no ptxas)"; fi
# AMDGPU -f bin saves its assembly too (a second code generation): an error of LLVM's there is
# printed once, as without --save-temps
{ echo 'target triple = "amdgcn-amd-amdhsa"'
  echo '@lds = internal addrspace(3) global [100000 x i32] poison, align 4'
  echo 'define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %i) {'
  echo '  %g = getelementptr [100000 x i32], ptr addrspace(3) @lds, i32 0, i32 %i'
  echo '  store volatile i32 1, ptr addrspace(3) %g'
  echo '  ret void'
  echo '}'; } > "$T_TMP/lds.ll"
"$GPUCOMPILE" --no-cache -t "$AMD" "$T_TMP/lds.ll" -o "$T_TMP/lds.hsaco" 2>"$T_TMP/err0"
"$GPUCOMPILE" --no-cache -t "$AMD" "$T_TMP/lds.ll" -o "$T_TMP/lds.hsaco" --save-temps "$T_TMP/s_lds" 2>"$T_TMP/err"; rc=$?
check "AMDGPU --save-temps, a code generation error (LDS over its limit): exit 1, printed once" \
  sh -c "[ $rc -eq 1 ] && [ \$(grep -c 'exceeds limit' '$T_TMP/err') -eq 1 ] && cmp -s '$T_TMP/err0' '$T_TMP/err'"
# Vulkan, in process: the assembly beside the object comes from a copy in a context and target
# machine of its own (LLVM 22's SPIR-V code generator, unoptimized, died generating code twice in
# one: signal 11)
if "$GPUCOMPILE" --print-target '#gpu.vulkan' >/dev/null 2>&1; then
    "$GPUCOMPILE" --in-process --no-cache -t '#gpu.vulkan' "$K/saxpy_vulkan.ll" -o "$T_TMP/v.spv" --save-temps "$T_TMP/s_vk"; rc=$?
    D="$T_TMP/s_vk/saxpy_vulkan.vulkan.bin"
    check "Vulkan --save-temps in process: exit 0, assembly, object and module saved" sh -c "[ $rc -eq 0 ] && cd '$D' && ls isa.s object.o binary.bin >/dev/null"
    check "Vulkan --save-temps: the module is valid" spirv-val --target-env vulkan1.3 "$T_TMP/v.spv"
else skip "Vulkan --save-temps (no SPIR-V target in this LLVM)"; fi
tally cli_save_temps.sh
