# Batch mode: several inputs in one process, -o DIR with one output per input, -j over inputs,
# a failed input leaves no file and the others go on, the progress line only on a terminal.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
K=examples/kernels
NV='#gpu.nvptx<chip = "sm_80">' NV2='#gpu.nvptx<chip = "sm_90">' AMD='#gpu.amdgpu<chip = "gfx90a">'
PTXAS=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
IN="$K/saxpy_nvptx.ll $K/reduce_nvptx.ll $K/math_nvptx.ll"

# shellcheck disable=SC2086
"$GPUCOMPILE" --no-cache -t "$NV" -f isa $IN -o "$T_TMP/isa" 2>"$T_TMP/err"
check "batch exits 0" test $? -eq 0
check "batch: nothing on stderr (not a terminal: no progress line)" test ! -s "$T_TMP/err"
check "batch: one .ptx per input, named by the stem" test "$(ls "$T_TMP/isa" | tr '\n' ' ')" = "math_nvptx.ptx reduce_nvptx.ptx saxpy_nvptx.ptx "
for s in saxpy reduce math; do
    "$GPUCOMPILE" --no-cache -t "$NV" -f isa "$K/${s}_nvptx.ll" -o "$T_TMP/one_$s.ptx"
    check "batch output of $s equals its single compile" cmp -s "$T_TMP/isa/${s}_nvptx.ptx" "$T_TMP/one_$s.ptx"
done
if [ -x "$PTXAS" ]; then
    check "ptxas accepts every batch output" sh -c "for f in '$T_TMP'/isa/*.ptx; do '$PTXAS' -arch=sm_80 \"\$f\" -o '$T_TMP/p.cubin' || exit 1; done"
else skip "ptxas accepts every batch output (no ptxas)"; fi

# shellcheck disable=SC2086
"$GPUCOMPILE" --no-cache -j 2 -t "$NV" -f isa $IN -o "$T_TMP/isa2"
check "-j 2 gives the same bytes as -j 1" diff -r "$T_TMP/isa" "$T_TMP/isa2"

# shellcheck disable=SC2086
"$GPUCOMPILE" --no-cache -t "$NV" -f llvm $IN -o "$T_TMP/bc" &&
    check "format llvm: .bc that llvm-dis reads" llvm-dis "$T_TMP/bc/saxpy_nvptx.bc" -o /dev/null

if [ -n "$HAVE_CUDA" ]; then
    # shellcheck disable=SC2086
    "$GPUCOMPILE" --no-cache -t "$NV" $IN -o "$T_TMP/bin"
    check "format bin: .cubin files, CUDA ELF" sh -c "llvm-readelf -h '$T_TMP/bin/reduce_nvptx.cubin' | grep -q 'NVIDIA CUDA'"
    # shellcheck disable=SC2086
    "$GPUCOMPILE" --no-cache -j 2 -t "$NV" -t "$NV2" $IN -o "$T_TMP/two"
    check "two targets: .gpubin, an offload binary with two objects" sh -c \
        "'$GPUCOMPILE' --list '$T_TMP/two/math_nvptx.gpubin' | grep -q '2 objects'"
else
    skip "format bin and two targets: no CUDA toolkit at $T_CUDA"
fi

if [ -n "$HAVE_LLD" ]; then
    "$GPUCOMPILE" --no-cache -t "$AMD" "$K/saxpy_amdgpu.ll" "$K/math_amdgpu.ll" -o "$T_TMP/amd"
    check "AMDGPU batch: .hsaco files, AMDGPU ELF" sh -c "llvm-readelf -h '$T_TMP/amd/math_amdgpu.hsaco' | grep -q 'AMDGPU'"
    "$GPUCOMPILE" --no-cache -t "$AMD" -f isa "$K/saxpy_amdgpu.ll" "$K/math_amdgpu.ll" -o "$T_TMP/amds"
    check "AMDGPU isa: .s files" test -s "$T_TMP/amds/saxpy_amdgpu.s"
else
    skip "AMDGPU batch: no ld.lld"
fi

# A failing input: the others are written, it is named, exit 1.
printf 'define void @f( {' > "$T_TMP/bad.ll"
"$GPUCOMPILE" --no-cache -t "$NV" -f isa "$K/saxpy_nvptx.ll" "$T_TMP/bad.ll" "$K/math_nvptx.ll" -o "$T_TMP/part" 2>"$T_TMP/err"
check "a failed input: exit 1" test $? -eq 1
check "a failed input: the others are written" test -s "$T_TMP/part/saxpy_nvptx.ptx" -a -s "$T_TMP/part/math_nvptx.ptx"
check "a failed input: no file for it" test ! -e "$T_TMP/part/bad.ptx"
check "a failed input: its name is in the message" grep -q "bad.ll" "$T_TMP/err"
check "a failed input: the count" grep -q "1 of 3 inputs failed" "$T_TMP/err"

# Usage errors: exit 2, nothing written.
cp "$K/saxpy_nvptx.ll" "$T_TMP/saxpy_nvptx.ll"
"$GPUCOMPILE" -f isa "$K/saxpy_nvptx.ll" "$T_TMP/saxpy_nvptx.ll" -o "$T_TMP/coll" 2>"$T_TMP/err"
check "two inputs with one stem: exit 2" test $? -eq 2
check "two inputs with one stem: nothing written" test ! -e "$T_TMP/coll"
"$GPUCOMPILE" -f isa "$K/saxpy_nvptx.ll" "$K/math_nvptx.ll" -o - 2>/dev/null
check "several inputs with -o -: exit 2" test $? -eq 2
"$GPUCOMPILE" -f isa "$K/saxpy_nvptx.ll" "$K/math_nvptx.ll" --emit-text "$T_TMP/x.mlir" 2>/dev/null
check "several inputs with --emit-text: exit 2" test $? -eq 2
"$GPUCOMPILE" --no-cache -f isa "$K/saxpy_nvptx.ll" "$K/math_nvptx.ll" 2>"$T_TMP/err"
check "no -o: a usage error (exit 2) that says how to give one" sh -c "test $? -eq 2 && grep -q 'no output: give -o' '$T_TMP/err'"
check "--help documents the batch naming" sh -c "'$GPUCOMPILE' --help | grep -q 'DIR/STEM.EXT'"

# The progress line: on a terminal only (script(1) gives the command one).
if command -v script >/dev/null 2>&1; then
    script -qec "'$GPUCOMPILE' --no-cache -t '$NV' -f isa $IN -o '$T_TMP/tty'" /dev/null > "$T_TMP/tty.out" 2>&1
    check "progress on a terminal: done/total" grep -q '\[3/3\]' "$T_TMP/tty.out"
else
    skip "progress on a terminal (no script(1))"
fi
tally batch
