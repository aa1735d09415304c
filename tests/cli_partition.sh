# Code generation in partitions (-j N inside one module, AMDGPU): for N = 1, 2, 3 the hsaco holds
# one metadata note with the same kernels and the same per-kernel metadata (in another order),
# the same exported symbols and no undefined one, and the same N gives the same bytes. Modules:
# a generated one with shared device functions (hidden, weak_odr, internal, an alias), a
# constant table, globals (internal and external, named and not) and LDS used by several
# kernels; the dynamic shared memory of tests/data. Oracles: ld.lld, llvm-readelf. CPU only.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
G="$GPUCOMPILE --no-cache"
GFX='#gpu.amdgpu<chip = "gfx90a">'
if [ -z "$HAVE_LLD" ]; then skip "partitions: ld.lld is not installed (the join)"; tally cli_partition; exit 0; fi
notes() { llvm-readelf --notes "$1" | awk -f tests/hsaco_notes.awk | sort; }
syms() { llvm-readelf --dyn-syms -W "$1" | awk 'NR > 3 { print $4, $5, $6, $7, $8 }' | sort; }
noundef() { ! llvm-readelf -s -W "$1" | awk 'NR > 3 && $7 == "UND" && $8 != ""' | grep -q .; }

{
  echo 'target triple = "amdgcn-amd-amdhsa"'
  echo '@tab = internal addrspace(4) constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]'
  echo '@counter = internal addrspace(1) global i32 0'
  echo '@0 = internal addrspace(1) global i32 0'
  echo '@ext = addrspace(1) global i32 0'
  echo '@lds = internal addrspace(3) global [64 x float] poison'
  echo '@dyn = external addrspace(3) global [0 x float]'
  echo 'define hidden float @h(float %x, i32 %i) noinline {'
  echo '  %p = getelementptr [4 x float], ptr addrspace(4) @tab, i32 0, i32 %i'
  echo '  %t = load float, ptr addrspace(4) %p'
  echo '  %r = fmul float %x, %t'
  echo '  atomicrmw add ptr addrspace(1) @counter, i32 1 monotonic'
  echo '  ret float %r }'
  echo 'define weak_odr float @w(float %x) noinline { %r = fadd float %x, 1.0'
  echo '  atomicrmw add ptr addrspace(1) @0, i32 1 monotonic'
  echo '  ret float %r }'
  echo 'define internal float @stage(float %x, i32 %i) noinline {'
  echo '  %p = getelementptr [64 x float], ptr addrspace(3) @lds, i32 0, i32 %i'
  echo '  store float %x, ptr addrspace(3) %p'
  echo '  call void @llvm.amdgcn.s.barrier()'
  echo '  %j = xor i32 %i, 1'
  echo '  %q = getelementptr [64 x float], ptr addrspace(3) @lds, i32 0, i32 %j'
  echo '  %y = load float, ptr addrspace(3) %q'
  echo '  ret float %y }'
  echo 'define internal float @dynstage(float %x, i32 %i) noinline {'
  echo '  %p = getelementptr [0 x float], ptr addrspace(3) @dyn, i32 0, i32 %i'
  echo '  store float %x, ptr addrspace(3) %p'
  echo '  %y = load float, ptr addrspace(3) @dyn'
  echo '  ret float %y }'
  echo '@ha = hidden alias float (float, i32), ptr @h'
  echo 'declare void @llvm.amdgcn.s.barrier()'
  echo 'declare i32 @llvm.amdgcn.workitem.id.x()'
  i=0
  while [ $i -lt 7 ]; do # kernels of different sizes: 1 to 7 calls
    echo "define amdgpu_kernel void @kernel_$i(ptr addrspace(1) %p) {"
    echo '  %i = call i32 @llvm.amdgcn.workitem.id.x()'
    echo '  %x0 = load float, ptr addrspace(1) %p'
    c=0
    while [ $c -le $i ]; do
      case $((c % 4)) in
      0) echo "  %x$((c + 1)) = call float @h(float %x$c, i32 %i)" ;;
      1) echo "  %x$((c + 1)) = call float @w(float %x$c)" ;;
      2) echo "  %x$((c + 1)) = call float @stage(float %x$c, i32 %i)" ;;
      3) echo "  %x$((c + 1)) = fadd float %x$c, 2.0" ;;
      esac
      c=$((c + 1))
    done
    [ $i -eq 4 ] && { echo "  %x$((c + 1)) = call float @dynstage(float %x$c, i32 %i)"; c=$((c + 1)); }
    [ $i -eq 5 ] && { echo "  %x$((c + 1)) = call float @ha(float %x$c, i32 %i)"; c=$((c + 1)); }
    echo "  store float %x$c, ptr addrspace(1) %p"
    echo '  atomicrmw add ptr addrspace(1) @ext, i32 1 monotonic'
    echo '  ret void }'
    i=$((i + 1))
  done
} > "$T_TMP/shared.ll"

# parts NAME FILE KERNELS: N = 1, 2, 3 against N = 1 (min(N, KERNELS) partitions)
parts() {
  m=$1 f=$2 k=$3
  $G -v -j 1 -t "$GFX" "$f" -o "$T_TMP/p1.hsaco" 2>"$T_TMP/v1" || { fail "$m: -j 1 compile"; return; }
  notes "$T_TMP/p1.hsaco" > "$T_TMP/n1"; syms "$T_TMP/p1.hsaco" > "$T_TMP/s1"
  grep '^  kernel ' "$T_TMP/v1" > "$T_TMP/k1"
  check "$m, -j 1: one module" sh -c "! grep -q 'partitions' '$T_TMP/v1'"
  for j in 2 3; do
    $G -v -j $j -t "$GFX" "$f" -o "$T_TMP/p$j.hsaco" 2>"$T_TMP/v$j"
    check "$m, -j $j: exit 0" test $? -eq 0
    p=$j; [ $p -gt $k ] && p=$k
    check "$m, -j $j: -v says the $p partitions" grep -q "code generation in $p partitions on $p threads" "$T_TMP/v$j"
    notes "$T_TMP/p$j.hsaco" > "$T_TMP/n$j"
    check "$m, -j $j: one metadata note" grep -qx 'N 1' "$T_TMP/n$j"
    check "$m, -j $j: the same kernels and per-kernel metadata as -j 1" cmp -s "$T_TMP/n1" "$T_TMP/n$j"
    syms "$T_TMP/p$j.hsaco" > "$T_TMP/s$j"
    check "$m, -j $j: the same exported symbols as -j 1" cmp -s "$T_TMP/s1" "$T_TMP/s$j"
    check "$m, -j $j: no undefined symbol" noundef "$T_TMP/p$j.hsaco"
    grep '^  kernel ' "$T_TMP/v$j" > "$T_TMP/k$j"
    check "$m, -j $j: the kernels' metadata in the object as with -j 1" cmp -s "$T_TMP/k1" "$T_TMP/k$j"
    $G -j $j -t "$GFX" "$f" -o "$T_TMP/q$j.hsaco" 2>/dev/null
    check "$m, -j $j: the same bytes again" cmp -s "$T_TMP/p$j.hsaco" "$T_TMP/q$j.hsaco"
  done
}
parts "shared helpers and globals" "$T_TMP/shared.ll" 7
cp "$T_TMP/n1" "$T_TMP/shared.notes"
check "shared helpers: kernel_4 reaches dynamic shared memory (-j 3)" grep -q "kernel kernel_4: .*dynamic shared memory" "$T_TMP/v3"
check "shared helpers: 3 partitions of 7 kernels" grep -q "kernels: [1-7] [1-7] [1-7])" "$T_TMP/v3"
parts "dynamic shared memory" tests/data/dynshared_amdgpu.ll 2
check "dynamic shared memory, -j 2: swap_pairs marked" grep -q "kernel _Z10swap_pairsPfPKf: .*dynamic shared memory" "$T_TMP/v2"

# the in-process writer takes one object: with N it says so; named (elf) it refuses
$G -v -j 2 -t "$GFX" "$T_TMP/shared.ll" -o "$T_TMP/a.hsaco" 2>"$T_TMP/verr"
check "-j 2: -v says ld.lld links the partitions" grep -q "ld.lld runs: the in-process writer links one object, not 2" "$T_TMP/verr"
$G -j 2 --bin-method elf -t "$GFX" "$T_TMP/shared.ll" -o "$T_TMP/e.hsaco" 2>"$T_TMP/err"
check "-j 2 --bin-method elf: exit 1" test $? -eq 1
check "-j 2 --bin-method elf: says why" grep -q "in-process hsaco writer links one object" "$T_TMP/err"
check "-j 2 --bin-method elf: no output" test ! -e "$T_TMP/e.hsaco"
$G -j 2 --bin-method lld -t "$GFX" "$T_TMP/shared.ll" -o "$T_TMP/l.hsaco" 2>/dev/null
check "-j 2 --bin-method lld: the same bytes as the default" cmp -s "$T_TMP/a.hsaco" "$T_TMP/l.hsaco"

# where it stays one module
$G -v -j 2 -t "$GFX" -f isa "$T_TMP/shared.ll" -o "$T_TMP/j2.s" 2>"$T_TMP/verr"
$G -j 1 -t "$GFX" -f isa "$T_TMP/shared.ll" -o "$T_TMP/j1.s" 2>/dev/null
check "-f isa -j 2: one module (the same text as -j 1)" sh -c "cmp -s '$T_TMP/j1.s' '$T_TMP/j2.s' && ! grep -q partitions '$T_TMP/verr'"
$G -v -j 2 --save-temps "$T_TMP/st" -t "$GFX" "$T_TMP/shared.ll" -o "$T_TMP/st.hsaco" 2>"$T_TMP/verr"
check "--save-temps -j 2: one module, said with -v" grep -q "code generation in one module: --save-temps" "$T_TMP/verr"
check "--save-temps -j 2: the same kernels" sh -c "llvm-readelf --notes '$T_TMP/st.hsaco' | awk -f tests/hsaco_notes.awk | sort | cmp -s - '$T_TMP/shared.notes'"
sed -n '1,/^declare i32/p' "$T_TMP/shared.ll" > "$T_TMP/one.ll"
sed -n '/^define amdgpu_kernel void @kernel_6/,$p' "$T_TMP/shared.ll" >> "$T_TMP/one.ll"
$G -v -j 2 -t "$GFX" "$T_TMP/one.ll" -o "$T_TMP/one.hsaco" 2>"$T_TMP/verr"
check "one kernel, -j 2: one module" sh -c "test -s '$T_TMP/one.hsaco' && ! grep -q partitions '$T_TMP/verr'"
# -j shared with the targets: 2 targets at -j 2 get one thread each, at -j 4 two each
T2='#gpu.amdgpu<chip = "gfx900">'
$G -v -j 2 -t "$GFX" -t "$T2" "$T_TMP/shared.ll" -o "$T_TMP/two.bin" 2>"$T_TMP/verr"
check "two targets, -j 2: no partitions" sh -c "test -s '$T_TMP/two.bin' && ! grep -q 'partitions' '$T_TMP/verr'"
$G -v -j 4 -t "$GFX" -t "$T2" "$T_TMP/shared.ll" -o "$T_TMP/four.bin" 2>"$T_TMP/verr"
check "two targets, -j 4: 2 partitions each" test "$(grep -c 'code generation in 2 partitions' "$T_TMP/verr")" -eq 2
check "no temporary files left" sh -c "[ -z \"\$(ls -A '$T_TMP/tmp')\" ]"
tally cli_partition
