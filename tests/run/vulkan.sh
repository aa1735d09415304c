#!/bin/sh
# make test-run, the Vulkan rows: kernels in the Vulkan shape (tests/run/vulkan/: LLVM IR through
# llc, GLSL through glslangValidator where LLVM 22 gets a kernel wrong) -> spirv-val -> launched
# through the mgpu* ABI by tests/run/vulkan/run_vulkan.c, built with gpucompile_vulkan.h's runtime
# alone (plain cc, no LLVM) -> run on the first Vulkan device (lavapipe here): as is, with the
# Khronos validation layer (no message allowed), with descriptor sets instead of push
# descriptors, and twice against one pipeline cache file (the second process reads it back).
# Usage: vulkan.sh BUILD. Skips with one line where a tool or the Vulkan device is missing.
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
D=$T_TMP
K=tests/run/vulkan
LLC=llc   # the LLVM in use's (LLVM 19 has no SPIR-V target: the rows skip there)
for tool in "$LLC" glslangValidator spirv-val cc; do
  if ! command -v "$tool" >/dev/null 2>&1 || { [ "$tool" = "$LLC" ] && ! "$LLC" --version | grep -q spirv; }; then
    skip "run-vulkan: no $tool with what the Vulkan rows need (Debian: llvm-22, glslang-tools, spirv-tools)"; tally run-vulkan; exit 0
  fi
done
step() { # NAME COMMAND...: a build step; its failure fails the suite, with its output
  n=$1; shift
  if "$@" >"$D/out" 2>&1; then ok "$n"; else fail "$n"; sed 's/^/  /' "$D/out" | head -20; tally run-vulkan; exit 1; fi
}
for k in saxpy two_entries; do
  step "llc: $k.ll for spirv1.6-unknown-vulkan1.3-compute" "$LLC" -O2 -mtriple=spirv1.6-unknown-vulkan1.3-compute -filetype=obj "$K/$k.ll" -o "$D/$k.spv"
done
for k in reduce atomics grid2d grid3d push sizes; do
  step "glslangValidator: $k.comp" glslangValidator -V --target-env vulkan1.3 "$K/$k.comp" -o "$D/$k.spv"
done
for k in saxpy two_entries reduce atomics grid2d grid3d push sizes; do
  check "spirv-val --target-env vulkan1.3: $k" spirv-val --target-env vulkan1.3 "$D/$k.spv"
done
W="-Wall -Wextra -pedantic -Werror"
step "the host program with the Vulkan runtime alone: plain cc, no LLVM, no Vulkan headers" \
  cc -std=c11 $W -O1 -g -I. "$K/run_vulkan.c" -o "$D/run_vulkan" -ldl -lpthread -lm
step "the same as C++17" c++ -std=c++17 -x c++ $W -I. -c "$K/run_vulkan.c" -o "$D/run_vulkan_cxx.o"
printf '#define GPUCOMPILE_SPIRV_RUNTIME\n#include "gpucompile_spirv.h"\nint main(void) {\n  const char *w = 0;\n  return !(gpucompile_spirv__score("spirv-unknown-vulkan1.3-compute", "", "bin", "", "spirv", &w) < 0 &&\n           gpucompile_spirv__score("spirv64-unknown-unknown", "bmg", "bin", "", "spirv", &w) == 1);\n}\n' > "$D/cl_rule.c"
check "OpenCL's selection refuses a Vulkan object (spirv-unknown-vulkan1.3-compute), takes an OpenCL one" sh -c \
  "cc -std=c11 $W -I. '$D/cl_rule.c' -o '$D/cl_rule' -ldl -lpthread && '$D/cl_rule'"
tally run-vulkan-build
# the runs: each prints its tests and a closing line, added up by the caller
export GPUCOMPILE_VULKAN_PIPELINE_CACHE="$D/pipelines.bin" MESA_SHADER_CACHE_DIR="$D/mesa"
"$D/run_vulkan" "$D" > "$D/run.log" 2>&1; rc=$?
cat "$D/run.log"
grep -q "^SKIP run-vulkan" "$D/run.log" && exit 0
[ $rc = 0 ] || exit 1
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
if [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || [ -n "$VK_LAYER_PATH" ]; then
  echo "== with the Khronos validation layer (GPUCOMPILE_VULKAN_VALIDATION=1): any message fails"
  GPUCOMPILE_VULKAN_VALIDATION=1 "$D/run_vulkan" "$D" > "$D/val.log" 2>&1; rc=$?
  sed 's/^run-vulkan:/run-vulkan-validation:/' "$D/val.log"
  check "the validation layer was on" grep -q "validation 1" "$D/val.log"
  check "with validation: every test passed, no validation message" grep -q "^run-vulkan: [0-9]* passed, 0 failed" "$D/val.log"
else
  skip "run-vulkan: the Khronos validation layer is not installed (Debian: vulkan-validationlayers)"
fi
echo "== descriptor sets instead of push descriptors (GPUCOMPILE_VULKAN_NO_PUSH_DESCRIPTORS=1)"
GPUCOMPILE_VULKAN_NO_PUSH_DESCRIPTORS=1 "$D/run_vulkan" "$D" > "$D/sets.log" 2>&1
sed 's/^run-vulkan:/run-vulkan-sets:/' "$D/sets.log"
check "descriptor sets were used" grep -q "push descriptors 0" "$D/sets.log"
check "with descriptor sets: every test passed" grep -q "^run-vulkan: [0-9]* passed, 0 failed" "$D/sets.log"
echo "== the pipeline cache across processes (a fresh file, a fresh Mesa shader cache)"
rm -rf "$D/pipelines.bin" "$D/mesa"
"$D/run_vulkan" "$D" cache > "$D/c1" 2>&1
"$D/run_vulkan" "$D" cache > "$D/c2" 2>&1
sed 's/^/  cold: /' "$D/c1"; sed 's/^/  warm: /' "$D/c2"
saved1=$(sed -n 's/.* saved=\([0-9]*\).*/\1/p' "$D/c1"); loaded1=$(sed -n 's/.*loaded=\([0-9]*\).*/\1/p' "$D/c1")
loaded2=$(sed -n 's/.*loaded=\([0-9]*\).*/\1/p' "$D/c2")
check "the first process starts without a cache file and writes one" test "$loaded1" = 0 -a "${saved1:-0}" -gt 0
check "the second process reads it back (as many bytes as were written)" test "$loaded2" = "$saved1"
tally run-vulkan-cache
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
if [ -f /usr/include/vulkan/vulkan.h ]; then
  echo "== an engine that owns its device and submission (the real Vulkan headers and loader)"
  # many.spv: 41 scalars, a uniform block (the gpucompile this suite runs with: make test sets it)
  step "gpucompile: tests/data/vulkan_many_scalars.cl for #gpu.vulkan (many.spv)" sh -c "clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S \
    tests/data/vulkan_many_scalars.cl -o '$D/many.ll' && '$GPUCOMPILE' --no-cache -t '#gpu.vulkan' -f bin '$D/many.ll' -o '$D/many.spv'"
  if cc -std=c11 $W -I. "$K/engine_vulkan.c" -o "$D/engine" -lvulkan -ldl -lpthread > "$D/out" 2>&1; then
    ok "the engine program builds against <vulkan/vulkan.h> and libvulkan"
    "$D/engine" "$D"
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$D/engine" "$D" > "$D/engine_val.log" 2>&1
    check "the engine under the validation layer: no message" sh -c "! grep -qi 'validation' '$D/engine_val.log' && grep -q '0 failed' '$D/engine_val.log'"
  else
    fail "the engine program builds against <vulkan/vulkan.h> and libvulkan"; sed 's/^/  /' "$D/out" | head
  fi
else
  skip "run-vulkan: no <vulkan/vulkan.h> for the engine program (Debian: libvulkan-dev)"
fi
tally run-vulkan-engine
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
# examples/08_vulkan_runtime.c, the engine an engine author copies: kernels compiled by gpucompile
# (as examples/07_vulkan.c writes them), run natively here and, below, under Wine: the same answers
mkdir -p "$D/ex"
if [ -x "${GPUCOMPILE:-}" ] && "$GPUCOMPILE" --print-target '#gpu.vulkan' >/dev/null 2>&1; then
  echo "== examples/08_vulkan_runtime.c on kernels from gpucompile"
  for k in saxpy reduce; do
    step "gpucompile: examples/kernels/${k}_vulkan.ll for #gpu.vulkan" "$GPUCOMPILE" --no-cache -t '#gpu.vulkan' -f bin "examples/kernels/${k}_vulkan.ll" -o "$D/ex/$k.spv"
    check "spirv-val --target-env vulkan1.3: $k (gpucompile)" spirv-val --target-env vulkan1.3 "$D/ex/$k.spv"
  done
  step "examples/08_vulkan_runtime.c with its one cc line" cc -std=c11 $W -I. examples/08_vulkan_runtime.c -o "$D/ex08" -ldl -lpthread
  "$D/ex08" "$D/ex" > "$D/ex08.log" 2>&1
  sed 's/^/  /' "$D/ex08.log"
  check "the engine example: every answer right" grep -q '^every answer right$' "$D/ex08.log"
  if [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || [ -n "$VK_LAYER_PATH" ]; then
    GPUCOMPILE_VULKAN_VALIDATION=1 "$D/ex08" "$D/ex" > "$D/ex08-val.log" 2>&1
    check "the engine example with the validation layer: every answer right, no message" sh -c \
      "grep -q 'validation layer)$' '$D/ex08-val.log' && grep -q '^every answer right$' '$D/ex08-val.log'"
  fi
else
  skip "run-vulkan: no gpucompile with the Vulkan target for the engine example (GPUCOMPILE=${GPUCOMPILE:-unset})"
fi
tally run-vulkan-example
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
# examples/09_vulkan_engine.c, an engine that owns its device: built with its Build: line as
# written (warnings made errors), run with push descriptors and with a descriptor set of its own,
# each also under the Khronos validation layer (no message allowed)
# (its llvm-config is the LLVM in use's, first on PATH)
build09=$(sed -n 's/^   Build: \(cc .*\) -o ex09$/\1/p' examples/09_vulkan_engine.c | sed 's/llvm-config-[0-9][0-9]*/llvm-config/')
if [ -z "$build09" ]; then
  fail "examples/09_vulkan_engine.c has a Build: line ending in -o ex09"
elif [ ! -f /usr/include/vulkan/vulkan.h ] || ! command -v llvm-config >/dev/null; then
  skip "run-vulkan: no <vulkan/vulkan.h> or llvm-config for examples/09_vulkan_engine.c (Debian: libvulkan-dev, the LLVM's -dev package)"
else
  echo "== examples/09_vulkan_engine.c: the engine's own device, a kernel compiled at load time"
  step "examples/09_vulkan_engine.c with its one cc line: $build09" sh -c "$build09 $W -o '$D/ex09'"
  for mode in push sets; do
    arg=; [ $mode = sets ] && arg=sets
    "$D/ex09" $arg > "$D/ex09.log" 2>&1; rc=$?
    sed 's/^/  /' "$D/ex09.log"
    if [ $rc = 77 ]; then skip "run-vulkan: examples/09_vulkan_engine.c: no Vulkan device or no SPIR-V target"; break; fi
    want="push descriptors"; [ $mode = sets ] && want="a descriptor set of its own"
    check "the engine example ($want): every answer right" sh -c "grep -qx 'every answer right' '$D/ex09.log' && grep -qF 'bytes of push constants, $want' '$D/ex09.log'"
    if [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || [ -n "$VK_LAYER_PATH" ]; then
      VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$D/ex09" $arg > "$D/ex09-val.log" 2>&1
      check "the engine example ($want) under the validation layer: every answer right, no message" sh -c \
        "grep -qx 'every answer right' '$D/ex09-val.log' && ! grep -qi 'validation' '$D/ex09-val.log'"
    fi
  done
fi
tally run-vulkan-engine-example
FAILED=$FAILED$T_FAIL; T_PASS=0; T_FAIL=0; T_SKIP=0
# Windows: the host program cross-built with mingw-w64, run under Wine (its vulkan-1.dll forwards to
# this machine's loader and lavapipe, with an X display: xvfb-run): the same tests pass. make
# test-run's alone (GPUCOMPILE_RUN_WINDOWS=1; it installs them), not make test's.
MINGW=${MINGW:-x86_64-w64-mingw32-}
if [ -z "${GPUCOMPILE_RUN_WINDOWS:-}" ]; then
  echo "== Windows: the mingw-w64 build under Wine is make test-run's"
elif command -v "${MINGW}gcc" >/dev/null && command -v wine >/dev/null && command -v xvfb-run >/dev/null; then
  echo "== Windows: mingw-w64 build under Wine"
  step "the host program, cross-built (mingw-w64, static)" "${MINGW}gcc" -std=c11 $W -I. "$K/run_vulkan.c" -o "$D/run_vulkan.exe" -static -lpthread
  [ -f "$D/ex/saxpy.spv" ] && step "examples/08_vulkan_runtime.c, cross-built (mingw-w64, static)" \
    "${MINGW}gcc" -std=c11 $W -I. examples/08_vulkan_runtime.c -o "$D/ex08.exe" -static -lpthread
  WINEPREFIX=${GPUCOMPILE_WINEPREFIX:-$(pwd)/build-deps/wine-prefix} WINEDEBUG=-all WINEDLLOVERRIDES=winedbg.exe=d; export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES
  mkdir -p "$(dirname "$WINEPREFIX")"
  GPUCOMPILE_VULKAN_PIPELINE_CACHE="Z:$(echo "$D/pipelines-win.bin" | tr / '\\')"; export GPUCOMPILE_VULKAN_PIPELINE_CACHE
  # one X display and one wineserver for the prefix's set-up and the run (Wine keeps its graphics
  # driver from the first process: one started without a display has no Vulkan)
  wineserver -k 2>/dev/null
  timeout 600 xvfb-run -a sh -c "[ -f '$WINEPREFIX/system.reg' ] || wine wineboot --init >/dev/null 2>&1; \
    wine '$D/run_vulkan.exe' 'Z:$(echo "$D" | tr / '\\')'; \
    [ ! -f '$D/ex08.exe' ] || wine '$D/ex08.exe' 'Z:$(echo "$D/ex" | tr / '\\')' > '$D/ex08-wine.raw' 2>&1; wineserver -k" 2>&1 | tr -d '\r' > "$D/wine.log"
  sed 's/^run-vulkan:/run-vulkan-wine:/' "$D/wine.log"
  check "under Wine: every test passed, as natively" sh -c "grep -q '^run-vulkan: [0-9]* passed, 0 failed' '$D/wine.log' && \
    [ \"\$(grep '^ok' '$D/wine.log')\" = \"\$(grep '^ok' '$D/run.log')\" ]"
  if [ -f "$D/ex08.exe" ]; then
    tr -d '\r' < "$D/ex08-wine.raw" > "$D/ex08-wine.log"
    sed 's/^/  wine: /' "$D/ex08-wine.log"
    # the answers, not the paths (Z:\... under Wine)
    check "the engine example under Wine: the same answers as natively" sh -c "grep -q '^every answer right\$' '$D/ex08-wine.log' && \
      [ \"\$(grep -E '^(device|saxpy|reduce|every)' '$D/ex08-wine.log')\" = \"\$(grep -E '^(device|saxpy|reduce|every)' '$D/ex08.log')\" ]"
  fi
else
  fail "run-vulkan: no mingw-w64, wine or xvfb-run for the Windows build under Wine (Debian: gcc-mingw-w64-x86-64 wine64 xvfb; make test-run installs them)"
fi
tally run-vulkan-windows
[ "$FAILED$T_FAIL" -eq 0 ]
