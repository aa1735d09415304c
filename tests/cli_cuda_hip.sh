# Modules as clang writes them for CUDA and HIP: dynamic shared memory (extern __shared__), the
# module's own PTX version, per-function features against the target, the cubin method and
# its fallback. Oracles: ptxas, llc-19 + ld.lld-19, llvm-readelf-19. CPU only.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
CUDA=${CUDA_PATH:-${CUDA_HOME:-/usr/local/cuda}}
D=tests/data
G="$GPUCOMPILE --no-cache"
SM80='#gpu.nvptx<chip = "sm_80">'
GFX='#gpu.amdgpu<chip = "gfx90a">'

# ---- dynamic shared memory, NVPTX ----
$G -t "$SM80" -f isa $D/dynshared_nvptx.ll -o "$T_TMP/dyn.ptx" 2>"$T_TMP/err"
check "extern __shared__ (NVPTX): PTX exit 0" test $? -eq 0
check "extern __shared__ (NVPTX): the PTX declares it as llc does" grep -q '^\.extern \.shared \.align 4 \.b8 smem\[\];' "$T_TMP/dyn.ptx"
llc-19 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 $D/dynshared_nvptx.ll -o "$T_TMP/llc.ptx"
check "extern __shared__ (NVPTX): the same declaration in llc-19's PTX" \
  test "$(grep '^\.extern \.shared' "$T_TMP/dyn.ptx")" = "$(grep '^\.extern \.shared' "$T_TMP/llc.ptx")"
sed 's/addrspace(3)/addrspace(1)/g' $D/dynshared_nvptx.ll > "$T_TMP/undef_global.ll"
$G -t "$SM80" -f isa "$T_TMP/undef_global.ll" -o "$T_TMP/undef.ptx" 2>"$T_TMP/err"
check "an external global outside shared memory: exit 1" test $? -eq 1
check "an external global outside shared memory: named" grep -q "undefined global 'smem'" "$T_TMP/err"
if [ -x "$CUDA/bin/ptxas" ]; then
  check "extern __shared__ (NVPTX): ptxas accepts the PTX" "$CUDA/bin/ptxas" -arch=sm_80 "$T_TMP/dyn.ptx" -o "$T_TMP/dyn.ptxas.cubin"
  for m in nvjitlink ptxas; do
    $G -v --bin-method $m -t "$SM80" $D/dynshared_nvptx.ll -o "$T_TMP/dyn_$m.cubin" 2>"$T_TMP/verr"
    check "extern __shared__ (NVPTX), $m: cubin exit 0" test $? -eq 0
    check "extern __shared__ (NVPTX), $m: both kernels in the cubin" \
      sh -c "llvm-readelf-19 -S '$T_TMP/dyn_$m.cubin' | grep -q ' .text._Z10swap_pairsPfPKf ' && llvm-readelf-19 -S '$T_TMP/dyn_$m.cubin' | grep -q ' .text._Z5scalePff '"
    check "extern __shared__ (NVPTX), $m: -v marks swap_pairs (through the function it calls)" \
      grep -q "kernel _Z10swap_pairsPfPKf: .*, dynamic shared memory (sized at launch)" "$T_TMP/verr"
    check "extern __shared__ (NVPTX), $m: -v does not mark scale" \
      sh -c "grep 'kernel _Z5scalePff:' '$T_TMP/verr' | grep -qv 'dynamic shared'"
  done
  C="$GPUCOMPILE --cache-dir $T_TMP/dyncache"
  $C -t "$SM80" $D/dynshared_nvptx.ll -o "$T_TMP/c1.cubin" && $C -v -t "$SM80" $D/dynshared_nvptx.ll -o "$T_TMP/c2.cubin" 2>"$T_TMP/verr"
  check "extern __shared__ (NVPTX): the mark comes back from the cache" \
    sh -c "grep -q 'from the cache' '$T_TMP/verr' && grep -q 'kernel _Z10swap_pairsPfPKf: .*dynamic shared' '$T_TMP/verr'"
else
  skip "NVPTX cubin checks: no ptxas at $CUDA/bin"
fi

# ---- dynamic shared memory (LDS), AMDGPU ----
$G -v -t "$GFX" $D/dynshared_amdgpu.ll -o "$T_TMP/dyn.hsaco" 2>"$T_TMP/verr"
check "extern __shared__ (AMDGPU): hsaco exit 0 (ld.lld --no-undefined)" test $? -eq 0
check "extern __shared__ (AMDGPU): no undefined symbol in the hsaco" \
  sh -c "! llvm-readelf-19 -s '$T_TMP/dyn.hsaco' | awk 'NR > 3 && \$7 == \"UND\" && \$8 != \"\"' | grep -q ."
llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj $D/dynshared_amdgpu.ll -o "$T_TMP/llc.o" &&
  ld.lld-19 -shared --no-undefined "$T_TMP/llc.o" -o "$T_TMP/llc.hsaco"
# the kernels whose kernarg list has hidden_dynamic_lds_size (it comes before the kernel's .name)
dynlds() { llvm-readelf-19 --notes "$1" | awk '/hidden_dynamic_lds_size/ { d = 1 } /^ *\.name:/ { if (d) printf "%s ", $2; d = 0 }'; }
check "extern __shared__ (AMDGPU): only swap_pairs takes the size, as with llc-19 + ld.lld-19" \
  sh -c "[ '$(dynlds "$T_TMP/dyn.hsaco")' = '_Z10swap_pairsPfPKf ' ] && [ '$(dynlds "$T_TMP/dyn.hsaco")' = '$(dynlds "$T_TMP/llc.hsaco")' ]"
check "extern __shared__ (AMDGPU): -v marks swap_pairs" grep -q "kernel _Z10swap_pairsPfPKf: .*, dynamic shared memory (sized at launch)" "$T_TMP/verr"
check "extern __shared__ (AMDGPU): -v does not mark scale" sh -c "grep 'kernel _Z5scalePff:' '$T_TMP/verr' | grep -qv 'dynamic shared'"
sed 's/addrspace(3)/addrspace(1)/g' $D/dynshared_amdgpu.ll > "$T_TMP/undef_amd.ll"
$G -t "$GFX" "$T_TMP/undef_amd.ll" -o "$T_TMP/undef.hsaco" 2>"$T_TMP/err"
check "AMDGPU: an external global outside LDS: exit 1" test $? -eq 1
check "AMDGPU: an external global outside LDS: named" grep -q "undefined global 'smem'" "$T_TMP/err"

check "no temporary files left" test -z "$(ls "$T_TMP/tmp")"
tally cli_cuda_hip
