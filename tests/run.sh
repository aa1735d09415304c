#!/bin/sh
# Runs every test program and CLI script; prints one closing line "N passed, N failed, N skipped".
BUILD=${1:-build}
cd "$(dirname "$0")/.."
export GPUCOMPILE=$PWD/$BUILD/gpucompile
LOG=$BUILD/test.log
: > "$LOG"
for t in $BUILD/tests/test_*; do
  [ -x "$t" ] || continue
  echo "== $t" | tee -a "$LOG"
  "$t" 2>&1 | tee -a "$LOG" | grep -E "FAIL|SKIP|passed," || true
done
for s in tests/cli_*.sh; do
  [ -f "$s" ] || continue
  echo "== $s" | tee -a "$LOG"
  sh "$s" 2>&1 | tee -a "$LOG" | grep -E "FAIL|SKIP|passed," || true
done
awk '/^[A-Za-z0-9_.\/-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4; s += $6 }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || p == 0) }' "$LOG"
