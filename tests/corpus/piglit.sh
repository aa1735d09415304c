#!/usr/bin/env bash
# piglit's OpenCL program tests on Vulkan (docs/vulkan-pointer-kernels.md has the counts). Debian's
# piglit package, fetched into the corpus cache by corpus.sh (apt-get download, never installed),
# holds .cl files whose leading comment says how to run them ([config]: kernel_name, dimensions,
# global_size, local_size, clc_version_min, build_options; [test]: arguments, expected outputs,
# tolerances). Each file under tests/cl/program/execute and generated_tests/cl is compiled by clang
# (the LLVM's of BUILD's gpucompile, first on PATH) for spirv64 at -O2 with its build_options, then
# by BUILD's gpucompile for '#gpu.vulkan', and every [test] runs through the mgpu* runtime on the
# first Vulkan device (lavapipe here) by BUILD's tests/piglit_run (tests/corpus/piglit_run.c),
# which checks the outputs. Two ways to set the workgroup size:
#   launch    compiled once, each test launched at its sizes (a kernel without
#             reqd_work_group_size takes its size from the launch: the default)
#   compiled  compiled per workgroup size (the workgroup_size flag: the file's local_size)
# One line per file and way: PASS|FAIL|REFUSED|CRASH|CLANG|ERROR, the way, the file, the first
# failing test or error; the counts per way at the end, then the refusals and crashes grouped by
# reason (reasons(): an undefined function by its OpenCL name, an LLVM error by its kind; "wide":
# the module has vectors of 8 or 16, which Vulkan's shaders lack). --narrow takes the kernels with
# vectors of 8 or 16 out of each module (llvm-extract --delete) and skips their tests: what the
# rest of each file measures.
# --api webgpu: the same through #gpu.webgpu and gpucompile_webgpu.h's runtime (tests/piglit_run_webgpu,
# on the implementation GPUCOMPILE_LIBWEBGPU names, else the runtime's first): clang -target spirv32
# (WebGPU's size_t), sizes compiled in (--mode compiled), no global offset.
# Usage: piglit.sh [--api vulkan|webgpu] [--mode launch|compiled|both] [--narrow] [--only TEXT] [-j N] [--results FILE] [BUILD]
# Exit 0 (a measure: failures are counted, not fatal), or 77 when the package or the tools are missing.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=launch ONLY="" JOBS=2 RESULTS="" BUILD=$HERE/../../build NARROW="" API=vulkan
while [ $# -gt 0 ]; do
  case $1 in
  --api) API=$2; shift 2 ;;
  --mode) MODE=$2; shift 2 ;;
  --only) ONLY=$2; shift 2 ;;
  --narrow) NARROW=--narrow; shift ;;
  -j) JOBS=$2; shift 2 ;;
  --results) RESULTS=$2; shift 2 ;;
  *) BUILD=$1; shift ;;
  esac
done
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "piglit: no build directory"; exit 77; }
case $API in
vulkan) RUNNER=$BUILD/tests/piglit_run CLTARGET=spirv64 ;;
webgpu) RUNNER=$BUILD/tests/piglit_run_webgpu CLTARGET=spirv32 MODE=compiled ;;
*) echo "piglit: --api vulkan or webgpu"; exit 2 ;;
esac
export GPUCOMPILE=$BUILD/gpucompile RUNNER NARROW API CLTARGET
export GPUCOMPILE_CORPUS_CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
# the LLVM of BUILD's gpucompile: its bin directory first on PATH (clang by its plain name)
LLVM_MAJOR=$("$GPUCOMPILE" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
LLVM_BIN=$(llvm-config-"$LLVM_MAJOR" --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null)
[ -n "$LLVM_BIN" ] && PATH=$LLVM_BIN:$PATH && export PATH
command -v clang >/dev/null || { echo "piglit: no clang"; exit 77; }
[ -x "$RUNNER" ] || { echo "piglit: no $RUNNER (make $RUNNER)"; exit 77; }
bash "$HERE/corpus.sh" --fetch piglit || { echo "piglit: cannot download piglit (no network or no package lists?)"; exit 77; }
export P=$GPUCOMPILE_CORPUS_CACHE/piglit/usr/lib/x86_64-linux-gnu/piglit
W=$(mktemp -d)
export W
trap 'rm -rf "$W"' EXIT

# A [config] key of FILE's comment (the first: [config] comes before the tests).
key() { sed -n '/^\[config\]/,/^\[test\]/p' "$1" | sed -n "s/^[[:space:]]*$2[[:space:]]*:[[:space:]]*\([^#]*\).*/\1/p" | head -n1 | sed 's/[[:space:]]*$//'; }
# First error line of a log, short.
why() { grep -m1 -E 'error|ERROR' "$1" | sed "s|$W/[^ :]*||g; s/^gpucompile: //" | tr -s ' \t' ' ' | cut -c1-400; }

# One file, one way: prints STATUS|WAY|NAME|DETAIL.
one() { # WAY FILE (relative to $P)
  local way=$1 f=$2 d v min max opts sizes s rc out wide
  d=$W/$(echo "$way/$f" | tr / _); mkdir -p "$d"
  # clc_version_min (10, 11, 12, 20): OpenCL C 1.2 at least (what the built-ins are declared for),
  # below clc_version_max where the file has one
  min=$(key "$P/$f" clc_version_min); max=$(key "$P/$f" clc_version_max)
  v=${min:-12}; [ "$v" -lt 12 ] && v=12; [ -n "$max" ] && [ "$v" -gt "$max" ] && v=$max
  opts=$(key "$P/$f" build_options)
  # shellcheck disable=SC2086 # build_options: options
  if ! clang -cl-std=CL$((v / 10)).$((v % 10)) -target "$CLTARGET" -O2 -Xclang -finclude-default-header -emit-llvm -S \
      $opts "$P/$f" -o "$d/k.ll" > "$d/clang.log" 2>&1; then
    echo "CLANG|$way|$f|$(why "$d/clang.log")"; rm -rf "$d"; return
  fi
  # the kernels whose bodies have vectors of 8 or 16 elements
  wide=$(awk '/^define /{ match($0, /@[^(]*/); n = substr($0, RSTART + 1, RLENGTH - 1); w = 0 } /<(8|16) x /{ w = 1 } /^}/{ if (w) print n }' "$d/k.ll")
  if [ -n "$NARROW" ] && [ -n "$wide" ]; then
    # shellcheck disable=SC2046 # one --func per kernel
    llvm-extract -S --delete $(printf -- '--func=%s ' $wide) "$d/k.ll" -o "$d/k.ll" 2>"$d/clang.log" ||
      { echo "ERROR|$way|$f|llvm-extract: $(head -n1 "$d/clang.log")"; rm -rf "$d"; return; }
    wide=""
  fi
  if [ "$way" = launch ]; then sizes=launch; else
    sizes=$("$RUNNER" --sizes "$P/$f" 2>&1) || { echo "ERROR|$way|$f|$sizes"; rm -rf "$d"; return; }
    sizes=$(echo "$sizes" | sort -u)
  fi
  for s in $sizes; do
    if [ "$s" = launch ]; then tgt='#gpu.vulkan'; else tgt="#gpu.$API<flags = {workgroup_size = \"$s\"}>"; fi
    timeout 300 "$GPUCOMPILE" --no-cache -t "$tgt" -f bin "$d/k.ll" -o "$d/$s.spv" > "$d/gc.log" 2>&1; rc=$?
    if [ $rc -ge 124 ]; then echo "CRASH|$way|$f|gpucompile: status $rc"; rm -rf "$d"; return; fi
    # the code generator dying in its worker process is a crash (gpucompile contains it and refuses)
    if [ $rc != 0 ]; then
      echo "$(grep -q "process died" "$d/gc.log" && echo CRASH || echo REFUSED)|$way|$f|$(why "$d/gc.log")|${wide:+wide}"
      rm -rf "$d"; return
    fi
  done
  if [ "$way" = launch ]; then
    # shellcheck disable=SC2086 # NARROW: an option or nothing
    timeout 300 "$RUNNER" $NARROW "$d/launch.spv" "$P/$f" > "$d/run.log" 2>&1; rc=$?
  else # each test on the module compiled for its size
    rc=0; local i=0
    for s in $("$RUNNER" --sizes "$P/$f"); do
      # shellcheck disable=SC2086 # NARROW: an option or nothing
      timeout 300 "$RUNNER" $NARROW "$d/$s.spv" "$P/$f" $i >> "$d/run.log" 2>&1; out=$?
      [ $out -gt $rc ] && rc=$out; i=$((i + 1))
    done
  fi
  out=$(grep -m1 -E '^(FAIL|ERROR)' "$d/run.log" | cut -c1-200)
  if [ $rc = 0 ]; then echo "PASS|$way|$f|$(grep -c '^PASS' "$d/run.log") tests$(grep -q '^SKIP' "$d/run.log" && echo ", $(grep -c '^SKIP' "$d/run.log") skipped")"
  elif [ $rc -ge 124 ]; then echo "CRASH|$way|$f|runner: status $rc; $out"
  else echo "FAIL|$way|$f|${out:-status $rc}"; fi
  rm -rf "$d"
}
export -f one key why

case $MODE in both) WAYS="launch compiled" ;; *) WAYS=$MODE ;; esac
(cd "$P" && find tests/cl/program/execute generated_tests/cl -name '*.cl' | sort) | grep -F -- "$ONLY" > "$W/files"
for way in $WAYS; do sed "s|^|$way |" "$W/files"; done |
  xargs -P "$JOBS" -L1 bash -c 'one "$0" "$1"' | tee "$W/results"
[ -n "$RESULTS" ] && cp "$W/results" "$RESULTS"
for way in $WAYS; do
  awk -F'|' -v w="$way" '$2 == w { n++; c[$1]++ }
    $1 == "FAIL" && /piglit.s probe passes/ { loose++ }
    END { printf "%s: %d files, %d PASS, %d FAIL (%d of them pass under piglit'"'"'s own probe), %d REFUSED, %d CRASH, %d CLANG, %d ERROR\n",
          w, n, c["PASS"], c["FAIL"], loose, c["REFUSED"], c["CRASH"], c["CLANG"], c["ERROR"] }' "$W/results"
done
# The refusals and crashes by reason, per way: a call to an undefined function by the OpenCL name
# in its mangled one, LLVM's errors by their kind, the rest by the message less the function's
# name and the instruction.
awk -F'|' '$1 == "REFUSED" || $1 == "CRASH" { r = $4
    if (r ~ /function the module does not define/ && match(r, /@_Z[0-9]+/)) {
      l = substr(r, RSTART + 3, RLENGTH - 3); r = "undefined function " substr(r, RSTART + RLENGTH, l)
    } else if (r ~ /LLVM ERROR: unable to legalize/) r = "LLVM ERROR: unable to legalize instruction"
    else { sub(/function '"'"'[^'"'"']*'"'"': /, "", r); gsub(/`[^`]*`: /, "", r); sub(/ \(.*/, "", r) }
    n[$2 " " $1 ($5 == "wide" ? " (wide vectors)" : "") ": " r]++ }
  END { for (r in n) printf "  %3d %s\n", n[r], r }' "$W/results" | sort -k1,1nr
exit 0
