# The command-line tool over the pipeline: formats, exit codes, no output file on failure.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
K=examples/kernels/saxpy_nvptx.ll

"$GPUCOMPILE" -f isa "$K" -o "$T_TMP/a.ptx" 2>"$T_TMP/err"
check "isa exit 0" test $? -eq 0
check "isa has the kernel" grep -q ".entry saxpy" "$T_TMP/a.ptx"
check "isa: nothing on stderr" test ! -s "$T_TMP/err"

"$GPUCOMPILE" -f assembly "$K" -o "$T_TMP/b.ptx" && cmp -s "$T_TMP/a.ptx" "$T_TMP/b.ptx"
check "MLIR's name 'assembly' gives the same PTX" test $? -eq 0

"$GPUCOMPILE" -f llvm "$K" -o "$T_TMP/a.bc"
check "llvm format is bitcode that llvm-dis reads" sh -c "llvm-dis '$T_TMP/a.bc' -o - | grep -q 'define ptx_kernel void @saxpy'"

"$GPUCOMPILE" -f isa - -o "$T_TMP/stdin.ptx" < "$K"
check "stdin input" cmp -s "$T_TMP/a.ptx" "$T_TMP/stdin.ptx"

"$GPUCOMPILE" -f isa "$K" -o - > "$T_TMP/stdout.ptx"
check "stdout output" cmp -s "$T_TMP/a.ptx" "$T_TMP/stdout.ptx"

"$GPUCOMPILE" --no-cache -v -f isa "$K" -o "$T_TMP/v.ptx" 2>"$T_TMP/verr"
check "-v prints the stage times" grep -q "stages (ms):.*optimize" "$T_TMP/verr"
check "-v prints the kernel" grep -q "kernel saxpy" "$T_TMP/verr"

printf 'define void @f( {' > "$T_TMP/bad.ll"
"$GPUCOMPILE" -f isa "$T_TMP/bad.ll" -o "$T_TMP/bad.ptx" 2>"$T_TMP/err"
check "syntax error exits 1" test $? -eq 1
check "syntax error: no output file" test ! -e "$T_TMP/bad.ptx"
check "syntax error names the file" grep -q "bad.ll" "$T_TMP/err"

echo "previous" > "$T_TMP/keep.ptx"
"$GPUCOMPILE" -f isa "$T_TMP/bad.ll" -o "$T_TMP/keep.ptx" 2>/dev/null
check "failed compile leaves a previous output untouched" grep -q previous "$T_TMP/keep.ptx"
check "no temporary output next to the output" test -z "$(ls "$T_TMP" | grep '\.tmp')"

"$GPUCOMPILE" -f isa "$T_TMP/missing.ll" -o "$T_TMP/m.ptx" 2>"$T_TMP/err"
check "missing input exits 1" test $? -eq 1
check "missing input is named" grep -q "missing.ll" "$T_TMP/err"

"$GPUCOMPILE" -f isa "$K" -o "$T_TMP/no/such/dir/a.ptx" 2>"$T_TMP/err"
check "unwritable output exits 1" test $? -eq 1
check "unwritable output is named" grep -q "no/such/dir" "$T_TMP/err"

"$GPUCOMPILE" -f nope "$K" 2>/dev/null
check "unknown format exits 2" test $? -eq 2
"$GPUCOMPILE" --no-such-option "$K" 2>/dev/null
check "unknown option exits 2" test $? -eq 2
"$GPUCOMPILE" 2>/dev/null
check "no input exits 2" test $? -eq 2
"$GPUCOMPILE" -o 2>/dev/null
check "option without value exits 2" test $? -eq 2
"$GPUCOMPILE" --help > "$T_TMP/help"
check "--help exits 0 and lists --target" grep -q -- "--target" "$T_TMP/help"
# its targets come from the backend table: every attribute, with the formats' file extensions
check "--help lists every backend's attributes and file extensions" sh -c "grep -q '#gpu.nvptx<...>, #nvvm.target<...>' '$T_TMP/help' &&
    grep -q '#gpu.amdgpu<...>, #rocdl.target<...>' '$T_TMP/help' && grep -q '#gpu.spirv<...>, #xevm.target<...>' '$T_TMP/help' &&
    grep -q 'bin (.cubin)' '$T_TMP/help' && grep -q 'bin (.hsaco)' '$T_TMP/help'"
# --version names the LLVM run on (LLVMGetVersion), the one llvm-config of that major reports
"$GPUCOMPILE" --version | grep -q "(LLVM $(llvm-config --version | sed 's/[^0-9.].*//')"
check "--version names the LLVM it runs on" test $? -eq 0

check "no temp file left behind" test -z "$(ls -A "$TMPDIR")"
# The cache: a second run is a hit with the same bytes; --no-cache and --cache-dir work.
"$GPUCOMPILE" --cache-dir "$T_TMP/c" -f isa "$K" -o "$T_TMP/c1.ptx"
"$GPUCOMPILE" --cache-dir "$T_TMP/c" -v -f isa "$K" -o "$T_TMP/c2.ptx" 2>"$T_TMP/cerr"
check "cache hit says so" grep -q "from the cache" "$T_TMP/cerr"
check "cache hit gives the same bytes" cmp -s "$T_TMP/c1.ptx" "$T_TMP/c2.ptx"
check "cache entries are in --cache-dir" test -n "$(ls "$T_TMP/c")"
"$GPUCOMPILE" --cache-dir "$T_TMP/c" --no-cache -v -f isa "$K" -o "$T_TMP/c3.ptx" 2>"$T_TMP/cerr"
check "--no-cache compiles" sh -c "! grep -q 'from the cache' '$T_TMP/cerr'"
# Concurrent processes sharing one cache never see a torn entry.
i=0; while [ $i -lt 8 ]; do
  "$GPUCOMPILE" --cache-dir "$T_TMP/cc" -f isa tests/data/loop_nvptx.ll -o "$T_TMP/p$i.ptx" &
  i=$((i+1))
done; wait
same=1; i=0; while [ $i -lt 8 ]; do cmp -s "$T_TMP/p0.ptx" "$T_TMP/p$i.ptx" || same=0; i=$((i+1)); done
check "8 concurrent processes on one cache: identical outputs" test $same -eq 1
tally cli_pipeline
