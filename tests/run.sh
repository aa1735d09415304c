#!/bin/sh
# Runs every test program and CLI script; prints one closing line "N passed, N failed, N skipped".
# A program or script that dies (a signal, an exit without its own closing line) counts as a
# failure, so a crash can never pass unseen.
BUILD=${1:-build}
cd "$(dirname "$0")/.."
export GPUCOMPILE=$PWD/$BUILD/gpucompile
LOG=$BUILD/test.log
OUT=$BUILD/test.one
: > "$LOG"
run() { # NAME COMMAND...
  name=$1; shift
  echo "== $name" | tee -a "$LOG"
  "$@" > "$OUT" 2>&1; rc=$?
  cat "$OUT" >> "$LOG"
  grep -E "FAIL|SKIP|passed," "$OUT"
  if ! grep -qE "^[A-Za-z0-9_.\/-]+: [0-9]+ passed, [0-9]+ failed" "$OUT"; then
    echo "$name: 0 passed, 1 failed, 0 skipped (it ended with status $rc and no closing line)" | tee -a "$LOG"
  fi
}
for t in $BUILD/tests/test_*; do
  [ -x "$t" ] && run "$t" "$t"
done
for s in tests/cli_*.sh; do
  [ -f "$s" ] && run "$s" sh "$s"
done
run tests/run/run.sh sh tests/run/run.sh "$BUILD"
run tests/run/vulkan.sh sh tests/run/vulkan.sh "$BUILD"
run tests/gpu/gpu.sh sh tests/gpu/gpu.sh "$BUILD" build # building only: make gpu-check runs it
rm -f "$OUT"
awk '/^[A-Za-z0-9_.\/-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4; s += $6 }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || p == 0) }' "$LOG"
