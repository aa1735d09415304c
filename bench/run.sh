#!/usr/bin/env bash
# The benchmark (`make bench`): real OpenCL kernels (darktable's, from the Debian package, the
# corpus test's cache) compiled by clang to LLVM bitcode for NVPTX and AMDGPU, then to cubin
# and hsaco by one gpucompile process, by LLVM's tools (one process per step and module), and by
# mlir-opt --gpu-module-to-binary, for each LLVM measured: gpucompile built on LLVM N against
# LLVM N's tools and mlir-opt-N. Also the same batch cold and warm with the cache, -j 2 vs -j 1,
# and the per-stage times of gpucompile -v (the first LLVM only). Then one big multi-kernel module
# per target (the corpus' Eigen tensor driver as CUDA and as HIP) at -j 1 and -j 2 with peak
# memory, and a batch of small AMDGPU kernels with the in-process hsaco writer against ld.lld.
# And the first cache hit of each format in a fresh process (bench/first_hit.c), against 1 ms
# and against the same hit without the dependencies' identity records.
# Each row runs side by side in every repetition; the table shows medians and ratios. See
# bench/README.md.
#
#   bench/run.sh [--reps N] [--max N] [--rows LIST]
#     --max N      N darktable modules at most per target (default: all)
#     --rows LIST  the groups of rows, comma-separated: darktable, big, small, hit (default those
#                  four), vulkan (bench/vulkan.sh: IR to the first Vulkan dispatch; only when named),
#                  clvk (bench/clvk.sh: the same OpenCL C kernels for OpenCL SPIR-V and for Vulkan,
#                  compiled, and run on the OpenCL and the Vulkan runtime; only when named)
# Environment: GPUCOMPILE (default build/gpucompile), BENCH_ALSO (more "N:path/to/gpucompile"
# built on LLVM N; default "19:build19/gpucompile" when that exists), GPUCOMPILE_CORPUS_CACHE
# (default ${XDG_CACHE_HOME:-~/.cache}/gpucompile-corpus), CUDA_PATH (default /usr/local/cuda),
# BENCH_BASE (a gpucompile to compare -j 1 against on the big modules, e.g. one built from main).
# Exit: 0 measured (targets missed or not), 1 something failed, 77 cannot run here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
CUDA=${CUDA_PATH:-/usr/local/cuda}
REPS=3 MAX=1000 ROWS=darktable,big,small,hit
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift ;;
    --max) MAX=$2; shift ;;
    --rows) ROWS=$2; shift ;;
    *) echo "usage: bench/run.sh [--reps N] [--max N] [--rows darktable,big,small,hit,vulkan,clvk,webgpu]" >&2; exit 2 ;;
    esac
    shift
done
want() { case ",$ROWS," in *",$1,"*) return 0 ;; esac; return 1; }
# The Vulkan rows (bench/vulkan.sh) and the OpenCL-vs-Vulkan rows (bench/clvk.sh), on request,
# need none of the tools below: named alone, they run alone.
case ",$ROWS," in
,vulkan,) exec bash "$HERE/vulkan.sh" --reps "$REPS" ;;
,webgpu,) exec bash "$HERE/webgpu.sh" --reps "$REPS" ;;
,clvk,) GPUCOMPILE=$GPUCOMPILE exec bash "$HERE/clvk.sh" --reps "$REPS" ;;
,vulkan,clvk, | ,clvk,vulkan,)
    bash "$HERE/vulkan.sh" --reps "$REPS"; r=$?; echo
    GPUCOMPILE=$GPUCOMPILE bash "$HERE/clvk.sh" --reps "$REPS"; r2=$?
    [ $r = 1 ] || [ $r2 = 1 ] && exit 1
    [ $r = 0 ] || [ $r2 = 0 ] && exit 0
    exit 77 ;;
esac
NV_CHIP=sm_80 NV_CHIP2=sm_90 AMD_CHIP=gfx90a

# The LLVMs measured: GPUCOMPILE's (its --version names it), then BENCH_ALSO's.
major_of() { "$1" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p'; }
P=$(major_of "$GPUCOMPILE")
[ -n "$P" ] || { echo "SKIP bench: $GPUCOMPILE does not run"; exit 77; }
declare -A GC=([$P]=$GPUCOMPILE)
VS=($P)
[ -z "${BENCH_ALSO+x}" ] && [ -x "$ROOT/build19/gpucompile" ] && [ "$P" != 19 ] && BENCH_ALSO="19:$ROOT/build19/gpucompile"
for e in ${BENCH_ALSO:-}; do
    v=${e%%:*} g=${e#*:}
    [ "$(major_of "$g")" = "$v" ] || { echo "bench: BENCH_ALSO: $g is not built on LLVM $v"; exit 1; }
    GC[$v]=$g; VS+=("$v")
done
for v in "${VS[@]}"; do
    for t in llvm-link-$v opt-$v llc-$v ld.lld-$v mlir-translate-$v mlir-opt-$v; do
        command -v "$t" >/dev/null 2>&1 || { echo "SKIP bench: $t not found"; exit 77; }
    done
done
# The kernels are compiled once, by the oldest LLVM's clang: every newer LLVM reads its bitcode
# (not the other way round), and clang 22 wants OpenCL's image functions switched on by hand.
C=$(printf '%s\n' "${VS[@]}" | sort -n | head -n1)
for t in clang-$C clang-19 llvm-as-$C python3 bc dpkg apt-get "$CUDA/bin/ptxas"; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP bench: $t not found"; exit 77; }
done

# ---- the kernels: the corpus test's cache layout (apt-get download + dpkg -x, once) ----------
fetch() { # PKG
    local p=$1 tmp
    [ -f "$CACHE/$p/.done" ] && return 0
    mkdir -p "$CACHE" && tmp=$(mktemp -d "$CACHE/.dl.XXXXXX") || return 1
    (cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1) ||
        { [ "$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1 && (cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1); } ||
        { rm -rf "$tmp"; return 1; }
    mkdir -p "$tmp/x" && dpkg -x "$tmp"/*.deb "$tmp/x" && touch "$tmp/x/.done" && rm -rf "$CACHE/$p" && mv "$tmp/x" "$CACHE/$p"
    local r=$?; rm -rf "$tmp"; return $r
}
if want darktable; then fetch darktable || { echo "SKIP bench: cannot download darktable (no network?)"; exit 77; }; fi
CLC=/usr/lib/clc/nvptx64--nvidiacl.bc
if [ ! -f $CLC ] && want darktable; then
    fetch libclc-19 || { echo "SKIP bench: no libclc-19"; exit 77; }
    CLC=$CACHE/libclc-19/usr/lib/clc/nvptx64--nvidiacl.bc
fi
LIBDEVICE=$CUDA/nvvm/libdevice/libdevice.10.bc
ROCM_BC=$(ls -d /usr/lib/*/amdgcn/bitcode 2>/dev/null | head -n1)
[ -n "$ROCM_BC" ] && [ -f "$LIBDEVICE" ] || { echo "SKIP bench: rocm-device-libs or libdevice missing"; exit 77; }
AMD_DEVLIBS="$ROCM_BC/ocml.bc $ROCM_BC/ockl.bc" # what gpucompile adds itself
for c in isa_version_${AMD_CHIP#gfx} abi_version_500 wavefrontsize64_on daz_opt_off unsafe_math_off finite_only_off correctly_rounded_sqrt_on; do
    AMD_DEVLIBS="$AMD_DEVLIBS $ROCM_BC/oclc_$c.bc"
done
AMD_LIBS="$ROCM_BC/opencl.bc $AMD_DEVLIBS"
KDIR=$CACHE/darktable/usr/share/darktable/kernels

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
NV_T="#gpu.nvptx<chip = \"$NV_CHIP\">" NV_T2="#gpu.nvptx<chip = \"$NV_CHIP2\">" AMD_T="#gpu.amdgpu<chip = \"$AMD_CHIP\">"
NV_LINK=(-l "$W/images.bc" -l "$CLC")
AMD_LINK=(-l "$ROCM_BC/opencl.bc")
llvm-as-$C "$HERE/images_nvptx.ll" -o "$W/images.bc" || exit 1
for v in "${VS[@]}"; do # where mlir-opt looks for lld, and for ROCm's libraries (MLIR 22 links
    # ocml and ockl itself when the module calls them)
    mkdir -p "$W/tk$v/llvm/bin" "$W/tk$v/amdgcn" && ln -s "$(command -v ld.lld-$v)" "$W/tk$v/llvm/bin/ld.lld" &&
        ln -s "$ROCM_BC" "$W/tk$v/amdgcn/bitcode"
done

# clang-$C as darktable's opencl.c builds them (the corpus test's flags), one input for every
# LLVM measured. NVPTX only: libclc 19
# has no images for NVPTX (images.bc stands in) and its native_* math are LLVM intrinsics that
# NVPTX cannot lower ("no libcall available for fexp"): the precise functions stand in.
CLANG_FLAGS="-x cl -cl-std=CL1.2 -cl-no-stdinc -Xclang -finclude-default-header -emit-llvm -c
    -O0 -Xclang -disable-O0-optnone -fgnu89-inline -w -cl-fast-relaxed-math -I $KDIR"
NATIVE=""
for n in powr exp log sqrt sin cos log2 exp2 log10 exp10 rsqrt tan; do NATIVE="$NATIVE -Dnative_$n=$n"; done

# A module is in the batch when the chain of every LLVM measured compiles it for that target
# (checked here, untimed); the others are counted.
reference() { # LLVM TARGET IN OUT LIB...: LLVM's tools, one process per step (LLC_ATTR: llc's -mattr)
    local v=$1 t=$2 in=$3 out=$4 b=${4%.*}
    shift 4
    if [ "$t" = nvptx ]; then
        llvm-link-$v --only-needed -suppress-warnings "$in" "$@" -o "$b.l.bc" &&
        opt-$v -O2 -mcpu=$NV_CHIP "$b.l.bc" -o "$b.o.bc" && llc-$v -O2 -mcpu=$NV_CHIP ${LLC_ATTR:+-mattr=$LLC_ATTR} "$b.o.bc" -o "$b.ptx" &&
        "$CUDA/bin/ptxas" -arch=$NV_CHIP "$b.ptx" -o "$out"
    else
        llvm-link-$v --only-needed -suppress-warnings "$in" "$@" -o "$b.l.bc" &&
        opt-$v -O2 -mcpu=$AMD_CHIP "$b.l.bc" -o "$b.o.bc" && llc-$v -O2 -mcpu=$AMD_CHIP -filetype=obj "$b.o.bc" -o "$b.o" &&
        ld.lld-$v -shared --no-undefined "$b.o" -o "$out"
    fi
}
ref_libs() { # TARGET: the darktable modules' libraries
    if [ "$1" = nvptx ]; then echo "$W/images.bc $CLC $LIBDEVICE"; else echo "$AMD_LIBS"; fi
}
mlir_input() { # LLVM TARGET IN OUT.mlir LIB...: imported (untimed: an MLIR user starts from MLIR)
    local v=$1 t=$2 in=$3 out=$4
    shift 4
    if [ "$t" = nvptx ]; then set -- nvvm $NV_CHIP "$@"; else set -- rocdl $AMD_CHIP "$@"; fi
    mlir-translate-$v --import-llvm "$in" 2>"$out.err" > "$out.raw" && python3 "$HERE/mlir_wrap.py" "$@" < "$out.raw" > "$out"
    local r=$?; rm -f "$out.raw"; [ $r != 0 ] || rm -f "$out.err"; return $r
}
mlir_compile() { # LLVM IN.mlir OUT
    mlir-opt-$1 "--gpu-module-to-binary=format=bin toolkit=$W/tk$1" "$2" -o "$3" 2>/dev/null
}

want darktable && echo "bench: preparing darktable's kernels (clang-$C, reference check and MLIR import on LLVM ${VS[*]}) ..."
declare -A EXCLUDED MLIR_EXCLUDED
for t in $(want darktable && echo nvptx amdgpu); do
    mkdir -p "$W/in/$t" "$W/chk"
    for v in "${VS[@]}"; do mkdir -p "$W/mlir$v/$t"; done
    n=0
    for f in "$KDIR"/*.cl; do
        s=$(basename "$f" .cl)
        [ $n -ge "$MAX" ] && break
        if [ $t = nvptx ]; then tf="-target nvptx64-nvidia-cuda -DNVIDIA=1 $NATIVE"; else tf="-target amdgcn-amd-amdhsa -mcpu=$AMD_CHIP -nogpulib -DAMD=1"; fi
        # shellcheck disable=SC2086
        clang-$C $CLANG_FLAGS $tf "$f" -o "$W/in/$t/$s.bc" 2>/dev/null || { EXCLUDED[$t]+=" $s(clang)"; rm -f "$W/in/$t/$s.bc"; continue; }
        # LLVM aborts on some modules: run the reference in a subshell, quietly.
        for v in "${VS[@]}"; do
            # shellcheck disable=SC2046
            if ! (reference "$v" $t "$W/in/$t/$s.bc" "$W/chk/$s.bin" $(ref_libs $t)) >/dev/null 2>&1; then
                EXCLUDED[$t]+=" $s(LLVM $v)"; rm -f "$W/in/$t/$s.bc"; break
            fi
        done
        [ -f "$W/in/$t/$s.bc" ] || continue
        for v in "${VS[@]}"; do
            # shellcheck disable=SC2046
            if ! { mlir_input "$v" $t "$W/in/$t/$s.bc" "$W/mlir$v/$t/$s.mlir" $(ref_libs $t) && mlir_compile "$v" "$W/mlir$v/$t/$s.mlir" "$W/chk/$s.m"; } >/dev/null 2>&1; then
                MLIR_EXCLUDED[$t]+=" $s(mlir-opt-$v)"; rm -f "$W/mlir$v/$t/$s.mlir"*
            fi
        done
        n=$((n + 1))
    done
    echo "  $t: $n modules${EXCLUDED[$t]:+; left out (LLVM tools fail too):${EXCLUDED[$t]}}${MLIR_EXCLUDED[$t]:+; mlir-opt cannot compile:${MLIR_EXCLUDED[$t]}}"
done
rm -rf "$W/chk"

# ---- timed commands -----------------------------------------------------------------------
now() { echo "${EPOCHREALTIME/,/.}"; }
declare -A T # T[row,rep] seconds
timed() { # ROW REP COMMAND...: runs it, records its wall time; a failure fails the bench
    local row=$1 rep=$2 s e; shift 2
    s=$(now)
    if ! "$@" >"$W/last.out" 2>&1; then echo "bench: $row failed:"; tail -5 "$W/last.out"; exit 1; fi
    e=$(now)
    T[$row,$rep]=$(echo "$e - $s" | bc -l)
}
tools_batch() { # LLVM TARGET: LLVM's tools over the batch
    local f
    mkdir -p "$W/out/ref"
    # shellcheck disable=SC2046
    for f in "$W/in/$2"/*.bc; do reference "$1" "$2" "$f" "$W/out/ref/$(basename "$f" .bc).bin" $(ref_libs "$2") || return 1; done
}
mlir_batch() { # LLVM TARGET
    local f
    mkdir -p "$W/out/mlir"
    for f in "$W/mlir$1/$2"/*.mlir; do mlir_compile "$1" "$f" "$W/out/mlir/$(basename "$f" .mlir).out" || return 1; done
}
mlir_modules() { # LLVM TARGET: the modules mlir-opt compiles, as bitcode, for the fair gpucompile row
    local f
    for f in "$W/mlir$1/$2"/*.mlir; do echo "$W/in/$2/$(basename "$f" .mlir).bc"; done
}
gc() { "$GPUCOMPILE" "$@"; }
gcv() { local v=$1; shift; "${GC[$v]}" "$@"; } # gpucompile built on LLVM v
NV_IN=("$W/in/nvptx"/*.bc) AMD_IN=("$W/in/amdgpu"/*.bc)
for v in $(want darktable && echo "${VS[@]}"); do
    mlir_modules "$v" nvptx > "$W/nv.min$v"; mlir_modules "$v" amdgpu > "$W/amd.min$v"
done
# ---- the big modules and the small AMDGPU kernels (prepared untimed) -----------------------
# Both come from the corpus test's frontend (clang-19, its flags and Debian packages, fetched
# into the same cache); 77 when a package cannot be fetched.
corpus_ir() { # TARGET PKG FILE OUT.ll
    GPUCOMPILE_CORPUS_CACHE=$CACHE CUDA_PATH=$CUDA bash "$ROOT/tests/corpus/corpus.sh" --ir "$@" > "$W/ir.log" 2>&1
}
kernels_of() { bash "$ROOT/tests/corpus/corpus.sh" --kernels "$@"; } # TARGET BINARY
# The rows below run LLVM's tools and mlir-opt under peak.py: the functions go with them.
export -f reference mlir_compile
export W CUDA NV_CHIP AMD_CHIP
declare -A M # M[row,rep] peak MiB of a command and its children
timed_mem() { # ROW REP COMMAND...: as timed, with the peak memory (bench/peak.py); 1 on failure
    local row=$1 rep=$2; shift 2
    if ! python3 "$HERE/peak.py" "$W/peak" "$@" >"$W/last.out" 2>&1; then echo "bench: $row failed:"; tail -5 "$W/last.out"; return 1; fi
    read -r "T[$row,$rep]" "M[$row,$rep]" < "$W/peak"
}

# The big modules: the corpus' Eigen tensor driver as CUDA (NVPTX) and as HIP (AMDGPU), over
# 5 MB of IR and tens of kernels each, the same libraries on every side.
BIG_TS=""
declare -A BIG_SRC BIG_LIBS BIG_GCLINK BIG_PTX BIG_NOTE BIG_K
if want big; then
    echo "bench: preparing the big modules (the corpus' Eigen tensor driver, clang-19; MLIR import on LLVM ${VS[*]}) ..."
    for t in nvptx amdgpu; do
        if [ $t = nvptx ]; then set -- cuda eigen_tensor.cu; BIG_LIBS[$t]=$LIBDEVICE BIG_GCLINK[$t]=""
        else set -- hip eigen_tensor.hip; BIG_LIBS[$t]="$ROCM_BC/hip.bc $AMD_DEVLIBS" BIG_GCLINK[$t]="-l $ROCM_BC/hip.bc"; fi
        BIG_SRC[$t]=tests/corpus/$1/$2
        corpus_ir $t "$1" "$2" "$W/big.$t.ll"; r=$?
        if [ $r = 77 ]; then echo "  SKIP the $t big module: $(tail -n1 "$W/ir.log")"; continue; fi
        [ $r = 0 ] || { echo "bench: clang-19 fails on ${BIG_SRC[$t]}:"; tail -5 "$W/ir.log"; exit 1; }
        BIG_TS="$BIG_TS $t"
        # llc wants clang's +ptxNN of the functions by hand (gpucompile reads it from them)
        BIG_PTX[$t]=$(grep -o '+ptx[0-9]*' "$W/big.$t.ll" | sort -u -t x -k2,2n | tail -n1)
        for v in "${VS[@]}"; do
            # shellcheck disable=SC2086
            mlir_input "$v" $t "$W/big.$t.ll" "$W/big$v.$t.mlir" ${BIG_LIBS[$t]} || {
                BIG_NOTE[$t,$v]="mlir-translate-$v cannot import it: $(grep -m1 'error' "$W/big$v.$t.mlir.err" | sed 's/^.*error: //' | cut -c1-80)"
                rm -f "$W/big$v.$t.mlir"*; }
        done
        echo "  $t: ${BIG_SRC[$t]}, $(( $(wc -c < "$W/big.$t.ll") / 1000 )) kB of IR"
    done
fi
big_rep() { # REP: each big module through gpucompile -j 1 and -j 2, LLVM's tools and mlir-opt
    local rep=$1 t v tt o=$W/out/big k
    for t in $BIG_TS; do
        if [ $t = nvptx ]; then tt=$NV_T; else tt=$AMD_T; fi
        for v in "${VS[@]}"; do
            rm -rf "$o" && mkdir -p "$o"
            # shellcheck disable=SC2086
            {
                timed_mem big.$t.j1.$v "$rep" "${GC[$v]}" --no-cache -j 1 -t "$tt" ${BIG_GCLINK[$t]} "$W/big.$t.ll" -o "$o/j1.bin" &&
                LLC_ATTR=${BIG_PTX[$t]} timed_mem big.$t.tools.$v "$rep" bash -c 'reference "$@"' reference "$v" $t "$W/big.$t.ll" "$o/ref.bin" ${BIG_LIBS[$t]} &&
                timed_mem big.$t.j2.$v "$rep" "${GC[$v]}" --no-cache -j 2 -t "$tt" ${BIG_GCLINK[$t]} "$W/big.$t.ll" -o "$o/j2.bin" &&
                if [ "$v" = "$P" ] && [ -n "${BENCH_BASE:-}" ]; then
                    timed_mem big.$t.base "$rep" "$BENCH_BASE" --no-cache -j 1 -t "$tt" ${BIG_GCLINK[$t]} "$W/big.$t.ll" -o "$o/base.bin"
                fi
            } || exit 1
            if [ -f "$W/big$v.$t.mlir" ]; then
                timed_mem big.$t.mlir.$v "$rep" bash -c 'mlir_compile "$@"' mlir_compile "$v" "$W/big$v.$t.mlir" "$o/m.out" ||
                    { BIG_NOTE[$t,$v]="mlir-opt-$v fails on it"; rm -f "$W/big$v.$t.mlir"; }
            fi
            # every binary holds the chain's kernels
            k=$(kernels_of $t "$o/ref.bin")
            for b in j1 j2; do
                [ "$(kernels_of $t "$o/$b.bin")" = "$k" ] || { echo "bench: gpucompile -j ${b#j} (LLVM $v) on the $t big module: other kernels than LLVM's tools"; exit 1; }
            done
            BIG_K[$t]=$(echo "$k" | wc -l)
        done
    done
}

# The small AMDGPU kernels: the repository's (examples, tests/data), ten copies of each, and the
# corpus test's quick subset for AMDGPU (its OpenCL modules), three copies each: one batch each,
# the hsaco written in process (the default) against ld.lld spawned per module (what every
# compile did before) and against LLVM's tools.
SMALL_BS=""
declare -A SMALL_LIBS SMALL_LINK SMALL_LLD SMALL_N
if want small; then
    echo "bench: preparing the small AMDGPU kernels ..."
    mkdir -p "$W/small/repo" "$W/small/quick"
    for c in $(seq 1 10); do
        for f in examples/kernels/saxpy_amdgpu.ll examples/kernels/reduce_amdgpu.ll examples/kernels/math_amdgpu.ll tests/data/dynshared_amdgpu.ll; do
            ln -s "$ROOT/$f" "$W/small/repo/$(basename "$f" .ll)_$c.ll"
        done
    done
    SMALL_BS=repo SMALL_LIBS[repo]=$AMD_DEVLIBS SMALL_LINK[repo]=""
    SMALL_LIBS[quick]=$AMD_LIBS SMALL_LINK[quick]="-l $ROCM_BC/opencl.bc"
    for m in hashcat-data/amp_a3.cl hashcat-data/markov_le.cl darktable/bilateral.cl python3-silx/convolution.cl; do
        f=${m#*/}
        corpus_ir amdgpu "${m%%/*}" "$f" "$W/small/quick/${f%.cl}_1.ll" || { r=$?; break; }
        for c in 2 3; do ln -s "$W/small/quick/${f%.cl}_1.ll" "$W/small/quick/${f%.cl}_$c.ll"; done
    done
    if [ "${r:-0}" = 0 ]; then SMALL_BS="repo quick"; else echo "  SKIP the corpus' quick subset: $(tail -n1 "$W/ir.log")"; fi
    for b in $SMALL_BS; do # how many the in-process writer leaves to ld.lld (-v says)
        SMALL_N[$b]=$(find "$W/small/$b" -name '*.ll' | wc -l)
        # shellcheck disable=SC2086
        SMALL_LLD[$b]=$("$GPUCOMPILE" --no-cache -v -t "$AMD_T" ${SMALL_LINK[$b]} -o "$W/small/out" "$W/small/$b"/*.ll 2>&1 | grep -c 'ld.lld runs:')
        echo "  $b: ${SMALL_N[$b]} compiles, ${SMALL_LLD[$b]} of them by ld.lld (what the in-process writer does not handle)"
    done
fi
small_tools() { # LLVM BATCH
    local f
    mkdir -p "$W/out/small/ref"
    # shellcheck disable=SC2086
    for f in "$W/small/$2"/*.ll; do reference "$1" amdgpu "$f" "$W/out/small/ref/$(basename "$f" .ll).hsaco" ${SMALL_LIBS[$2]} || return 1; done
}
small_rep() { # REP
    local rep=$1 b v
    for b in $SMALL_BS; do
        for v in "${VS[@]}"; do
            rm -rf "$W/out/small" && mkdir -p "$W/out/small"
            # shellcheck disable=SC2086
            timed small.$b.lld$v "$rep" gcv "$v" --no-cache --bin-method lld -t "$AMD_T" ${SMALL_LINK[$b]} -o "$W/out/small/l" "$W/small/$b"/*.ll
            timed small.$b.tools$v "$rep" small_tools "$v" "$b"
            # shellcheck disable=SC2086
            timed small.$b.elf$v "$rep" gcv "$v" --no-cache -t "$AMD_T" ${SMALL_LINK[$b]} -o "$W/out/small/e" "$W/small/$b"/*.ll
        done
    done
}
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
LOAD_START=$(load)

# ---- the first cache hit of each format in a fresh process (milliseconds, measured inside the
# process by bench/first_hit.c: what a program loading its cached kernels at start pays once) --
HIT_FMTS="nvptx:isa nvptx:bin nvptx:fatbin nvptx:llvm amdgpu:isa amdgpu:bin"
if want hit; then
    # shellcheck disable=SC2046
    cc -std=c11 -O2 $(llvm-config-$P --cflags) -I"$ROOT" "$HERE/first_hit.c" -o "$W/first_hit" $(llvm-config-$P --ldflags --libs) -ldl -lpthread ||
        { echo "bench: cannot build bench/first_hit.c"; exit 1; }
fi
hit_rep() { # REP: per format, the first hit with the identity records, then without them
    local hf t f tt in first later hit
    for hf in $HIT_FMTS; do
        t=${hf%%:*} f=${hf#*:}
        if [ "$t" = nvptx ]; then tt="#nvvm.target<chip = \"$NV_CHIP\">" in=$ROOT/examples/kernels/saxpy_nvptx.ll
        else tt="#rocdl.target<chip = \"$AMD_CHIP\">" in=$ROOT/examples/kernels/saxpy_amdgpu.ll; fi
        rm -rf "$W/hits"; "$W/first_hit" "$W/hits" "$tt" "$f" "$in" 1 > /dev/null || { echo "bench: first_hit $hf failed"; exit 1; }
        read -r first later hit < <("$W/first_hit" "$W/hits" "$tt" "$f" "$in" 5)
        [ "$hit" = 1 ] || { echo "bench: first_hit $hf: not a cache hit"; exit 1; }
        T[hit.$hf,$1]=$first T[hitlater.$hf,$1]=$later T[hit.one,$1]=1
        rm -f "$W/hits"/ident-* # what every fresh process did before the records: run the tools again
        read -r first later hit < <("$W/first_hit" "$W/hits" "$tt" "$f" "$in" 1)
        T[hitnorec.$hf,$1]=$first
    done
}

for rep in $(seq 1 "$REPS"); do
    echo "bench: repetition $rep of $REPS (load $(load)) ..."
    if want darktable; then
        for v in "${VS[@]}"; do
            rm -rf "$W/out" && mkdir -p "$W/out"
            mapfile -t NV_MIN < "$W/nv.min$v"
            mapfile -t AMD_MIN < "$W/amd.min$v"
            timed nv.gc$v "$rep" gcv "$v" --no-cache -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/nv" "${NV_IN[@]}"
            timed nv.gcp$v "$rep" gcv "$v" --no-cache --in-process -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/nvp" "${NV_IN[@]}"
            timed nv.tools$v "$rep" tools_batch "$v" nvptx
            timed nv.gcj$v "$rep" gcv "$v" --no-cache -j "$(nproc)" -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/nvj" "${NV_IN[@]}"
            timed nv.gcm$v "$rep" gcv "$v" --no-cache -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/nvm" "${NV_MIN[@]}"
            timed nv.mlir$v "$rep" mlir_batch "$v" nvptx
            timed amd.gc$v "$rep" gcv "$v" --no-cache -t "$AMD_T" "${AMD_LINK[@]}" -o "$W/out/amd" "${AMD_IN[@]}"
            timed amd.gcp$v "$rep" gcv "$v" --no-cache --in-process -t "$AMD_T" "${AMD_LINK[@]}" -o "$W/out/amdp" "${AMD_IN[@]}"
            timed amd.lld$v "$rep" gcv "$v" --no-cache --bin-method lld -t "$AMD_T" "${AMD_LINK[@]}" -o "$W/out/amdl" "${AMD_IN[@]}"
            timed amd.tools$v "$rep" tools_batch "$v" amdgpu
            timed amd.gcj$v "$rep" gcv "$v" --no-cache -j "$(nproc)" -t "$AMD_T" "${AMD_LINK[@]}" -o "$W/out/amdj" "${AMD_IN[@]}"
            timed amd.gcm$v "$rep" gcv "$v" --no-cache -t "$AMD_T" "${AMD_LINK[@]}" -o "$W/out/amdm" "${AMD_MIN[@]}"
            timed amd.mlir$v "$rep" mlir_batch "$v" amdgpu
        done
        rm -rf "$W/cache"
        timed cache.cold "$rep" gc --cache-dir "$W/cache" -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/c1" "${NV_IN[@]}"
        timed cache.warm "$rep" gc --cache-dir "$W/cache" -t "$NV_T" "${NV_LINK[@]}" -o "$W/out/c2" "${NV_IN[@]}"
        cmp -s "$W/out/c1/$(basename "${NV_IN[0]}" .bc).cubin" "$W/out/c2/$(basename "${NV_IN[0]}" .bc).cubin" ||
            { echo "bench: the cache gave other bytes"; exit 1; }
        timed j1 "$rep" gc --no-cache -j 1 -t "$NV_T" -t "$NV_T2" "${NV_LINK[@]}" -o "$W/out/j1" "${NV_IN[@]}"
        timed j2 "$rep" gc --no-cache -j 2 -t "$NV_T" -t "$NV_T2" "${NV_LINK[@]}" -o "$W/out/j2" "${NV_IN[@]}"
    fi
    want big && big_rep "$rep"
    want small && small_rep "$rep"
    want hit && hit_rep "$rep"
done
LOAD_END=$(load)

# ---- per-stage times: one -v run per target; the first module pays the process's start ------
stages() { # TARGET-TEXT LINK... -- INPUTS...
    local t=$1; shift
    gc --no-cache -v -t "$t" -o "$W/out/stages" "$@" 2>&1 | awk '/stages \(ms\):/ { n++; if (n == 1) next;
        for (i = 3; i < NF; i += 2) { s[$i] += $(i + 1); tot += $(i + 1) } }
        END { ext = s["optimize"] + s["emit"] + s["binary"];
              printf "%d warm compiles, per compile ms: total %.1f; parse %.1f, setup+verify %.1f, link %.1f, optimize %.1f, codegen %.1f, binary %.1f; overhead %.1f%%\n",
                     n - 1, tot / (n - 1), s["parse"] / (n - 1), (s["setup"] + s["verify"] + s["pre-link"]) / (n - 1), (s["link"] + s["post-link"]) / (n - 1),
                     s["optimize"] / (n - 1), s["emit"] / (n - 1), s["binary"] / (n - 1), 100 * (tot - ext) / tot }'
}
if want darktable; then
    ST_NV=$(stages "$NV_T" "${NV_LINK[@]}" "${NV_IN[@]}")
    ST_AMD=$(stages "$AMD_T" "${AMD_LINK[@]}" "${AMD_IN[@]}")
fi

# ---- the table ----------------------------------------------------------------------------
median() { # ROW [ARRAY]: the median over the repetitions of T (or of ARRAY: M)
    local -n of=${2:-T}
    local r v=()
    for r in $(seq 1 "$REPS"); do v+=("${of[$1,$r]}"); done
    printf '%s\n' "${v[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
row() { # LABEL A B TARGET [ARRAY]: "A / B" with the ratio against the target (<=; - for none)
    local a b ratio ok
    a=$(median "$2" "${5:-T}"); b=$(median "$3" "${5:-T}")
    ratio=$(echo "$a / $b" | bc -l)
    if [ "$4" = - ]; then ok=-; elif [ "$(echo "$ratio <= $4" | bc -l)" = 1 ]; then ok=yes; else ok=no; fi
    printf '| %-61s | %8.2f | %8.2f | %5.3f | <= %-4s | %-4s |\n' "$1" "$a" "$b" "$ratio" "$4" "$ok"
}
versions=""; for v in "${VS[@]}"; do versions="$versions${versions:+, }$(llvm-config-$v --version 2>/dev/null || echo "$v")"; done
echo
echo "gpucompile benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
echo "LLVM $versions, $REPS repetitions (medians), load average $LOAD_START at the start, $LOAD_END at the end."
echo "Each LLVM row: gpucompile built on that LLVM against that LLVM's tools and mlir-opt."
HEAD="|---------------------------------------------------------------|----------|----------|-------|--------|------|"
if want darktable; then
    nn=${#NV_IN[@]} na=${#AMD_IN[@]}
    echo "Kernels: darktable's OpenCL modules (clang-$C), $nn for NVPTX ($NV_CHIP), $na for AMDGPU ($AMD_CHIP)."
    echo
    echo "| what (seconds for the whole batch)                            |        A |        B | A / B | target | met  |"
    echo "$HEAD"
    for v in "${VS[@]}"; do
        nnm=$(wc -l < "$W/nv.min$v") nam=$(wc -l < "$W/amd.min$v")
        row "LLVM $v: cubin, $nn modules: gpucompile / LLVM tools + ptxas" nv.gc$v nv.tools$v 0.25
        row "LLVM $v: cubin, $nn modules: gpucompile -j $(nproc) / LLVM tools + ptxas" nv.gcj$v nv.tools$v 0.25
        row "LLVM $v: cubin, $nnm modules: gpucompile / mlir-opt-$v" nv.gcm$v nv.mlir$v 0.35
        row "LLVM $v: hsaco, $na modules: gpucompile / LLVM tools + ld.lld" amd.gc$v amd.tools$v 0.35
        row "LLVM $v: hsaco, $na modules: gpucompile -j $(nproc) / LLVM tools + ld.lld" amd.gcj$v amd.tools$v 0.35
        row "LLVM $v: hsaco, $nam modules: gpucompile / mlir-opt-$v (ROCDL)" amd.gcm$v amd.mlir$v 1.00
        row "LLVM $v: hsaco, $na modules: in-process ELF / --bin-method lld" amd.gc$v amd.lld$v 0.70
    done
    row "LLVM $P: cubin, $nn modules: cache hit / cold" cache.warm cache.cold 0.05
    row "LLVM $P: cubin x 2 targets ($NV_CHIP, $NV_CHIP2): -j 2 / -j 1" j2 j1 0.65
    row "LLVM $P: cubin, $nn modules: worker processes / in process" nv.gc$P nv.gcp$P 1.03
    row "LLVM $P: hsaco, $na modules: worker processes / in process" amd.gc$P amd.gcp$P 1.03
    echo
    echo "Stages of gpucompile -v, LLVM $P (overhead: time outside LLVM's optimize + codegen + the binary step; target < 10%):"
    echo "  cubin: $ST_NV"
    echo "  hsaco: $ST_AMD"
fi
if [ -n "$BIG_TS" ]; then
    echo
    echo "Big modules (one process each; A, B: seconds, or peak MiB of the process and its children):"
    echo "| what                                                          |        A |        B | A / B | target | met  |"
    echo "$HEAD"
    for t in $BIG_TS; do
        if [ $t = nvptx ]; then n="cubin" tgt=0.75 tools="LLVM tools + ptxas"; else n="hsaco" tgt=0.65 tools="LLVM tools + ld.lld"; fi
        n="$n, ${BIG_SRC[$t]#tests/corpus/} (${BIG_K[$t]} kernels)"
        for v in "${VS[@]}"; do
            row "LLVM $v: $n: -j 1 / $tools" big.$t.j1.$v big.$t.tools.$v 1.00
            row "LLVM $v: $n: -j 2 / $tools" big.$t.j2.$v big.$t.tools.$v $tgt
            row "LLVM $v: $n: -j 2 / -j 1" big.$t.j2.$v big.$t.j1.$v -
            row "LLVM $v: $n: peak MiB, -j 2 / -j 1" big.$t.j2.$v big.$t.j1.$v 2.00 M
            row "LLVM $v: $n: peak MiB, -j 1 / $tools" big.$t.j1.$v big.$t.tools.$v - M
            if [ -f "$W/big$v.$t.mlir" ]; then
                row "LLVM $v: $n: -j 1 / mlir-opt-$v" big.$t.j1.$v big.$t.mlir.$v -
                row "LLVM $v: $n: -j 2 / mlir-opt-$v" big.$t.j2.$v big.$t.mlir.$v -
            fi
            if [ "$v" = "$P" ] && [ -n "${BENCH_BASE:-}" ]; then
                row "LLVM $v: $n: -j 1 / BENCH_BASE -j 1" big.$t.j1.$v big.$t.base 1.00
            fi
        done
    done
    for t in $BIG_TS; do for v in "${VS[@]}"; do
        [ -z "${BIG_NOTE[$t,$v]:-}" ] || echo "  $t, no mlir-opt-$v row: ${BIG_NOTE[$t,$v]}"
    done; done
fi
if [ -n "$SMALL_BS" ]; then
    echo
    echo "Small AMDGPU kernels (seconds for the whole batch; in-process: the default, ld.lld only for what the writer does not handle):"
    echo "| what                                                          |        A |        B | A / B | target | met  |"
    echo "$HEAD"
    for b in $SMALL_BS; do
        if [ $b = repo ]; then n="${SMALL_N[$b]} small kernels"; else n="${SMALL_N[$b]} of the corpus' quick subset"; fi
        for v in "${VS[@]}"; do
            row "LLVM $v: hsaco, $n: in-process / ld.lld" small.$b.elf$v small.$b.lld$v 0.70
            row "LLVM $v: hsaco, $n: in-process / LLVM tools" small.$b.elf$v small.$b.tools$v -
        done
    done
    for b in $SMALL_BS; do
        printf '  %s: %s of %s compiles by ld.lld in the default; per compile, LLVM %s: %.0f ms in process, %.0f ms with --bin-method lld\n' \
            "$b" "${SMALL_LLD[$b]}" "${SMALL_N[$b]}" "$P" "$(echo "1000 * $(median small.$b.elf$P) / ${SMALL_N[$b]}" | bc -l)" \
            "$(echo "1000 * $(median small.$b.lld$P) / ${SMALL_N[$b]}" | bc -l)"
    done
fi
if want hit; then
    echo
    echo "First cache hit in a fresh process (milliseconds; saxpy, LLVM $P; B: 1 ms, or the same hit without the identity records):"
    echo "| what                                                          |        A |        B | A / B | target | met  |"
    echo "$HEAD"
    for hf in $HIT_FMTS; do
        n="${hf%%:*} ${hf#*:}"
        row "LLVM $P: $n: first hit / 1 ms" hit.$hf hit.one 1.00
        row "LLVM $P: $n: first hit / no identity records" hit.$hf hitnorec.$hf -
        row "LLVM $P: $n: later hits / 1 ms" hitlater.$hf hit.one -
    done
fi
if want vulkan; then
    echo
    bash "$HERE/vulkan.sh" --reps "$REPS" | grep -v '^bench vulkan: repetition'
fi
if want clvk; then
    echo
    GPUCOMPILE=$GPUCOMPILE bash "$HERE/clvk.sh" --reps "$REPS" | grep -v '^bench clvk: repetition'
fi
