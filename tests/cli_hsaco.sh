# The in-process hsaco writer against ld.lld: every AMDGPU module of examples/ and tests/data,
# for several chips and code object versions, plus generated modules (many kernels, so that the
# GNU hash has several buckets; hidden, weak and called device functions), must give the same
# bytes with the default method and with --bin-method lld (the LLVM in use's ld.lld on the same
# object). The fallback is said with -v; --bin-method elf refuses what the writer does not handle.
# (tests/corpus/corpus.sh compares the corpus modules the same way.) CPU only.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
unset ROCM_PATH ROCM_HOME ROCM_ROOT
G="$GPUCOMPILE --no-cache"
LLD=ld.lld-$T_LLVM_MAJOR
if ! command -v "$LLD" >/dev/null; then
  skip "hsaco: $LLD is not installed (the oracle)"; tally cli_hsaco; exit 0
fi

# same NAME TARGET FILE [OPTIONS]: written in-process (said with -v) and equal to ld.lld's
same() {
  n=$1 t=$2 f=$3; shift 3
  $G -v -t "$t" -f bin "$@" "$f" -o "$T_TMP/a.hsaco" 2>"$T_TMP/verr" || { fail "$n: compile"; return; }
  $G --bin-method lld -t "$t" -f bin "$@" "$f" -o "$T_TMP/b.hsaco" 2>/dev/null || { fail "$n: --bin-method lld"; return; }
  if grep -q "in-process writer does not handle" "$T_TMP/verr"; then fail "$n: fell back: $(grep -o 'does not handle.*' "$T_TMP/verr")"
  else check "$n: in-process, byte for byte ld.lld's" cmp -s "$T_TMP/a.hsaco" "$T_TMP/b.hsaco"; fi
}

# Generated: 20 kernels calling a hidden and a weak device function and reading a constant table
# (a mergeable .rodata.cst16), and one storing the addresses of strings (.rodata.str1.1, merged).
{
  echo 'target triple = "amdgcn-amd-amdhsa"'
  echo '@s1 = private unnamed_addr addrspace(4) constant [6 x i8] c"hello\00"'
  echo '@s2 = private unnamed_addr addrspace(4) constant [6 x i8] c"world\00"'
  echo '@s3 = private unnamed_addr addrspace(4) constant [3 x i8] c"lo\00"'
  echo 'define amdgpu_kernel void @strings(ptr addrspace(1) %p) {'
  echo '  store ptr addrspace(4) @s1, ptr addrspace(1) %p'
  echo '  %q = getelementptr ptr addrspace(4), ptr addrspace(1) %p, i32 1'
  echo '  store ptr addrspace(4) @s2, ptr addrspace(1) %q'
  echo '  %r = getelementptr ptr addrspace(4), ptr addrspace(1) %p, i32 2'
  echo '  store ptr addrspace(4) @s3, ptr addrspace(1) %r'
  echo '  ret void }'
  echo '@tab = internal addrspace(4) constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]'
  echo 'define hidden float @h(float %x, i32 %i) noinline { %p = getelementptr [4 x float], ptr addrspace(4) @tab, i32 0, i32 %i'
  echo '  %t = load float, ptr addrspace(4) %p'
  echo '  %r = fmul float %x, %t'
  echo '  ret float %r }'
  echo 'define weak_odr protected float @w(float %x) noinline { %r = fadd float %x, 1.0'
  echo '  ret float %r }'
  i=0
  while [ $i -lt 20 ]; do
    echo "define amdgpu_kernel void @kernel_$i(ptr addrspace(1) %p, i32 %i) {"
    echo '  %x = load float, ptr addrspace(1) %p'
    echo '  %a = call float @h(float %x, i32 %i)'
    echo '  %b = call float @w(float %a)'
    echo '  store float %b, ptr addrspace(1) %p'
    echo '  ret void }'
    i=$((i + 1))
  done
} > "$T_TMP/many.ll"

for f in examples/kernels/*_amdgpu.ll "$T_TMP/many.ll"; do
  b=$(basename "$f" .ll)
  same "$b gfx90a" '#gpu.amdgpu<chip = "gfx90a">' "$f"
  same "$b gfx1100" '#gpu.amdgpu<chip = "gfx1100">' "$f"
  same "$b gfx942 abi 400" '#rocdl.target<chip = "gfx942", abi = "400">' "$f"
  same "$b gfx90a O0" '#gpu.amdgpu<chip = "gfx90a", O = 0>' "$f"
done
check "many: 20 kernels in the hsaco" test "$(llvm-readelf --dyn-syms "$T_TMP/a.hsaco" | grep -c 'kernel_[0-9]*\.kd$')" = 20

# What the writer does not handle (a module with an LDS table in .data.rel.ro): ld.lld, said.
D=tests/data/dynshared_amdgpu.ll
$G -v -t '#gpu.amdgpu<chip = "gfx90a">' -f bin "$D" -o "$T_TMP/d.hsaco" 2>"$T_TMP/verr"
check "fallback: exit 0" test $? -eq 0
check "fallback: -v says why ld.lld runs" grep -q "ld.lld runs: the in-process writer does not handle an allocated section" "$T_TMP/verr"
check "fallback: -v prints the ld.lld command" grep -q "running: .*ld.lld.* -shared --no-undefined" "$T_TMP/verr"
$G --bin-method elf -t '#gpu.amdgpu<chip = "gfx90a">' -f bin "$D" -o "$T_TMP/e.hsaco" 2>"$T_TMP/err"
check "--bin-method elf: refuses it, exit 1" test $? -eq 1
check "--bin-method elf: says why" grep -q "the in-process hsaco writer does not handle an allocated section" "$T_TMP/err"
check "--bin-method elf: no output" test ! -e "$T_TMP/e.hsaco"
$G --bin-method nvjitlink -t '#gpu.amdgpu<chip = "gfx90a">' -f bin examples/kernels/saxpy_amdgpu.ll -o "$T_TMP/n.hsaco" 2>"$T_TMP/err"
check "--bin-method nvjitlink for AMDGPU: refused" sh -c "test ! -e '$T_TMP/n.hsaco' && grep -q \"unknown bin_method 'nvjitlink' for AMDGPU (elf or lld)\" '$T_TMP/err'"
# An ld.lld named in the options runs (it may be another one).
$G -v --tool ld.lld="$(command -v "$LLD")" -t '#gpu.amdgpu<chip = "gfx90a">' -f bin examples/kernels/saxpy_amdgpu.ll -o "$T_TMP/t.hsaco" 2>"$T_TMP/verr"
check "--tool ld.lld: it runs" grep -q "ld.lld runs: the in-process writer does not handle an ld.lld named in the options" "$T_TMP/verr"
check "no temporary files left" test -z "$(ls "$TMPDIR")"
tally cli_hsaco
