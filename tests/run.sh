#!/bin/sh
# Runs the test units and prints one closing line "N passed, N failed, N skipped".
# Usage: tests/run.sh [BUILD [UNIT...]]. A unit is a test program (test_cache, test_split, ...),
# a CLI script (cli_nvptx, ...), run (tests/run/run.sh), vulkan (tests/run/vulkan.sh), webgpu
# (tests/run/webgpu.sh) or gpu (tests/gpu/gpu.sh, building only);
# with no UNIT every one runs (`make test`), else those named (`make test T="cli_nvptx test_cache"`).
# T_ONLY=NAME in the environment runs only the RUN tests of the test programs whose name holds
# NAME (tests/test.h). A program or script that dies (a signal, an exit without its own closing
# line) counts as a failure, so a crash can never pass unseen. Everything goes to BUILD/test.log;
# the screen gets the ok/FAIL/SKIP lines worth reading: FAIL and SKIP lines, the excerpt under
# each FAIL and each unit's closing line.
BUILD=${1:-build}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/.."
export GPUCOMPILE=$PWD/$BUILD/gpucompile
LOG=$BUILD/test.log
OUT=$BUILD/test.one
: > "$LOG"
ran=
# wanted NAME: is the unit NAME asked for (every unit when none is named)?
wanted() {
  [ -z "$UNITS" ] && return 0
  for u in $UNITS; do [ "$u" = "$1" ] && ran="$ran $1" && return 0; done
  return 1
}
# unit names as given: tests/cli_nvptx.sh, cli_nvptx.sh and cli_nvptx all name cli_nvptx
UNITS=
for u in "$@"; do u=${u##*/}; UNITS="$UNITS ${u%.*}"; done
run() { # NAME COMMAND...
  name=$1; shift
  echo "== $name" | tee -a "$LOG"
  "$@" > "$OUT" 2>&1; rc=$?
  cat "$OUT" >> "$LOG"
  grep -E "^ *(FAIL|SKIP)|passed,|^    [|$] " "$OUT"
  if ! grep -qE "^[A-Za-z0-9_.\/-]+: [0-9]+ passed, [0-9]+ failed" "$OUT"; then
    echo "$name: 0 passed, 1 failed, 0 skipped (it ended with status $rc and no closing line)" | tee -a "$LOG"
  fi
}
for t in $BUILD/tests/test_*; do
  [ -x "$t" ] && wanted "${t##*/}" && run "$t" "$t"
done
for s in tests/cli_*.sh; do
  n=${s##*/}
  [ -f "$s" ] && wanted "${n%.sh}" && run "$s" bash "$s"
done
wanted run && run tests/run/run.sh bash tests/run/run.sh "$BUILD"
wanted vulkan && run tests/run/vulkan.sh bash tests/run/vulkan.sh "$BUILD"
wanted webgpu && run tests/run/webgpu.sh bash tests/run/webgpu.sh "$BUILD"
wanted gpu && run tests/gpu/gpu.sh bash tests/gpu/gpu.sh "$BUILD" build # building only: make gpu-check runs it
rm -f "$OUT"
for u in $UNITS; do
  case " $ran " in *" $u "*) ;; *)
    echo "$u: 0 passed, 1 failed, 0 skipped (no such unit: test_* programs in $BUILD/tests, cli_* scripts in tests/, run, vulkan, webgpu, gpu)" | tee -a "$LOG" ;;
  esac
done
awk '/^[A-Za-z0-9_.\/-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4; s += $6 }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || p == 0) }' "$LOG"
