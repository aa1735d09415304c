# The command-line tool with AMDGPU targets: hsaco checked with llvm-readelf / llvm-objdump,
# -v metadata, wave size and ABI, refusals and their exit codes. CPU only.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
export XDG_CACHE_HOME="$T_TMP/cache"               # never touch the user's cache
unset ROCM_PATH ROCM_HOME ROCM_ROOT
K=examples/kernels
G="$GPUCOMPILE --no-cache"

check "--print-target '#gpu.amdgpu'" $G --print-target '#gpu.amdgpu'
LIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode

$G -t '#gpu.amdgpu<chip = "gfx90a">' -f bin $K/saxpy_amdgpu.ll -o "$T_TMP/saxpy.hsaco" 2>"$T_TMP/err"
check "saxpy gfx90a: exit 0" test $? -eq 0
check "saxpy gfx90a: nothing on stderr" test ! -s "$T_TMP/err"
check "saxpy gfx90a: a shared object" sh -c "llvm-readelf -h '$T_TMP/saxpy.hsaco' | grep -q 'DYN (Shared object file)'"
check "saxpy gfx90a: the note names the kernel and chip" \
  sh -c "llvm-readelf --notes '$T_TMP/saxpy.hsaco' | grep -q '.name: *saxpy' && llvm-readelf --notes '$T_TMP/saxpy.hsaco' | grep -q 'amdgcn-amd-amdhsa--gfx90a'"
check "saxpy gfx90a: llvm-objdump disassembles it" sh -c "llvm-objdump -d '$T_TMP/saxpy.hsaco' | grep -q s_endpgm"
check "saxpy gfx90a: code object v5" test "$(od -An -tu1 -j8 -N1 "$T_TMP/saxpy.hsaco" | tr -d ' ')" = 3

if [ -f "$LIBS/ocml.bc" ]; then
  $G -v -t '#gpu.amdgpu<chip = "gfx90a">' $K/math_amdgpu.ll -o "$T_TMP/math.hsaco" 2>"$T_TMP/verr"
  check "math gfx90a: exit 0" test $? -eq 0
  check "-v prints the kernel's resources" grep -q "kernel math: params 3, sgprs [0-9]*, vgprs [0-9]*, shared 0 bytes, private 0 bytes, max threads 256, wavefront 64, kernarg 20 bytes" "$T_TMP/verr"
  check "-v prints the ld.lld command" grep -q "running: .*ld.lld.* -shared --no-undefined" "$T_TMP/verr"
  $G -t '#gpu.amdgpu<chip = "gfx1100">' -v $K/math_amdgpu.ll -o "$T_TMP/m1100.hsaco" 2>"$T_TMP/verr"
  check "gfx1100: wave32 by default" grep -q "wavefront 32" "$T_TMP/verr"
  check "gfx1100: the missing ISA file is replaced, with a remark" grep -q "defined __oclc_ISA_version = 11000" "$T_TMP/verr"
  $G -t '#rocdl.target<chip = "gfx1100", flags = {wave64}>' -v $K/math_amdgpu.ll -o "$T_TMP/m1100w.hsaco" 2>"$T_TMP/verr"
  check "gfx1100 with wave64: wavefront 64" grep -q "wavefront 64" "$T_TMP/verr"
  check "gfx1100 with wave64: the note says 64" sh -c "llvm-readelf --notes '$T_TMP/m1100w.hsaco' | grep -q '.wavefront_size: *64'"
  $G -t '#gpu.amdgpu<chip = "gfx90a">' --toolkit /nonexistent-rocm $K/math_amdgpu.ll -o "$T_TMP/nolib.hsaco" 2>"$T_TMP/err"
  check "missing device libraries: exit 1" test $? -eq 1
  check "missing device libraries: the places are named" grep -q "/nonexistent-rocm/amdgcn/bitcode" "$T_TMP/err"
  check "missing device libraries: no output" test ! -e "$T_TMP/nolib.hsaco"
else
  skip "math kernel: no ROCm device libraries in $LIBS"
fi

$G -t '#gpu.amdgpu<chip = "gfx90a", abi = "400">' $K/reduce_amdgpu.ll -o "$T_TMP/v4.hsaco"
check "abi 400: code object v4 (ELF ABI version 2)" test "$(od -An -tu1 -j8 -N1 "$T_TMP/v4.hsaco" | tr -d ' ')" = 2
check "abi 400: amdhsa.version 1.1" sh -c "llvm-readelf --notes '$T_TMP/v4.hsaco' | grep -A2 'amdhsa.version' | tr -d ' \n' | grep -q 'amdhsa.version:-1-1'"

# Code object v6 (abi "600"): ELF ABI version 4 (v4 is 2, v5 3), linked by ld.lld; the generic
# targets need it. #rocdl.target's default is MLIR's of the same LLVM: v6 from 22, v5 before.
abiv() { od -An -tu1 -j8 -N1 "$1" | tr -d ' '; }
$G -t '#gpu.amdgpu<chip = "gfx90a", abi = "600">' $K/reduce_amdgpu.ll -o "$T_TMP/v6.hsaco"
check "abi 600: code object v6 (ELF ABI version 4)" test "$(abiv "$T_TMP/v6.hsaco")" = 4
check "abi 600: llvm-readelf reads the v6 object" sh -c "llvm-readelf -h '$T_TMP/v6.hsaco' | grep -q 'ABI Version: *4'"
$G -t '#rocdl.target<chip = "gfx90a">' $K/reduce_amdgpu.ll -o "$T_TMP/up.hsaco"
if [ "${T_LLVM_MAJOR:-0}" -ge 22 ]; then want=4; else want=3; fi
check "#rocdl.target default abi on LLVM $T_LLVM_MAJOR: ELF ABI version $want" test "$(abiv "$T_TMP/up.hsaco")" = $want
$G -t '#gpu.amdgpu<chip = "gfx11-generic">' $K/reduce_amdgpu.ll -o "$T_TMP/gen5.hsaco" 2>"$T_TMP/err"
check "gfx11-generic without abi 600: refused, saying why" sh -c "grep -q 'needs code object version 6' '$T_TMP/err' && test ! -e '$T_TMP/gen5.hsaco'"
for c in gfx9-generic gfx10-3-generic gfx11-generic gfx12-generic; do
  $G -v -t "#gpu.amdgpu<chip = \"$c\", abi = \"600\">" $K/math_amdgpu.ll -o "$T_TMP/$c.hsaco" 2>"$T_TMP/err"
  check "$c, abi 600: a v6 shared object for the generic target" sh -c "test \"\$(od -An -tu1 -j8 -N1 '$T_TMP/$c.hsaco' | tr -d ' ')\" = 4 &&
    llvm-readelf -h '$T_TMP/$c.hsaco' | grep -q 'DYN (Shared' && llvm-readelf --notes '$T_TMP/$c.hsaco' | grep -q 'amdgcn-amd-amdhsa--$c'"
done
if [ -f "$LIBS/ocml.bc" ] && [ ! -f "$LIBS/oclc_abi_version_600.bc" ]; then
  check "abi 600 with ROCm device libraries before 6.3: __oclc_ABI_version defined as 600" grep -q "defined __oclc_ABI_version = 600" "$T_TMP/err"
fi

$G -t '#gpu.amdgpu<chip = "gfx942:sramecc-:xnack+">' $K/reduce_amdgpu.ll -o "$T_TMP/tid.hsaco"
check "target ID gfx942:sramecc-:xnack+ reaches the note" sh -c "llvm-readelf --notes '$T_TMP/tid.hsaco' | grep -q 'gfx942:sramecc-:xnack+'"

$G -t '#gpu.amdgpu<chip = "gfx90a">' -f isa $K/reduce_amdgpu.ll -o "$T_TMP/r.s"
check "isa: AMDGCN assembly" grep -q '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"' "$T_TMP/r.s"

$G -t '#gpu.amdgpu<chip = "gfx9999">' $K/saxpy_amdgpu.ll -o "$T_TMP/bad.hsaco" 2>"$T_TMP/err"
check "gfx9999: exit 1" test $? -eq 1
check "gfx9999: named in the message" grep -q gfx9999 "$T_TMP/err"
check "gfx9999: no output" test ! -e "$T_TMP/bad.hsaco"
$G --print-target '#gpu.amdgpu<chip = "gfx9999">' >/dev/null 2>&1
check "gfx9999: --print-target exits 1" test $? -eq 1

$G -t '#gpu.amdgpu<chip = "gfx90a", flags = {no_wave64}>' $K/saxpy_amdgpu.ll -o "$T_TMP/bad.hsaco" 2>"$T_TMP/err"
check "no_wave64 on gfx90a: exit 1" test $? -eq 1
check "no_wave64 on gfx90a: says why" grep -q "wave64 only" "$T_TMP/err"

$G -t '#gpu.amdgpu<chip = "gfx90a">' --tool ld.lld=/bin/false $K/saxpy_amdgpu.ll -o "$T_TMP/bad.hsaco" 2>"$T_TMP/err"
check "failing ld.lld: exit 1" test $? -eq 1
check "failing ld.lld: reported" grep -q "ld.lld failed" "$T_TMP/err"
check "failing ld.lld: no output" test ! -e "$T_TMP/bad.hsaco"

check "no temporary files left" test -z "$(ls "$TMPDIR")"
tally cli_amdgpu
