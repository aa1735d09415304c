#!/usr/bin/env bash
# The WebGPU rows of the benchmark (`bench/run.sh --rows webgpu`): examples/kernels' saxpy_vulkan.ll
# and reduce_vulkan.ll from IR to the first dispatch, #gpu.webgpu through gpucompile_webgpu.h's
# runtime on wgpu-native and on Dawn (bench/webgpu/first.c), beside #gpu.vulkan through
# gpucompile_vulkan.h's runtime (bench/vulkan/first.c), all on lavapipe here; and the compiles
# alone, #gpu.webgpu against #gpu.vulkan (the same IR, the same code generator). Each run is a
# fresh process with a fresh Mesa shader cache (cold). Medians (ms).
#   bench/webgpu.sh [--reps N]       (default 5)
# Environment: GPUCOMPILE (default build/gpucompile), GPUCOMPILE_WEBGPU_DEPS (build-deps/webgpu:
# make test-run installs the wheels there). Exit: 0 measured, 1 failed, 77 cannot run here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
DEPS=${GPUCOMPILE_WEBGPU_DEPS:-$ROOT/build-deps/webgpu}
REPS=5
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift ;;
    *) echo "usage: bench/webgpu.sh [--reps N]" >&2; exit 2 ;;
    esac
    shift
done
"$GPUCOMPILE" --print-target '#gpu.webgpu' >/dev/null 2>&1 || { echo "SKIP bench webgpu: no WebGPU target in $GPUCOMPILE"; exit 77; }
WGPU=$DEPS/wgpu/resources/libwgpu_native-release.so
DAWN=$DEPS/pydawn/lib/libwebgpu_dawn_x86_64.so
for f in "$WGPU" "$DAWN"; do [ -f "$f" ] || { echo "SKIP bench webgpu: no $f (make test-run installs it)"; exit 77; }; done
command -v bc >/dev/null || { echo "SKIP bench webgpu: bc not found"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -std=c11 -O2 -I"$ROOT" "$HERE/webgpu/first.c" -o "$W/wfirst" -ldl -lpthread || exit 1
cc -std=c11 -O2 -I"$ROOT" "$HERE/vulkan/first.c" -o "$W/vfirst" -ldl -lpthread || exit 1
mkdir -p "$W/xdg" && chmod 700 "$W/xdg"
export XDG_RUNTIME_DIR=$W/xdg
now() { echo "${EPOCHREALTIME/,/.}"; }
declare -A T
compile() { # WHAT REP COMMAND...
    local what=$1 rep=$2 s e; shift 2
    s=$(now)
    "$@" >"$W/out" 2>&1 || { echo "bench webgpu: $what failed:"; tail -5 "$W/out"; exit 1; }
    e=$(now)
    T[$what,$rep]=$(echo "1000 * ($e - $s)" | bc -l)
}
host() { # WHAT REP PROGRAM SPV KERNEL [LIB]
    local what=$1 rep=$2 prog=$3 spv=$4 k=$5 lib=${6:-} line
    rm -rf "$W/mesa"
    line=$(GPUCOMPILE_LIBWEBGPU=$lib GPUCOMPILE_VULKAN_PIPELINE_CACHE=off MESA_SHADER_CACHE_DIR=$W/mesa "$prog" "$spv" "$k" 2>"$W/err")
    case $? in 0) ;; 77) echo "SKIP bench webgpu: no adapter"; exit 77 ;; *) echo "bench webgpu: $what: $(head -3 "$W/err")"; exit 1 ;; esac
    set -- $line
    T[$what.device,$rep]=$2 T[$what,$rep]=$(echo "$4 + $6" | bc -l)
}
median() {
    local r v=()
    for r in $(seq 1 "$REPS"); do v+=("${T[$1,$r]}"); done
    printf '%s\n' "${v[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
LOAD_START=$(load)
for rep in $(seq 1 "$REPS"); do
    echo "bench webgpu: repetition $rep of $REPS (load $(load)) ..."
    for k in saxpy reduce; do
        ir=$ROOT/examples/kernels/${k}_vulkan.ll
        for t in $([ $((rep % 2)) = 1 ] && echo vk wg || echo wg vk); do # in turn first: the machine's load drifts
            compile $t.$k "$rep" "$GPUCOMPILE" --no-cache -t "#gpu.$([ $t = vk ] && echo vulkan || echo webgpu)" -f bin "$ir" -o "$W/$t.$k.spv"
        done
        host vk.run.$k "$rep" "$W/vfirst" "$W/vk.$k.spv" "$k"
        host wgpu.run.$k "$rep" "$W/wfirst" "$W/wg.$k.spv" "$k" "$WGPU"
        host dawn.run.$k "$rep" "$W/wfirst" "$W/wg.$k.spv" "$k" "$DAWN"
    done
done
row() { printf '| %-72s | %8.1f | %8.1f | %5.3f |\n' "$1" "$2" "$3" "$(echo "$2 / $3" | bc -l)"; }
echo
echo "WebGPU rows, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$GPUCOMPILE" --version | head -1), lavapipe;"
echo "$REPS repetitions (medians), load average $LOAD_START at the start, $(load) at the end."
echo "IR to first dispatch = the compile process + pipeline creation + the first dispatch and its readback (device start left out)."
echo
echo "| what (milliseconds)                                                      |        A |        B | A / B |"
echo "|--------------------------------------------------------------------------|----------|----------|-------|"
for k in saxpy reduce; do
    vk=$(echo "$(median vk.$k) + $(median vk.run.$k)" | bc -l)
    wgpu=$(echo "$(median wg.$k) + $(median wgpu.run.$k)" | bc -l)
    dawn=$(echo "$(median wg.$k) + $(median dawn.run.$k)" | bc -l)
    row "$k: compile: #gpu.webgpu / #gpu.vulkan" "$(median wg.$k)" "$(median vk.$k)"
    row "$k: IR to first dispatch: WebGPU on wgpu-native / Vulkan runtime" "$wgpu" "$vk"
    row "$k: IR to first dispatch: WebGPU on Dawn / Vulkan runtime" "$dawn" "$vk"
done
echo
for k in saxpy reduce; do
    printf '  %s: device start (not in the rows) Vulkan %.1f, wgpu-native %.1f, Dawn %.1f ms\n' "$k" "$(median vk.run.$k.device)" \
        "$(median wgpu.run.$k.device)" "$(median dawn.run.$k.device)"
done
