# NVPTX code generation in -j N partitions, joined into one PTX module: for N = 1, 2, 3 the PTX
# passes ptxas without a warning, the PTX, cubin and fatbin hold the same .entry kernels with the
# same metadata (-v's kernel lines, the cubin's .nv.info per kernel) as N = 1, and each N gives
# the same bytes twice. On tests/data/parts_nvptx.ll (helpers, constants and globals that the
# partitions share) and on the corpus' quick NVPTX modules (tests/corpus/corpus.sh --keep).
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
G="$GPUCOMPILE --no-cache"
SM80='#gpu.nvptx<chip = "sm_80">'
entries() { grep -o '^\.visible \.entry [A-Za-z0-9_$]*' "$1" | sort; } # PTX
cubin_kernels() { llvm-readelf --syms -W "$1" | awk '$4 == "FUNC" && /<other: 0x10>/ { print $NF }' | sort -u; }
cubin_info() { # the kernels that have their .nv.info.KERNEL section
  llvm-readelf -S -W "$1" | grep -o ' \.nv\.info\.[A-Za-z0-9_$]*' | sed 's/ \.nv\.info\.//' | sort > "$1.info"
  cubin_kernels "$1" | comm -12 - "$1.info"
}
kernel_lines() { grep '^  kernel ' "$1" | sort; }

# joined NAME IN [-l LIB]: the checks above for one module
joined() {
  name=$1 in=$2; shift 2
  d=$T_TMP/$name; mkdir -p "$d"
  for j in 1 2 3; do
    $G -v -j $j -t "$SM80" -f isa "$in" "$@" -o "$d/j$j.ptx" 2>"$d/j$j.isa.err"
    check "$name -j $j: PTX exit 0" test $? -eq 0
    if [ $j -gt 1 ]; then
      $G -j $j -t "$SM80" -f isa "$in" "$@" -o "$d/j$j.again.ptx"
      check "$name -j $j: the same PTX twice" cmp -s "$d/j$j.ptx" "$d/j$j.again.ptx"
      check "$name -j $j: code generation in partitions, joined" \
        sh -c "grep -q 'code generation in [0-9]* partitions' '$d/j$j.isa.err' && grep -q 'partitions joined into one module' '$d/j$j.isa.err'"
    fi
    if [ -n "$HAVE_CUDA" ]; then
      "$T_CUDA/bin/ptxas" -arch=sm_80 "$d/j$j.ptx" -o "$d/j$j.ptxas.cubin" 2>"$d/j$j.ptxas.err"
      check "$name -j $j: ptxas accepts the PTX, without a warning" sh -c "[ $? -eq 0 ] && ! grep -q . '$d/j$j.ptxas.err'"
    fi
    check "$name -j $j: the .entry kernels of -j 1" test "$(entries "$d/j$j.ptx")" = "$(entries "$d/j1.ptx")"
    [ -n "$HAVE_CUDA" ] || continue
    $G -v -j $j -t "$SM80" "$in" "$@" -o "$d/j$j.cubin" 2>"$d/j$j.err"
    check "$name -j $j: cubin exit 0" test $? -eq 0
    if [ $j -gt 1 ]; then
      $G -j $j -t "$SM80" "$in" "$@" -o "$d/j$j.again.cubin"
      check "$name -j $j: the same cubin twice" cmp -s "$d/j$j.cubin" "$d/j$j.again.cubin"
    fi
    check "$name -j $j: the cubin's kernels and .nv.info sections of -j 1" \
      sh -c "[ -n \"$(cubin_kernels "$d/j$j.cubin")\" ] && [ \"$(cubin_kernels "$d/j$j.cubin")\" = \"$(cubin_kernels "$d/j1.cubin")\" ] &&
             [ \"$(cubin_info "$d/j$j.cubin")\" = \"$(cubin_info "$d/j1.cubin")\" ]"
    check "$name -j $j: -v's kernel metadata of -j 1" test "$(kernel_lines "$d/j$j.err")" = "$(kernel_lines "$d/j1.err")"
    $G -j $j -t "$SM80" -f fatbin "$in" "$@" -o "$d/j$j.fatbin"
    check "$name -j $j: fatbin" sh -c "[ $? -eq 0 ] && od -An -tx4 -N4 '$d/j$j.fatbin' | grep -q ba55ed50"
  done
  [ -z "$HAVE_CUDA" ] && skip "$name: cubin and ptxas checks: no ptxas at $T_CUDA/bin"
}

joined parts tests/data/parts_nvptx.ll
d=$T_TMP/parts
check "parts -j 2: the helper copies that are the same PTX are joined into one (scale, count, twice)" \
  sh -c "[ \$(grep -c '^\.func .* scale(\$' '$d/j2.ptx') -eq 1 ] && [ \$(grep -c '^\.func count(\$' '$d/j2.ptx') -eq 1 ] &&
         [ \$(grep -c '^\.weak \.func .* twice(\$' '$d/j2.ptx') -eq 1 ] && ! grep -q 'twice_\\$' '$d/j2.ptx'"
check "parts -j 2: the visible globals defined once, no .extern left for them" \
  sh -c "[ \$(grep -c '^\.visible \.global [^=]* counter;' '$d/j2.ptx') -eq 1 ] && ! grep -q '^\.extern .* \(counter\|hits\|fmt\|coeffs\)' '$d/j2.ptx'"
check "parts -j 2: the dynamic shared array stays one .extern" test "$(grep -c '^\.extern \.shared .* dyn\[\];' "$d/j2.ptx")" -eq 1
check "parts -j 2: one .version, .target and .address_size" \
  sh -c "[ \$(grep -c '^\.version ' '$d/j2.ptx') -eq 1 ] && [ \$(grep -c '^\.target ' '$d/j2.ptx') -eq 1 ] && [ \$(grep -c '^\.address_size ' '$d/j2.ptx') -eq 1 ]"

# Line information joins (one .file table, .loc renumbered); the DWARF sections cannot (each
# partition's describes its own labels): left out, and with --debug the compile is refused.
D=tests/data/parts_debug_nvptx.ll
$G -v -j 2 -t "$SM80" -f isa $D -o "$T_TMP/dbg.ptx" 2>"$T_TMP/dbg.err"
check "debug info, -j 2: PTX exit 0, the DWARF sections left out (a note says so)" \
  sh -c "[ $? -eq 0 ] && grep -q 'DWARF sections are left out' '$T_TMP/dbg.err' && ! grep -q '\.section' '$T_TMP/dbg.ptx'"
check "debug info, -j 2: one .file for the source, the .loc lines name it" \
  sh -c "[ \$(grep -c '\.file.*dbgs\.cu' '$T_TMP/dbg.ptx') -eq 1 ] && grep -q '\.loc	1 ' '$T_TMP/dbg.ptx'"
if [ -n "$HAVE_CUDA" ]; then
  check "debug info, -j 2: ptxas accepts the PTX" "$T_CUDA/bin/ptxas" -arch=sm_80 "$T_TMP/dbg.ptx" -o "$T_TMP/dbg.cubin"
fi
$G -j 2 --debug -t "$SM80" -f isa $D -o "$T_TMP/dbgd.ptx" 2>"$T_TMP/dbgd.err"
check "debug info, -j 2 --debug: exit 1, why, no output" \
  sh -c "[ $? -eq 1 ] && grep -q 'debug information (.section .debug_\*) is not joined' '$T_TMP/dbgd.err' && [ ! -e '$T_TMP/dbgd.ptx' ]"

# The corpus' quick NVPTX modules (their clang output; OpenCL ones link libclc as corpus.sh does).
keep=$T_TMP/corpus
bash tests/corpus/corpus.sh --quick --target nvptx --keep "$keep" > "$T_TMP/corpus.out" 2>&1
rc=$?
if [ $rc = 77 ]; then
  skip "corpus modules: $(grep -m1 '^SKIP' "$T_TMP/corpus.out" | cut -c6-)"
else
  CLC=/usr/lib/clc/nvptx64--nvidiacl.bc
  [ -f $CLC ] || CLC=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}/libclc-19/usr/lib/clc/nvptx64--nvidiacl.bc
  mods=0
  for in in "$keep"/nvptx/*/*/in.ll; do
    [ -f "$in" ] && [ -f "$(dirname "$in")/ref.bin" ] || continue # what the reference compiles
    [ "$(grep -c '^define .*ptx_kernel\|"kernel", i32 1}' "$in")" -ge 2 ] || continue
    mod=$(echo "$in" | sed "s|$keep/nvptx/||; s|/in.ll||")
    case $mod in *.cl|darktable/*|hashcat-data/*|python3-*/*) set -- -l "$CLC" ;; *) set -- ;; esac
    joined "$mod" "$in" "$@"
    mods=$((mods + 1))
  done
  check "corpus: at least one quick module with two kernels or more ($mods)" test $mods -ge 1
fi
tally cli_ptxjoin
