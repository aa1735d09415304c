# Modules as clang writes them for CUDA and HIP: dynamic shared memory (extern __shared__), the
# module's own PTX version, per-function features against the target, the cubin method and
# its fallback. Oracles: ptxas, llc + ld.lld and llvm-readelf of the LLVM in use. CPU only.
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
llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 $D/dynshared_nvptx.ll -o "$T_TMP/llc.ptx"
check "extern __shared__ (NVPTX): the same declaration in llc's PTX" \
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
      sh -c "llvm-readelf -S '$T_TMP/dyn_$m.cubin' | grep -q ' .text._Z10swap_pairsPfPKf ' && llvm-readelf -S '$T_TMP/dyn_$m.cubin' | grep -q ' .text._Z5scalePff '"
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
  sh -c "! llvm-readelf -s '$T_TMP/dyn.hsaco' | awk 'NR > 3 && \$7 == \"UND\" && \$8 != \"\"' | grep -q ."
llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj $D/dynshared_amdgpu.ll -o "$T_TMP/llc.o" &&
  ld.lld -shared --no-undefined "$T_TMP/llc.o" -o "$T_TMP/llc.hsaco"
# the kernels whose kernarg list has hidden_dynamic_lds_size (it comes before the kernel's .name)
dynlds() { llvm-readelf --notes "$1" | awk '/hidden_dynamic_lds_size/ { d = 1 } /^ *\.name:/ { if (d) printf "%s ", $2; d = 0 }'; }
check "extern __shared__ (AMDGPU): only swap_pairs takes the size, as with llc + ld.lld" \
  sh -c "[ '$(dynlds "$T_TMP/dyn.hsaco")' = '_Z10swap_pairsPfPKf ' ] && [ '$(dynlds "$T_TMP/dyn.hsaco")' = '$(dynlds "$T_TMP/llc.hsaco")' ]"
check "extern __shared__ (AMDGPU): -v marks swap_pairs" grep -q "kernel _Z10swap_pairsPfPKf: .*, dynamic shared memory (sized at launch)" "$T_TMP/verr"
$G -v --isolate -t "$GFX" $D/dynshared_amdgpu.ll -o "$T_TMP/dyn_iso.hsaco" 2>"$T_TMP/verr2"
check "extern __shared__ (AMDGPU), --isolate: the mark comes back from the child" \
  grep -q "kernel _Z10swap_pairsPfPKf: .*, dynamic shared memory (sized at launch)" "$T_TMP/verr2"
check "extern __shared__ (AMDGPU): -v does not mark scale" sh -c "grep 'kernel _Z5scalePff:' '$T_TMP/verr' | grep -qv 'dynamic shared'"
sed 's/\[0 x float\]/[16 x float]/g' $D/dynshared_amdgpu.ll > "$T_TMP/sized_amd.ll"
$G -v -t "$GFX" "$T_TMP/sized_amd.ll" -o "$T_TMP/sized.hsaco" 2>"$T_TMP/verr"
check "extern __shared__ float smem[16] (AMDGPU): static LDS, 64 bytes, not dynamic" \
  sh -c "grep -q 'kernel _Z10swap_pairsPfPKf: .*shared 64 bytes' '$T_TMP/verr' && ! grep -q 'dynamic shared' '$T_TMP/verr'"
sed 's/addrspace(3)/addrspace(1)/g' $D/dynshared_amdgpu.ll > "$T_TMP/undef_amd.ll"
$G -t "$GFX" "$T_TMP/undef_amd.ll" -o "$T_TMP/undef.hsaco" 2>"$T_TMP/err"
check "AMDGPU: an external global outside LDS: exit 1" test $? -eq 1
check "AMDGPU: an external global outside LDS: named" grep -q "undefined global 'smem'" "$T_TMP/err"

# ---- the module's own PTX version (clang's "+ptx85" on every function) ----
$G -v -t "$SM80" -f isa $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/bmsk.ptx" 2>"$T_TMP/verr"
check "+ptx85 functions, sm_80: PTX 8.5, not sm_80's 7.0" grep -q '^\.version 8\.5$' "$T_TMP/bmsk.ptx"
check "+ptx85 functions: -v says why" grep -q "PTX 8.5 for sm_80: the highest of the chip's minimum 7.0, the target's +ptx60 (the default) and the module's +ptx85 (function '_Z4maskjj')" "$T_TMP/verr"
$G -t '#gpu.nvptx<chip = "sm_80", features = "+ptx78">' -f isa $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/pinned.ptx" 2>"$T_TMP/err"
check "a target pinning +ptx78 below the functions' +ptx85: exit 1" test $? -eq 1
check "a target pinning +ptx78: the error names both versions and the function" \
  grep -q "function '_Z4maskjj' asks for PTX 8.5 (+ptx85), but the target's features \"+ptx78\" pin PTX 7.8" "$T_TMP/err"
check "a target pinning +ptx78: no output" test ! -e "$T_TMP/pinned.ptx"
# MLIR 22's verifyTarget = false: what the code asks of the chip is not checked before codegen
$G -t '#nvvm.target<chip = "sm_80", features = "+ptx78", verifyTarget = false>' -f isa $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/nover.ptx" 2>"$T_TMP/err"
check "verifyTarget = false, +ptx78 pinned below the functions' +ptx85: exit 0, PTX 7.8 kept" \
  sh -c "grep -q '^\.version 7\.8$' '$T_TMP/nover.ptx' && grep -q 'warning: .*pin PTX 7.8 (verifyTarget = false: PTX 7.8 is kept)' '$T_TMP/err'"
if [ -x "$CUDA/bin/ptxas" ]; then
  $G -t '#nvvm.target<chip = "sm_70">' --bin-method ptxas $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/sm70.cubin" 2>"$T_TMP/err"
  check "sm_70, which CUDA 13 lacks: refused before codegen" sh -c "test $? -eq 1 && grep -q 'the installed CUDA toolkit cannot make a cubin for sm_70' '$T_TMP/err'"
  $G -t '#nvvm.target<chip = "sm_70", verifyTarget = false>' --bin-method ptxas $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/sm70.cubin" 2>"$T_TMP/err"
  check "sm_70 with verifyTarget = false: not checked first, ptxas says it (exit 1)" \
    sh -c "test $? -eq 1 && ! grep -q 'the installed CUDA toolkit cannot make' '$T_TMP/err' && grep -q ptxas '$T_TMP/err'"
fi
$G -t '#gpu.nvptx<chip = "sm_80", features = "+ptx85">' -f isa $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/same.ptx"
check "a target pinning the same +ptx85: PTX 8.5" grep -q '^\.version 8\.5$' "$T_TMP/same.ptx"
$G -t '#gpu.nvptx<chip = "sm_90">' -f isa $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/sm90.ptx"
check "+ptx85 functions, sm_90: PTX 8.5 (above sm_90's 7.8)" grep -q '^\.version 8\.5$' "$T_TMP/sm90.ptx"
if [ -x "$CUDA/bin/ptxas" ]; then
  check "+ptx85 functions with inline bmsk: ptxas accepts the PTX" "$CUDA/bin/ptxas" -arch=sm_80 "$T_TMP/bmsk.ptx" -o "$T_TMP/bmsk.ptxas.cubin"
  for m in nvjitlink ptxas; do
    $G --bin-method $m -t "$SM80" $D/ptx85_bmsk_nvptx.ll -o "$T_TMP/bmsk_$m.cubin" 2>"$T_TMP/err"
    check "+ptx85 functions with inline bmsk, $m: cubin exit 0" test $? -eq 0
  done
fi

# ---- the cubin method: by the PTX's size, the other one when the first fails ----
# A kernel capped at 128 registers calling a function that needs ~160 (160 volatile loads, all
# live at once): ptxas compiles the callee within the cap, nvJitLink compiles it on its own and
# refuses ("Entry function 'k' with max regcount of 128 calls function 'f' with regcount of ...").
regcap() {
  echo 'target triple = "nvptx64-nvidia-cuda"'
  echo 'define void @f(ptr addrspace(1) %p, ptr addrspace(1) %q) noinline {'
  i=0; while [ $i -lt 160 ]; do
    echo "  %g$i = getelementptr float, ptr addrspace(1) %p, i32 $i"
    echo "  %a$i = load volatile float, ptr addrspace(1) %g$i"; i=$((i + 1)); done
  echo '  %s0 = fmul float %a0, %a159'
  i=1; while [ $i -lt 80 ]; do
    echo "  %m$i = fmul float %a$i, %a$((159 - i))"; echo "  %s$i = fadd float %s$((i - 1)), %m$i"; i=$((i + 1)); done
  echo '  store float %s79, ptr addrspace(1) %q'; echo '  ret void'; echo '}'
  echo 'define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {'
  echo '  call void @f(ptr addrspace(1) %p, ptr addrspace(1) %q)'; echo '  ret void'; echo '}'
  echo '!nvvm.annotations = !{!0}'; echo '!0 = !{ptr @k, !"maxnreg", i32 128}'
}
# A kernel of 16000 volatile stores: 0.7-1.2 MB of PTX (LLVM 22-19).
bigptx() {
  echo 'target triple = "nvptx64-nvidia-cuda"'
  echo 'define ptx_kernel void @big(ptr addrspace(1) %p) {'
  awk 'BEGIN { for (i = 0; i < 16000; i++) printf "  %%g%d = getelementptr i32, ptr addrspace(1) %%p, i32 %d\n  store volatile i32 %d, ptr addrspace(1) %%g%d\n", i, i, i * 7, i }'
  echo '  ret void'; echo '}'
}
if [ -x "$CUDA/bin/ptxas" ]; then
  regcap > "$T_TMP/regcap.ll"; bigptx > "$T_TMP/big.ll"
  printf '#!/bin/sh\ncase "$1" in --version) exec %s --version ;; esac\necho "ptxas fatal   : a stand-in that rejects every PTX" >&2\nexit 1\n' \
    "$CUDA/bin/ptxas" > "$T_TMP/badptxas"; chmod +x "$T_TMP/badptxas"
  $G -v -t "$SM80" "$T_TMP/regcap.ll" -o "$T_TMP/regcap.cubin" 2>"$T_TMP/verr"
  check "register cap: the default method (nvJitLink, small PTX) fails, ptxas makes the cubin: exit 0" test $? -eq 0
  check "register cap: nvJitLink's refusal is there, as a warning" grep -q "warning: nvJitLink: .*Entry function 'k' with max regcount of 128 calls function 'f'" "$T_TMP/verr"
  check "register cap: a warning says ptxas took over" grep -q "warning: cubin for sm_80 made by ptxas ([0-9]* bytes), after nvJitLink rejected the PTX" "$T_TMP/verr"
  check "register cap: no error line" sh -c "! grep -q 'error:' '$T_TMP/verr'"
  check "register cap: the cubin holds k, within 128 registers" \
    sh -c "llvm-readelf -S '$T_TMP/regcap.cubin' | grep -q ' .text.k ' && grep -q 'kernel k: params 2, registers \(12[0-8]\|1[01][0-9]\|[0-9][0-9]\?\),' '$T_TMP/verr'"
  $G --bin-method nvjitlink -t "$SM80" "$T_TMP/regcap.ll" -o "$T_TMP/forced.cubin" 2>"$T_TMP/err"
  check "register cap, --bin-method nvjitlink: forced, no fallback: exit 1" test $? -eq 1
  check "register cap, --bin-method nvjitlink: nvJitLink's error" grep -q "error: nvJitLink: .*with max regcount of 128 calls function 'f'" "$T_TMP/err"
  check "register cap, --bin-method nvjitlink: no output, no ptxas" sh -c "test ! -e '$T_TMP/forced.cubin' && ! grep -q 'made by ptxas' '$T_TMP/err'"
  $G -v --bin-method ptxas -t "$SM80" "$T_TMP/regcap.ll" -o "$T_TMP/p.cubin" 2>"$T_TMP/verr"
  check "register cap, --bin-method ptxas: exit 0, no warning" sh -c "[ $? -eq 0 ] && ! grep -q 'warning:' '$T_TMP/verr'"

  $G -t "$SM80" -f isa "$T_TMP/big.ll" -o "$T_TMP/big.ptx"
  check "the big kernel's PTX is over 512 KiB" test "$(wc -c < "$T_TMP/big.ptx")" -gt 524288
  $G -v -t "$SM80" "$T_TMP/big.ll" -o "$T_TMP/big.cubin" 2>"$T_TMP/verr"
  check "PTX over 512 KiB: exit 0" test $? -eq 0
  check "PTX over 512 KiB: ptxas by default, nvJitLink not run" \
    sh -c "grep -q 'cubin for sm_80 made by ptxas' '$T_TMP/verr' && ! grep -q 'note: nvJitLink [0-9]' '$T_TMP/verr'"
  $G -v --tool ptxas="$T_TMP/badptxas" -t "$SM80" "$T_TMP/big.ll" -o "$T_TMP/big2.cubin" 2>"$T_TMP/verr"
  check "PTX over 512 KiB, ptxas fails: nvJitLink makes it, exit 0" test $? -eq 0
  check "PTX over 512 KiB, ptxas fails: its message as a warning, and the note" \
    sh -c "grep -q 'warning: ptxas: ptxas fatal   : a stand-in that rejects every PTX' '$T_TMP/verr' && grep -q 'warning: cubin for sm_80 made by nvjitlink .*, after ptxas rejected the PTX' '$T_TMP/verr'"
  check "PTX over 512 KiB, ptxas fails: the cubin holds big" sh -c "llvm-readelf -S '$T_TMP/big2.cubin' | grep -q ' .text.big '"
  $G --tool ptxas="$T_TMP/badptxas" --tool nvJitLink=/nonexistent/libnvJitLink.so -t "$SM80" "$T_TMP/big.ll" -o "$T_TMP/big3.cubin" 2>"$T_TMP/err"
  check "ptxas fails and nvJitLink is missing: exit 1" test $? -eq 1
  check "ptxas fails and nvJitLink is missing: said so" grep -q "error: ptxas rejected the PTX (the warnings above) and nvJitLink is not available" "$T_TMP/err"
  $G --bin-method ptxas --tool ptxas="$T_TMP/badptxas" -t "$SM80" "$T_TMP/big.ll" -o "$T_TMP/big4.cubin" 2>"$T_TMP/err"
  check "--bin-method ptxas that fails: exit 1, its error" sh -c "[ $? -eq 1 ] && grep -q 'error: ptxas: ptxas fatal   : a stand-in' '$T_TMP/err' && test ! -e '$T_TMP/big4.cubin'"
else
  skip "cubin method checks: no ptxas at $CUDA/bin"
fi

# ---- per-function AMDGPU features against the target ----
$G -t '#gpu.amdgpu<chip = "gfx1100">' $D/dynshared_amdgpu.ll -o "$T_TMP/w.hsaco" 2>"$T_TMP/err"
check "+wavefrontsize64 functions for wave32 gfx1100: exit 1" test $? -eq 1
check "+wavefrontsize64 for wave32: the function and both sides named" \
  grep -q "function '_Z5stagefj' is compiled for wave64 ('+wavefrontsize64' in its target-features), but the target gfx1100 runs wave32" "$T_TMP/err"
$G -t '#gpu.amdgpu<chip = "gfx1100", flags = {wave64}>' $D/dynshared_amdgpu.ll -o "$T_TMP/w64.hsaco"
check "+wavefrontsize64 functions for gfx1100 with wave64: exit 0" test $? -eq 0
sed 's/"+wavefrontsize64"/"+wavefrontsize32"/' $D/dynshared_amdgpu.ll > "$T_TMP/w32.ll"
$G -t "$GFX" "$T_TMP/w32.ll" -o "$T_TMP/w32.hsaco" 2>"$T_TMP/err"
check "+wavefrontsize32 functions for wave64 gfx90a: exit 1, named" \
  sh -c "[ $? -eq 1 ] && grep -q \"function '_Z5stagefj' is compiled for wave32\" '$T_TMP/err'"
sed 's/"+wavefrontsize64"/"+wavefrontsize64,+xnack,-sramecc"/' $D/dynshared_amdgpu.ll > "$T_TMP/xs.ll"
$G -t '#gpu.amdgpu<chip = "gfx90a:xnack-">' "$T_TMP/xs.ll" -o "$T_TMP/xs.hsaco" 2>"$T_TMP/err"
check "+xnack functions for gfx90a:xnack-: exit 1" test $? -eq 1
check "+xnack for xnack-: named" grep -q "function '_Z5stagefj' is compiled with +xnack (in its target-features), but the target gfx90a:xnack- says xnack-" "$T_TMP/err"
$G -t '#gpu.amdgpu<chip = "gfx90a:sramecc+">' "$T_TMP/xs.ll" -o "$T_TMP/xs.hsaco" 2>"$T_TMP/err"
check "-sramecc functions for gfx90a:sramecc+: exit 1, named" \
  sh -c "[ $? -eq 1 ] && grep -q 'compiled with -sramecc (in its target-features), but the target gfx90a:sramecc+ says sramecc+' '$T_TMP/err'"
$G -t '#gpu.amdgpu<chip = "gfx90a:xnack+:sramecc-">' "$T_TMP/xs.ll" -o "$T_TMP/xs1.hsaco"
check "+xnack,-sramecc functions for gfx90a:xnack+:sramecc-: exit 0" test $? -eq 0
$G -t "$GFX" "$T_TMP/xs.ll" -o "$T_TMP/xs2.hsaco"
check "+xnack,-sramecc functions for plain gfx90a (either mode): exit 0" test $? -eq 0

check "no temporary files left" test -z "$(ls "$T_TMP/tmp")"
tally cli_cuda_hip
