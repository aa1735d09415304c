# -j N inside one module: ptxas --split-compile N / nvJitLink -split-compile=N when the compile
# has N threads to itself; targets compiled at once share N (never more in total). Each N gives a
# cubin with the same kernel symbols (llvm-readelf). CPU only (ptxas, nvJitLink of CUDA).
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
G="$GPUCOMPILE --no-cache"
K=examples/kernels
NV='#gpu.nvptx<chip = "sm_80">'
entries() { llvm-readelf --syms -W "$1" | awk '$4 == "FUNC" && /<other: 0x10>/ { print $NF }' | sort; }
if ! $G --bin-method ptxas -t "$NV" -f bin $K/reduce_nvptx.ll -o "$T_TMP/one.cubin" 2>"$T_TMP/err"; then
  skip "jobs: no ptxas ($(head -n1 "$T_TMP/err"))"; tally cli_jobs; exit 0
fi
for m in ptxas nvjitlink; do
  $G -v -j 1 --bin-method $m -t "$NV" -f bin $K/reduce_nvptx.ll -o "$T_TMP/j1.cubin" 2>"$T_TMP/v1"
  check "$m -j 1: exit 0" test $? -eq 0
  check "$m -j 1: no split compile" sh -c "! grep -q 'split-compile' '$T_TMP/v1'"
  $G -v -j 2 --bin-method $m -t "$NV" -f bin $K/reduce_nvptx.ll -o "$T_TMP/j2.cubin" 2>"$T_TMP/v2"
  check "$m -j 2: exit 0" test $? -eq 0
  if [ $m = ptxas ]; then check "ptxas -j 2: --split-compile 2" grep -q "running: .*ptxas .*--split-compile 2 " "$T_TMP/v2"
  else check "nvjitlink -j 2: -split-compile=2" grep -q "nvJitLink .*-split-compile=2" "$T_TMP/v2"; fi
  check "$m -j 2: the same kernel entries as -j 1" test "$(entries "$T_TMP/j1.cubin")" = "$(entries "$T_TMP/j2.cubin")"
  check "$m -j 2: the cubin has entries" test -n "$(entries "$T_TMP/j2.cubin")"
  $G -v -j 2 --bin-method $m -t "$NV" -f bin $K/reduce_nvptx.ll -o "$T_TMP/j2b.cubin" 2>/dev/null
  check "$m -j 2: deterministic" cmp -s "$T_TMP/j2.cubin" "$T_TMP/j2b.cubin"
done
# Two targets at once with -j 2: one thread each, no split; -j 4: two each.
$G -v -j 2 --bin-method ptxas -t "$NV" -t '#gpu.nvptx<chip = "sm_90">' -f bin $K/reduce_nvptx.ll -o "$T_TMP/two.bin" 2>"$T_TMP/v"
check "-j 2, two targets: exit 0" test $? -eq 0
check "-j 2, two targets: no split compile" sh -c "! grep -q 'split-compile' '$T_TMP/v'"
$G -v -j 4 --bin-method ptxas -t "$NV" -t '#gpu.nvptx<chip = "sm_90">' -f bin $K/reduce_nvptx.ll -o "$T_TMP/two.bin" 2>"$T_TMP/v"
check "-j 4, two targets: --split-compile 2 for each" test "$(grep -c 'running: .*ptxas .*--split-compile 2 ' "$T_TMP/v")" = 2
check "no temporary files left" test -z "$(ls "$TMPDIR")"
tally cli_jobs
