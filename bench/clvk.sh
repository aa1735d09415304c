#!/usr/bin/env bash
# The OpenCL-vs-Vulkan rows of the benchmark (`bench/run.sh --rows clvk`, or this script alone):
# the same OpenCL C kernels compiled by gpucompile for OpenCL SPIR-V (`-t '#gpu.spirv' -f bin`)
# and for Vulkan (`-t '#gpu.vulkan' -f bin`: the pointer kernels rewritten into Vulkan's shape),
# and run through gpucompile_spirv.h's OpenCL runtime (the first OpenCL device that takes SPIR-V:
# Intel's CPU runtime here) and gpucompile_vulkan.h's runtime (the first Vulkan device: lavapipe).
# Both devices are CPU implementations: the run-time rows are for information, not a GPU's.
#   compile: tests/run/kernels.cl (clang -O0 as tests/run/run.sh builds it, -l mylib.bc; 6
#            kernels), tests/run/vulkan/pointer_kernels.cl (clang -O2 as tests/test_vulkan_ptr.c
#            builds it; 7 kernels) and tests/run/saxpy_spirv.ll: one gpucompile --no-cache process each
#   run:     kernels.cl's module through bench/clvk/launch.c, built once per runtime (no LLVM):
#            module load, each kernel's first launch and the median of its later launches, in a
#            fresh process per repetition (a fresh Mesa shader cache, no pipeline cache file)
# Every side runs in every repetition, one after the other; the table shows medians (ms).
#   bench/clvk.sh [--reps N] [--launches N]     (defaults 5 and 10)
# Environment: GPUCOMPILE (default build/gpucompile), GPUCOMPILE_OPENCL (Intel's CPU runtime as
# `make opencl` installs it; default build-deps/opencl; else the system's OpenCL ICDs).
# Exit: 0 measured, 1 failed, 77 cannot run here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
OPENCL=${GPUCOMPILE_OPENCL:-$ROOT/build-deps/opencl}
REPS=5 LAUNCHES=10
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift ;;
    --launches) LAUNCHES=$2; shift ;;
    *) echo "usage: bench/clvk.sh [--reps N] [--launches N]" >&2; exit 2 ;;
    esac
    shift
done
P=$("$GPUCOMPILE" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
[ -n "$P" ] || { echo "SKIP bench clvk: $GPUCOMPILE does not run"; exit 77; }
for t in '#gpu.spirv' '#gpu.vulkan'; do
    "$GPUCOMPILE" --print-target "$t" >/dev/null 2>&1 || { echo "SKIP bench clvk: no $t target in gpucompile's LLVM $P"; exit 77; }
done
CLANG=clang-$P
command -v "$CLANG" >/dev/null 2>&1 || CLANG=clang
for t in "$CLANG" llvm-as-$P spirv-val cc bc; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP bench clvk: $t not found"; exit 77; }
done
if [ -f "$OPENCL/vendors/intel-cpu.icd" ]; then # make opencl's Intel CPU runtime
    OCL_ICD_VENDORS=$OPENCL/vendors LD_LIBRARY_PATH=$OPENCL/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export OCL_ICD_VENDORS LD_LIBRARY_PATH
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "bench clvk: $1:"; tail -5 "$W/out"; exit 1; }

# ---- the inputs and the two host programs (untimed) ---------------------------------------
"$CLANG" -x cl -cl-std=CL3.0 --target=spirv64 -Xclang -finclude-default-header -Xclang -disable-O0-optnone -O0 -emit-llvm -S \
    "$ROOT/tests/run/kernels.cl" -o "$W/kernels.ll" >"$W/out" 2>&1 || fail "clang: tests/run/kernels.cl"
"$CLANG" -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S "$ROOT/tests/run/vulkan/pointer_kernels.cl" -o "$W/pointer_kernels.ll" >"$W/out" 2>&1 ||
    fail "clang: tests/run/vulkan/pointer_kernels.cl"
cp "$ROOT/tests/run/saxpy_spirv.ll" "$W/saxpy.ll"
llvm-as-$P "$ROOT/tests/data/mylib.ll" -o "$W/mylib.bc" >"$W/out" 2>&1 || fail "llvm-as: tests/data/mylib.ll"
for s in cl vk; do
    d=""; [ $s = vk ] && d=-DRUN_VULKAN
    cc -std=c11 -O2 $d -I"$ROOT" "$HERE/clvk/launch.c" -o "$W/launch_$s" -ldl -lpthread -lm >"$W/out" 2>&1 || fail "cc: bench/clvk/launch.c ($s)"
done
MODULES="kernels pointer_kernels saxpy"
declare -A FLAGS=([kernels]="-l $W/mylib.bc" [pointer_kernels]="" [saxpy]="")
# kernels.cl's grid names no workgroup size: the Vulkan target's flag gives it one (as tests/run/run.sh)
VK_T='#gpu.vulkan<flags = {workgroup_size = "4,2,1"}>'

now() { echo "${EPOCHREALTIME/,/.}"; }
declare -A T # T[what,rep] milliseconds
compile() { # WHAT REP COMMAND...: a compile's wall time
    local what=$1 rep=$2 s e; shift 2
    s=$(now)
    "$@" >"$W/out" 2>&1 || fail "$what"
    e=$(now)
    T[$what,$rep]=$(echo "1000 * ($e - $s)" | bc -l)
}
declare -A SUM # SUM[side,kernel]: the checksum of the first repetition
run() { # SIDE REP: the host program on the side's module
    local side=$1 rep=$2 spv=$W/k.spv what kernel first warm sum
    [ "$side" = vk ] && spv=$W/kv.spv
    rm -rf "$W/mesa"
    MESA_SHADER_CACHE_DIR=$W/mesa GPUCOMPILE_VULKAN_PIPELINE_CACHE=off "$W/launch_$side" "$spv" "$LAUNCHES" >"$W/run.$side" 2>"$W/out"
    case $? in
    0) ;;
    77) if [ $side = cl ]; then echo "SKIP bench clvk: no OpenCL device that takes SPIR-V (make opencl)"; else echo "SKIP bench clvk: no Vulkan device"; fi; exit 77 ;;
    *) fail "the $side run" ;;
    esac
    [ $side = vk ] && DEV[vk]=$(sed -n 's/^device //p' "$W/run.$side")
    T[$side.load,$rep]=$(sed -n 's/^load //p' "$W/run.$side")
    T[$side.ready,$rep]=${T[$side.load,$rep]} T[$side.warm,$rep]=0
    while read -r kernel what first what warm what sum; do
        T[$side.first.$kernel,$rep]=$first T[$side.warm.$kernel,$rep]=$warm
        [ "$kernel" = tiny ] && continue
        T[$side.ready,$rep]=$(echo "${T[$side.ready,$rep]} + $first" | bc -l)
        T[$side.warm,$rep]=$(echo "${T[$side.warm,$rep]} + $warm" | bc -l)
        [ "$rep" = 1 ] && SUM[$side,$kernel]=$sum
    done < <(grep ' first ' "$W/run.$side")
}
declare -A DEV
KERNELS="reduce reduce_static histogram grid math uses_lib"
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
LOAD_START=$(load)
for rep in $(seq 1 "$REPS"); do
    echo "bench clvk: repetition $rep of $REPS (load $(load)) ..."
    for m in $MODULES; do
        # shellcheck disable=SC2086
        compile cl.$m "$rep" "$GPUCOMPILE" --no-cache -t '#gpu.spirv' -f bin "$W/$m.ll" ${FLAGS[$m]} -o "$W/$m.spv"
        # shellcheck disable=SC2086
        compile vk.$m "$rep" "$GPUCOMPILE" --no-cache -t "$VK_T" -f bin "$W/$m.ll" ${FLAGS[$m]} -o "$W/$m.vk.spv"
    done
    cp "$W/kernels.spv" "$W/k.spv" && cp "$W/kernels.vk.spv" "$W/kv.spv"
    run cl "$rep"
    run vk "$rep"
done
LOAD_END=$(load)
for m in $MODULES; do
    spirv-val "$W/$m.spv" >"$W/out" 2>&1 || fail "spirv-val: $m (OpenCL)"
    spirv-val --target-env vulkan1.3 "$W/$m.vk.spv" >"$W/out" 2>&1 || fail "spirv-val --target-env vulkan1.3: $m (Vulkan)"
done

median() { # WHAT
    local r v=()
    for r in $(seq 1 "$REPS"); do v+=("${T[$1,$r]}"); done
    printf '%s\n' "${v[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
row() { # LABEL A B: medians of A and B, and A / B
    local a b
    a=$(median "$2") b=$(median "$3")
    printf '| %-79s | %9.3f | %9.3f | %6.3f |\n' "$1" "$a" "$b" "$(echo "$a / $b" | bc -l)"
}
kcount() { grep -c '^define.*spir_kernel' "$W/$1.ll"; }
if [ "${OCL_ICD_VENDORS:-}" = "$OPENCL/vendors" ]; then
    ver=$(cd "$OPENCL/lib" 2>/dev/null && ls libintelocl.so.*.* 2>/dev/null | head -n1 | sed 's/^libintelocl\.so\.//')
    DEV[cl]="Intel's CPU runtime${ver:+ $ver} (make opencl)"
else DEV[cl]="the system's first that takes SPIR-V"; fi
echo
echo "OpenCL vs Vulkan rows, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
echo "$("$GPUCOMPILE" --version | head -1); OpenCL device: ${DEV[cl]}; Vulkan device: ${DEV[vk]},"
echo "$REPS repetitions (medians; a launch: the median of $LAUNCHES after the first), load average $LOAD_START at the start, $LOAD_END at the end."
echo "A: Vulkan (#gpu.vulkan, gpucompile_vulkan.h's runtime); B: OpenCL SPIR-V (#gpu.spirv, gpucompile_spirv.h's runtime). Both devices are CPUs."
echo
printf '| %-79s | %9s | %9s | %6s |\n' 'what (milliseconds)' A B 'A / B'
echo "|$(printf '%.0s-' $(seq 81))|-----------|-----------|--------|"
for m in $MODULES; do
    case $m in kernels) n="kernels.cl (-O0, -l)";; pointer_kernels) n="vulkan/pointer_kernels.cl (-O2)";; *) n="saxpy_spirv.ll";; esac
    row "compile (one process): tests/run/$n, $(kcount $m) kernel(s)" vk.$m cl.$m
done
row "run kernels.cl: module load (OpenCL: clBuildProgram)" vk.load cl.load
row "run kernels.cl: load + the 6 first launches (Vulkan: pipelines)" vk.ready cl.ready
row "run kernels.cl: one launch of each of the 6, later launches, summed" vk.warm cl.warm
for k in $KERNELS; do
    row "run $k: first launch" vk.first.$k cl.first.$k
    row "run $k: a later launch" vk.warm.$k cl.warm.$k
done
row "run uses_lib on one group of 64: a later launch (a launch's own cost)" vk.warm.tiny cl.warm.tiny
same=""
for k in $KERNELS; do [ "${SUM[vk,$k]}" = "${SUM[cl,$k]}" ] || same="$same $k(${SUM[vk,$k]} vs ${SUM[cl,$k]})"; done
echo
echo "Outputs' checksums (first repetition): ${same:+differ:$same}${same:-the same on both runtimes for all 6 kernels}"
echo "Problem sizes: 2^20 elements (reduce, reduce_static, histogram, math, uses_lib), grid 1024 x 1024 work-items."
