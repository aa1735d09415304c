#!/usr/bin/env bash
# The Vulkan rows of the benchmark (`bench/run.sh --rows vulkan`, `make bench-vulkan`): from IR
# to the first dispatch on the first Vulkan device (lavapipe here), for examples/kernels'
# saxpy_vulkan.ll and reduce_vulkan.ll: a gpucompile process (#gpu.vulkan, bin), then the host
# steps of bench/vulkan/first.c (gpucompile_vulkan.h's runtime alone: pipeline creation through
# the pipeline cache, the first launch, waited for). Beside it, the same host steps on what
# glslangValidator -V makes of the same kernel in GLSL (bench/vulkan/*.comp), and the compile
# alone beside llc-N on the same IR (N: gpucompile's LLVM). Cold: a fresh pipeline cache file and
# a fresh Mesa shader cache (lavapipe compiles at the first dispatch, through Mesa's cache; its
# VkPipelineCache holds only a header); warm: both kept from the cold run of the same module.
# Every side runs in every repetition, one after the other; the table shows medians (ms).
# The sizes rows (where clang-N is installed): bench/vulkan/sized_reduce.cl compiled with its
# workgroup size and local memory set at launch, and compiled in (workgroup_size 64,
# local_memory 256), run by bench/vulkan/sizes.c: the first launch of a new block size (its
# pipeline made at that launch; Mesa's shader cache cold, then warm) beside a repeated launch at
# a size launched before, and that beside the same launch of the compiled-in module.
#   bench/vulkan.sh [--reps N]       (default 5)
# Environment: GPUCOMPILE (default build/gpucompile). Exit: 0 measured, 1 failed, 77 cannot run here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
REPS=5
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift ;;
    *) echo "usage: bench/vulkan.sh [--reps N]" >&2; exit 2 ;;
    esac
    shift
done
P=$("$GPUCOMPILE" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
[ -n "$P" ] || { echo "SKIP bench vulkan: $GPUCOMPILE does not run"; exit 77; }
"$GPUCOMPILE" --print-target '#gpu.vulkan' >/dev/null 2>&1 || { echo "SKIP bench vulkan: no Vulkan target in gpucompile's LLVM $P"; exit 77; }
for t in llc-$P glslangValidator spirv-val cc bc; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP bench vulkan: $t not found"; exit 77; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -std=c11 -O2 -I"$ROOT" "$HERE/vulkan/first.c" -o "$W/first" -ldl -lpthread || exit 1
SIZES=
if command -v "clang-$P" >/dev/null 2>&1; then
    cc -std=c11 -O2 -I"$ROOT" "$HERE/vulkan/sizes.c" -o "$W/sizes" -ldl -lpthread || exit 1
    "clang-$P" -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$HERE/vulkan/sized_reduce.cl" -o "$W/sized.ll" || exit 1
    "$GPUCOMPILE" --no-cache -t '#gpu.vulkan' -f bin "$W/sized.ll" -o "$W/sized_launch.spv" || exit 1
    "$GPUCOMPILE" --no-cache -t '#gpu.vulkan<flags = {workgroup_size = "64,1,1", local_memory = "256"}>' -f bin "$W/sized.ll" -o "$W/sized_fixed.spv" || exit 1
    SIZES=1
fi
sizes() { # REP TAG: bench/vulkan/sizes.c; the Mesa cache named by TAG
    local line
    line=$(GPUCOMPILE_VULKAN_PIPELINE_CACHE=off MESA_SHADER_CACHE_DIR=$W/mesa.sizes.$2 "$W/sizes" "$W/sized_launch.spv" "$W/sized_fixed.spv" 200 2>"$W/err") ||
        { echo "bench vulkan: sizes: $(head -3 "$W/err")"; exit 1; }
    set -- $1 $2 $line
    T[sizes.new.$2,$1]=$4 T[sizes.repeat.$2,$1]=$6 T[sizes.fixed.$2,$1]=$8 T[sizes.repeat256.$2,$1]=${10}
}
KERNELS="saxpy reduce"
now() { echo "${EPOCHREALTIME/,/.}"; }
declare -A T # T[what,rep] milliseconds
compile() { # WHAT REP COMMAND...: a compile's wall time
    local what=$1 rep=$2 s e; shift 2
    s=$(now)
    "$@" >"$W/out" 2>&1 || { echo "bench vulkan: $what failed:"; tail -5 "$W/out"; exit 1; }
    e=$(now)
    T[$what,$rep]=$(echo "1000 * ($e - $s)" | bc -l)
}
host() { # WHAT REP SPV KERNEL CACHE_TAG: the host steps; the caches named by CACHE_TAG
    local what=$1 rep=$2 line
    line=$(GPUCOMPILE_VULKAN_PIPELINE_CACHE=$W/pc.$5.bin MESA_SHADER_CACHE_DIR=$W/mesa.$5 "$W/first" "$3" "$4" 2>"$W/err")
    case $? in 0) ;; 77) echo "SKIP bench vulkan: no Vulkan device"; exit 77 ;; *) echo "bench vulkan: $what: $(head -3 "$W/err")"; exit 1 ;; esac
    set -- $line
    T[$what.device,$rep]=$2 T[$what.pipeline,$rep]=$4 T[$what.dispatch,$rep]=$6
    T[$what,$rep]=$(echo "$4 + $6" | bc -l)
}
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
LOAD_START=$(load)
for rep in $(seq 1 "$REPS"); do
    echo "bench vulkan: repetition $rep of $REPS (load $(load)) ..."
    for k in $KERNELS; do
        ir=$ROOT/examples/kernels/${k}_vulkan.ll
        rm -rf "$W"/pc.* "$W"/mesa.* "$W/cc"
        compile gc.$k "$rep" "$GPUCOMPILE" --no-cache -t '#gpu.vulkan' -f bin "$ir" -o "$W/gc.$k.spv"
        host gc.cold.$k "$rep" "$W/gc.$k.spv" "$k" gc
        compile gl.$k "$rep" glslangValidator -V --target-env vulkan1.3 "$HERE/vulkan/$k.comp" -o "$W/gl.$k.spv"
        host gl.cold.$k "$rep" "$W/gl.$k.spv" "$k" gl
        compile llc.$k "$rep" llc-$P -O2 -mtriple=spirv1.6-unknown-vulkan1.3-compute -filetype=obj "$ir" -o "$W/llc.$k.spv"
        host gc.warm.$k "$rep" "$W/gc.$k.spv" "$k" gc
        host gl.warm.$k "$rep" "$W/gl.$k.spv" "$k" gl
        # a game's second start: the compile cache (filled untimed) and the pipeline cache warm
        "$GPUCOMPILE" --cache-dir "$W/cc" -t '#gpu.vulkan' -f bin "$ir" -o "$W/hit.$k.spv" >/dev/null 2>&1 || exit 1
        compile hit.$k "$rep" "$GPUCOMPILE" --cache-dir "$W/cc" -t '#gpu.vulkan' -f bin "$ir" -o "$W/hit.$k.spv"
        cmp -s "$W/hit.$k.spv" "$W/gc.$k.spv" || { echo "bench vulkan: the compile cache gave other bytes"; exit 1; }
        for s in gc gl; do spirv-val --target-env vulkan1.3 "$W/$s.$k.spv" || { echo "bench vulkan: $s.$k.spv is not valid"; exit 1; }; done
    done
    if [ -n "$SIZES" ]; then
        rm -rf "$W"/mesa.sizes.*
        sizes "$rep" cold
        cp -r "$W/mesa.sizes.cold" "$W/mesa.sizes.warm" # the cold run's Mesa cache, kept
        sizes "$rep" warm
    fi
done
LOAD_END=$(load)

median() { # WHAT
    local r v=()
    for r in $(seq 1 "$REPS"); do v+=("${T[$1,$r]}"); done
    printf '%s\n' "${v[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
row() { # LABEL A_MS B_MS
    printf '| %-79s | %8.1f | %8.1f | %5.3f |\n' "$1" "$2" "$3" "$(echo "$2 / $3" | bc -l)"
}
echo
echo "Vulkan rows, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
echo "$("$GPUCOMPILE" --version | head -1), $(glslangValidator --version 2>/dev/null | sed -n 's/^Glslang Version: *//p' | head -1 | sed 's/^/glslang /'),"
echo "device: $(GPUCOMPILE_VULKAN_PIPELINE_CACHE=off "$W/first" --device),"
echo "$REPS repetitions (medians), load average $LOAD_START at the start, $LOAD_END at the end."
echo "IR to first dispatch = the compile process + pipeline creation + the first dispatch (device start left out: the same for both)."
echo
echo "| what (milliseconds)                                                             |        A |        B | A / B |"
echo "|---------------------------------------------------------------------------------|----------|----------|-------|"
for k in $KERNELS; do
    gc_cold=$(echo "$(median gc.$k) + $(median gc.cold.$k)" | bc -l)
    gl_cold=$(echo "$(median gl.$k) + $(median gl.cold.$k)" | bc -l)
    gc_warm=$(echo "$(median gc.$k) + $(median gc.warm.$k)" | bc -l)
    gl_warm=$(echo "$(median gl.$k) + $(median gl.warm.$k)" | bc -l)
    hit=$(echo "$(median hit.$k) + $(median gc.warm.$k)" | bc -l)
    row "$k: IR to first dispatch, cold: gpucompile / glslangValidator" "$gc_cold" "$gl_cold"
    row "$k: IR to first dispatch, pipeline cache warm: gpucompile / glslangValidator" "$gc_warm" "$gl_warm"
    row "$k: gpucompile, IR to first dispatch: pipeline cache warm / cold" "$gc_warm" "$gc_cold"
    row "$k: gpucompile, compile cache hit + pipeline cache warm / cold" "$hit" "$gc_cold"
    row "$k: compile: gpucompile / llc-$P alone (same IR)" "$(median gc.$k)" "$(median llc.$k)"
    row "$k: compile: gpucompile / glslangValidator -V" "$(median gc.$k)" "$(median gl.$k)"
done
if [ -n "$SIZES" ]; then
    row "sized_reduce: first launch at a new size, Mesa cache cold / a repeated launch" "$(median sizes.new.cold)" "$(median sizes.repeat.cold)"
    row "sized_reduce: first launch at a new size, Mesa cache warm / a repeated launch" "$(median sizes.new.warm)" "$(median sizes.repeat.warm)"
    row "sized_reduce: a repeated launch (64): size set at launch / compiled in" "$(median sizes.repeat.warm)" "$(median sizes.fixed.warm)"
fi
echo
echo "Steps (medians, ms): compile gpucompile / glslangValidator / llc-$P / gpucompile cache hit; pipeline creation;"
echo "first dispatch cold / warm; device start (not in the rows):"
for k in $KERNELS; do
    printf '  %s: compile %.1f / %.1f / %.1f / %.1f; pipeline %.2f (glslang %.2f); dispatch %.1f / %.1f (glslang %.1f / %.1f); device %.1f\n' "$k" \
        "$(median gc.$k)" "$(median gl.$k)" "$(median llc.$k)" "$(median hit.$k)" "$(median gc.cold.$k.pipeline)" "$(median gl.cold.$k.pipeline)" \
        "$(median gc.cold.$k.dispatch)" "$(median gc.warm.$k.dispatch)" "$(median gl.cold.$k.dispatch)" "$(median gl.warm.$k.dispatch)" \
        "$(median gc.cold.$k.device)"
done
# llc alone is only timed: what its modules compute (LLVM 22 leaves WorkgroupMemory out of the
# barrier, which gpucompile's repair puts back)
for k in $KERNELS; do
    if GPUCOMPILE_VULKAN_PIPELINE_CACHE=off MESA_SHADER_CACHE_DIR=$W/mesa.llc "$W/first" "$W/llc.$k.spv" "$k" >/dev/null 2>"$W/err"; then r="right answers"
    else r="wrong answers ($(head -1 "$W/err"))"; fi
    echo "  llc-$P alone's $k module, run the same way: $r"
done
if [ -n "$SIZES" ]; then
    printf '  sized_reduce (NULL-stream launches, each waited for): new size %.1f cold / %.2f warm; repeated %.3f (at 256: %.3f), compiled in %.3f\n' \
        "$(median sizes.new.cold)" "$(median sizes.new.warm)" "$(median sizes.repeat.warm)" "$(median sizes.repeat256.warm)" "$(median sizes.fixed.warm)"
else
    echo "  sizes rows: no clang-$P for bench/vulkan/sized_reduce.cl"
fi
