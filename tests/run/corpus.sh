#!/bin/sh
# make test-run: the corpus' kernels (silx, pyFAI, hashcat, darktable; tests/corpus/corpus.sh
# fetches them) on OpenCL and on Vulkan with the same inputs. tests/corpus/vulkan.sh compiles
# every module as a user does (clang -target spirv64 -O2 with the application's flags, then
# gpucompile -t '#gpu.vulkan', spirv-val --target-env vulkan1.3) and keeps the valid ones; the
# same clang output of each module that tests/run/corpus.spec names goes through
# gpucompile -t '#gpu.spirv' too. tests/run/corpus_run.c, linked once with each runtime, runs the
# spec's kernels: on OpenCL (Intel's CPU runtime), whose outputs are the expected ones, then on
# Vulkan (lavapipe) under the Khronos validation layer where it is installed (no message of it
# allowed), comparing. Last, per package, the table of docs/vulkan-pointer-kernels.md: modules
# compiled, valid, kernels run, agreeing with OpenCL.
# Usage: corpus.sh [BUILD [TEXT]] (TEXT: only the modules and kernels whose name holds it). Skips
# with one line where the corpus cannot be downloaded, the LLVM has no SPIR-V target, or no OpenCL
# or Vulkan device exists.
BUILD=${1:-build}
ONLY=${2:-}
cd "$(dirname "$0")/../.."
export GPUCOMPILE_CORPUS_CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
. tests/lib.sh
D=$T_TMP
G=$GPUCOMPILE
t_opencl_here
if ! "$G" --print-target '#gpu.spirv' >/dev/null 2>"$D/err"; then # an LLVM without the SPIR-V target (19)
  skip "run-corpus: $(sed 's/^gpucompile: error: //' "$D/err" | head -1)"; tally run-corpus; exit 0
fi
PKGS="darktable python3-silx python3-pyfai hashcat-data"
for p in $PKGS; do
  [ -d "$GPUCOMPILE_CORPUS_CACHE/$p" ] && continue
  if ! bash tests/corpus/corpus.sh --fetch $PKGS > "$D/fetch" 2>&1; then
    skip "run-corpus: the corpus cannot be downloaded ($(tail -1 "$D/fetch"))"; tally run-corpus; exit 0
  fi
  break
done
step() { # NAME COMMAND...: a step that the rest needs
  n=$1; shift
  if "$@" > "$D/out" 2>&1; then ok "$n"; else fail "$n" "$D/out"; tally run-corpus; exit 1; fi
}
M=$D/modules
step "the corpus for Vulkan (tests/corpus/vulkan.sh --recipe O2)" sh -c "bash tests/corpus/vulkan.sh --recipe O2 --only '$ONLY' --keep '$M' '$BUILD' > '$D/vulkan.txt'"
for m in $(awk '$1 == "kernel" { print $2 }' tests/run/corpus.spec | sort -u); do
  case $m in *$ONLY*) ;; *) continue ;; esac
  b=$M/$(echo "$m" | tr / _).O2
  [ -f "$b.ll" ] || { fail "$m: the spec names it and tests/corpus/vulkan.sh made no valid module of it" "$D/vulkan.txt"; continue; }
  check "$m for OpenCL: gpucompile -t '#gpu.spirv', spirv-val" sh -c "'$G' -t '#gpu.spirv' -f bin '$b.ll' -o '$b.cl.spv' && spirv-val '$b.cl.spv'"
done
step "the runner, with the OpenCL runtime and with the Vulkan runtime" sh -c "
  cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g -I. tests/run/corpus_run.c -o '$D/run_cl' -ldl -lpthread -lm &&
  cc -std=c11 -Wall -Wextra -pedantic -Werror -O1 -g -DRUN_VULKAN -I. tests/run/corpus_run.c -o '$D/run_vk' -ldl -lpthread -lm"
tally run-corpus-build
mkdir -p "$D/answers"
"$D/run_cl" tests/run/corpus.spec "$M" "$D/answers" "$ONLY" > "$D/cl.log" 2>&1; rc=$?
cat "$D/cl.log"
[ $rc -gt 1 ] && echo "run-corpus-opencl: 0 passed, 1 failed, 0 skipped (the runner died: status $rc)"
if grep -q '^SKIP' "$D/cl.log"; then exit $rc; fi
V=0
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] && V=1
MESA_SHADER_CACHE_DIR="$D/mesa" GPUCOMPILE_VULKAN_PIPELINE_CACHE=off GPUCOMPILE_VULKAN_VALIDATION=$V \
  "$D/run_vk" tests/run/corpus.spec "$M" "$D/answers" "$ONLY" > "$D/vk.log" 2>&1; v=$?
cat "$D/vk.log"
[ $v -gt 1 ] && echo "run-corpus-vulkan: 0 passed, 1 failed, 0 skipped (the runner died: status $v)"
[ $v = 0 ] || rc=1
if grep -q "vkDebugUtilsMessengerEXT" "$D/vk.log"; then
  echo "run-corpus-validation: 0 passed, 1 failed, 0 skipped (the validation layer reported the messages above)"; rc=1
fi
# the table: per package, the files (not the helper files that the application prepends), those
# clang compiles, compiled for Vulkan, valid, the kernels in the valid ones, run on both, agreeing
# with OpenCL, known disagreements
echo "package | files | clang | compiled for Vulkan | valid | kernels in them | run | agree | known"
for p in darktable silx pyfai hashcat; do
  r=$(awk -F'|' -v p="$p" 'index($3, p "/") == 1 && $1 != "LIBRARY" { f++; if ($1 != "CLANG") m++; if ($1 == "OK" || $1 == "INVALID") c++; if ($1 == "OK") v++ }
      END { printf "%d | %d | %d | %d", f, m, c, v }' "$D/vulkan.txt")
  k=$(cat "$M/${p}_"*.O2.ll 2>/dev/null | grep -c '^define spir_kernel')
  s=$(sed -n "s/^count $p: run \([0-9]*\) agree \([0-9]*\) known \([0-9]*\)/\1 | \2 | \3/p" "$D/vk.log")
  echo "$p | $r | $k | ${s:-0 | 0 | 0}"
done
exit $rc
