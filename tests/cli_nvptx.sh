# The command-line tool with #gpu.nvptx targets: cubin, PTX, fatbin, kernel metadata, errors.
# Needs the CUDA toolkit's ptxas (skips without it), never a GPU.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
CUDA=${CUDA_PATH:-${CUDA_HOME:-/usr/local/cuda}}
K=examples/kernels

check "--print-target '#gpu.nvptx'" "$GPUCOMPILE" --print-target '#gpu.nvptx'
if [ ! -x "$CUDA/bin/ptxas" ]; then
  skip "nvptx CLI: no CUDA toolkit at $CUDA"
else
  for k in saxpy math reduce; do
    "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_90">' -f bin "$K/${k}_nvptx.ll" -o "$T_TMP/$k.cubin" 2>"$T_TMP/err"
    check "$k: bin exit 0" test $? -eq 0
    check "$k: the cubin has .text.$k" sh -c "llvm-readelf -S '$T_TMP/$k.cubin' | grep -q ' .text.$k '"
    "$GPUCOMPILE" --no-cache -t '#nvvm.target<chip = "sm_80">' -f isa "$K/${k}_nvptx.ll" -o "$T_TMP/$k.ptx"
    check "$k: #nvvm.target sm_80 PTX accepted by ptxas" "$CUDA/bin/ptxas" -arch=sm_80 "$T_TMP/$k.ptx" -o "$T_TMP/$k.ptx.cubin"
  done
  check "math: no __nv_ left in the PTX" sh -c "! grep -q __nv_ '$T_TMP/math.ptx'"

  "$GPUCOMPILE" --no-cache -v -t '#gpu.nvptx<chip = "sm_90">' -f bin "$K/reduce_nvptx.ll" -o "$T_TMP/r.cubin" 2>"$T_TMP/verr"
  check "-v: kernel metadata (registers, 1024 bytes shared)" grep -q "kernel reduce: params 3, registers [0-9]*, shared 1024 bytes" "$T_TMP/verr"
  check "-v: says which tool made the cubin" grep -q "cubin for sm_90 made by" "$T_TMP/verr"

  "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_90">' -f fatbin "$K/saxpy_nvptx.ll" -o "$T_TMP/s.fatbin"
  check "fatbin starts with the magic 0xBA55ED50" sh -c "od -A n -t x1 -N 4 '$T_TMP/s.fatbin' | grep -q '50 ed 55 ba'"

  "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_90", flags = {ftz}>' -f isa "$K/math_nvptx.ll" -o "$T_TMP/ftz.ptx"
  check "flags = {ftz}: .ftz instructions" test "$(grep -c '\.ftz' "$T_TMP/ftz.ptx")" -ge 10
  "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_90", flags = {fast}>' -f isa "$K/math_nvptx.ll" -o "$T_TMP/fast.ptx"
  check "flags = {fast}: sqrt.approx" grep -q 'sqrt.approx' "$T_TMP/fast.ptx"

  "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_999">' -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/bad.cubin" 2>"$T_TMP/err"
  check "sm_999 exits 1" test $? -eq 1
  check "sm_999: no output file" test ! -e "$T_TMP/bad.cubin"

  "$GPUCOMPILE" --no-cache -t '#gpu.nvptx<chip = "sm_90", features = "+ptx99">' -f isa "$K/saxpy_nvptx.ll" -o "$T_TMP/bad.ptx" 2>"$T_TMP/err"
  check "+ptx99 exits 1" test $? -eq 1
  check "+ptx99 is named" grep -q "ptx99" "$T_TMP/err"

  # MLIR 22's ptxas options on the target: given to ptxas (after ours) and to nvJitLink (as
  # -Xptxas=), and part of the cache key
  PT='#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["--warn-on-spills", "-maxrregcount=16"]}>'
  for m in ptxas nvjitlink; do
    "$GPUCOMPILE" --no-cache -v --bin-method $m -t "$PT" -f bin "$K/math_nvptx.ll" -o "$T_TMP/po-$m.cubin" 2>"$T_TMP/err"
    check "ptxas-cmd-options reach $m: exit 0" test $? -eq 0
    if [ $m = ptxas ]; then
      check "ptxas-cmd-options: ptxas runs with them" grep -q -- "-O2 -v --warn-on-spills -maxrregcount=16 " "$T_TMP/err"
    else
      check "ptxas-cmd-options: nvJitLink gets -Xptxas=" grep -q -- "-Xptxas=--warn-on-spills" "$T_TMP/err"
    fi
    check "ptxas-cmd-options reach $m: ptxas applies -maxrregcount" grep -q "of maxrregcount option" "$T_TMP/err"
  done
  "$GPUCOMPILE" --no-cache --bin-method ptxas -t '#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["--no-such-option"]}>' \
    -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/po-bad.cubin" 2>"$T_TMP/err"
  check "a ptxas option ptxas refuses: exit 1, ptxas's words, no output" sh -c "grep -q 'no-such-option' '$T_TMP/err' && test ! -e '$T_TMP/po-bad.cubin'"
  "$GPUCOMPILE" -t '#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = 3}>' -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/po-3.cubin" 2>"$T_TMP/err"
  check "ptxas-cmd-options that are not strings: refused" grep -q "expected a string or an array" "$T_TMP/err"
  C="$T_TMP/pocache"
  "$GPUCOMPILE" -v --cache-dir "$C" -t "$PT" -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/c1.cubin" 2>/dev/null
  "$GPUCOMPILE" -v --cache-dir "$C" -t '#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["-maxrregcount=16"]}>' \
    -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/c2.cubin" 2>"$T_TMP/err"
  check "other ptxas-cmd-options: not a cache hit" sh -c "! grep -q 'from the cache' '$T_TMP/err'"
  "$GPUCOMPILE" -v --cache-dir "$C" -t "$PT" -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/c3.cubin" 2>"$T_TMP/err"
  check "the same ptxas-cmd-options: a cache hit" grep -q 'from the cache' "$T_TMP/err"

  "$GPUCOMPILE" --no-cache --toolkit /nonexistent/cuda -t '#gpu.nvptx<chip = "sm_90">' -f bin "$K/saxpy_nvptx.ll" -o "$T_TMP/t.cubin" 2>"$T_TMP/err"
  check "--toolkit that does not exist exits 1" test $? -eq 1
  check "--toolkit that does not exist is named" grep -q "/nonexistent/cuda" "$T_TMP/err"
fi
check "no temporary files left" test -z "$(ls "$T_TMP/tmp")"
tally nvptx-cli
