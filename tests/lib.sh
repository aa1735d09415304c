# Shell test helpers for CLI tests: ok/fail/skip and a closing tally line.
: "${GPUCOMPILE:=build/gpucompile}"
T_PASS=0; T_FAIL=0; T_SKIP=0
ok()   { T_PASS=$((T_PASS+1)); echo "ok   $1"; }
fail() { T_FAIL=$((T_FAIL+1)); echo "FAIL $1"; }
skip() { T_SKIP=$((T_SKIP+1)); echo "SKIP $1"; }
# check NAME COMMAND...: passes when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else fail "$n"; fi; }
tally() { echo "$1: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"; }
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
export XDG_CACHE_HOME="$T_TMP/cache"   # a private compile cache per script
