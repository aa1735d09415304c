#!/usr/bin/env bash
# The benchmark (`make bench`): real OpenCL kernels (darktable's, from the Debian package, the
# corpus test's cache) compiled by clang to LLVM bitcode for NVPTX and AMDGPU, then to cubin
# and hsaco by one gpucompile process, by LLVM's tools (one process per step and module), and by
# mlir-opt --gpu-module-to-binary, for each LLVM measured: gpucompile built on LLVM N against
# LLVM N's tools and mlir-opt-N. Also the same batch cold and warm with the cache, -j 2 vs -j 1,
# and the per-stage times of gpucompile -v (the first LLVM only). Each row runs side by side in
# every repetition; the table shows medians and ratios. See bench/README.md.
#
#   bench/run.sh [--reps N] [--max N]      (N modules at most per target; default: all)
# Environment: GPUCOMPILE (default build/gpucompile), BENCH_ALSO (more "N:path/to/gpucompile"
# built on LLVM N; default "19:build19/gpucompile" when that exists), GPUCOMPILE_CORPUS_CACHE
# (default ${XDG_CACHE_HOME:-~/.cache}/gpucompile-corpus), CUDA_PATH (default /usr/local/cuda).
# Exit: 0 measured (targets missed or not), 1 something failed, 77 cannot run here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
CUDA=${CUDA_PATH:-/usr/local/cuda}
REPS=3 MAX=1000
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift ;;
    --max) MAX=$2; shift ;;
    *) echo "usage: bench/run.sh [--reps N] [--max N]" >&2; exit 2 ;;
    esac
    shift
done
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
for t in clang-$C llvm-as-$C python3 dpkg apt-get "$CUDA/bin/ptxas"; do
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
fetch darktable || { echo "SKIP bench: cannot download darktable (no network?)"; exit 77; }
CLC=/usr/lib/clc/nvptx64--nvidiacl.bc
if [ ! -f $CLC ]; then
    fetch libclc-19 || { echo "SKIP bench: no libclc-19"; exit 77; }
    CLC=$CACHE/libclc-19/usr/lib/clc/nvptx64--nvidiacl.bc
fi
LIBDEVICE=$CUDA/nvvm/libdevice/libdevice.10.bc
ROCM_BC=$(ls -d /usr/lib/*/amdgcn/bitcode 2>/dev/null | head -n1)
[ -n "$ROCM_BC" ] && [ -f "$LIBDEVICE" ] || { echo "SKIP bench: rocm-device-libs or libdevice missing"; exit 77; }
AMD_LIBS="$ROCM_BC/opencl.bc $ROCM_BC/ocml.bc $ROCM_BC/ockl.bc"
for c in isa_version_${AMD_CHIP#gfx} abi_version_500 wavefrontsize64_on daz_opt_off unsafe_math_off finite_only_off correctly_rounded_sqrt_on; do
    AMD_LIBS="$AMD_LIBS $ROCM_BC/oclc_$c.bc"
done
KDIR=$CACHE/darktable/usr/share/darktable/kernels

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
NV_T="#gpu.nvptx<chip = \"$NV_CHIP\">" NV_T2="#gpu.nvptx<chip = \"$NV_CHIP2\">" AMD_T="#gpu.amdgpu<chip = \"$AMD_CHIP\">"
NV_LINK=(-l "$W/images.bc" -l "$CLC")
AMD_LINK=(-l "$ROCM_BC/opencl.bc")
llvm-as-$C "$HERE/images_nvptx.ll" -o "$W/images.bc" || exit 1
for v in "${VS[@]}"; do # where mlir-opt looks for lld
    mkdir -p "$W/tk$v/llvm/bin" && ln -s "$(command -v ld.lld-$v)" "$W/tk$v/llvm/bin/ld.lld"
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
reference() { # LLVM TARGET IN.bc OUT: LLVM's tools, one process per step
    local v=$1 b=${4%.*}
    if [ "$2" = nvptx ]; then
        llvm-link-$v --only-needed -suppress-warnings "$3" "$W/images.bc" "$CLC" "$LIBDEVICE" -o "$b.l.bc" &&
        opt-$v -O2 -mcpu=$NV_CHIP "$b.l.bc" -o "$b.o.bc" && llc-$v -O2 -mcpu=$NV_CHIP "$b.o.bc" -o "$b.ptx" &&
        "$CUDA/bin/ptxas" -arch=$NV_CHIP "$b.ptx" -o "$4"
    else
        # shellcheck disable=SC2086
        llvm-link-$v --only-needed -suppress-warnings "$3" $AMD_LIBS -o "$b.l.bc" &&
        opt-$v -O2 -mcpu=$AMD_CHIP "$b.l.bc" -o "$b.o.bc" && llc-$v -O2 -mcpu=$AMD_CHIP -filetype=obj "$b.o.bc" -o "$b.o" &&
        ld.lld-$v -shared --no-undefined "$b.o" -o "$4"
    fi
}
mlir_input() { # LLVM TARGET IN.bc OUT.mlir: imported (untimed: an MLIR user starts from MLIR)
    local v=$1 libs
    if [ "$2" = nvptx ]; then libs="$W/images.bc $CLC $LIBDEVICE"; set -- nvvm $NV_CHIP "$3" "$4"
    else libs=$AMD_LIBS; set -- rocdl $AMD_CHIP "$3" "$4"; fi
    # shellcheck disable=SC2086
    mlir-translate-$v --import-llvm "$3" 2>/dev/null | python3 "$HERE/mlir_wrap.py" "$1" "$2" $libs > "$4"
}
mlir_compile() { # LLVM IN.mlir OUT
    mlir-opt-$1 "--gpu-module-to-binary=format=bin toolkit=$W/tk$1" "$2" -o "$3" 2>/dev/null
}

echo "bench: preparing darktable's kernels (clang-$C, reference check and MLIR import on LLVM ${VS[*]}) ..."
declare -A EXCLUDED MLIR_EXCLUDED
for t in nvptx amdgpu; do
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
            if ! (reference "$v" $t "$W/in/$t/$s.bc" "$W/chk/$s.bin") >/dev/null 2>&1; then
                EXCLUDED[$t]+=" $s(LLVM $v)"; rm -f "$W/in/$t/$s.bc"; break
            fi
        done
        [ -f "$W/in/$t/$s.bc" ] || continue
        for v in "${VS[@]}"; do
            if ! { mlir_input "$v" $t "$W/in/$t/$s.bc" "$W/mlir$v/$t/$s.mlir" && mlir_compile "$v" "$W/mlir$v/$t/$s.mlir" "$W/chk/$s.m"; } >/dev/null 2>&1; then
                MLIR_EXCLUDED[$t]+=" $s(mlir-opt-$v)"; rm -f "$W/mlir$v/$t/$s.mlir"
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
    for f in "$W/in/$2"/*.bc; do reference "$1" "$2" "$f" "$W/out/ref/$(basename "$f" .bc).bin" || return 1; done
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
for v in "${VS[@]}"; do
    mlir_modules "$v" nvptx > "$W/nv.min$v"; mlir_modules "$v" amdgpu > "$W/amd.min$v"
done
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
LOAD_START=$(load)

for rep in $(seq 1 "$REPS"); do
    echo "bench: repetition $rep of $REPS (load $(load)) ..."
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
ST_NV=$(stages "$NV_T" "${NV_LINK[@]}" "${NV_IN[@]}")
ST_AMD=$(stages "$AMD_T" "${AMD_LINK[@]}" "${AMD_IN[@]}")

# ---- the table ----------------------------------------------------------------------------
median() { # ROW
    local r v=()
    for r in $(seq 1 "$REPS"); do v+=("${T[$1,$r]}"); done
    printf '%s\n' "${v[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
row() { # LABEL A B TARGET: "A / B" with the ratio against the target (<=)
    local a b ratio ok
    a=$(median "$2"); b=$(median "$3")
    ratio=$(echo "$a / $b" | bc -l)
    ok=$(echo "$ratio <= $4" | bc -l)
    printf '| %-61s | %8.2f | %8.2f | %5.3f | <= %-4s | %-4s |\n' "$1" "$a" "$b" "$ratio" "$4" "$([ "$ok" = 1 ] && echo yes || echo "no")"
}
nn=${#NV_IN[@]} na=${#AMD_IN[@]}
versions=""; for v in "${VS[@]}"; do versions="$versions${versions:+, }$(llvm-config-$v --version 2>/dev/null || echo "$v")"; done
echo
echo "gpucompile benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
echo "LLVM $versions, $REPS repetitions (medians), load average $LOAD_START at the start, $LOAD_END at the end."
echo "Kernels: darktable's OpenCL modules (clang-$C), $nn for NVPTX ($NV_CHIP), $na for AMDGPU ($AMD_CHIP)."
echo "Each LLVM row: gpucompile built on that LLVM against that LLVM's tools and mlir-opt."
echo
echo "| what (seconds for the whole batch)                            |        A |        B | A / B | target | met  |"
echo "|---------------------------------------------------------------|----------|----------|-------|--------|------|"
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
