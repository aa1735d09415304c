#!/bin/sh
# The test helpers themselves (tests/lib.sh, tests/run.sh, tests/test.h): a failing check says
# where it failed (script:line, and the helper's line with the call's) with the failed command and
# an excerpt of its output; a script started with sh runs under bash; tests/run.sh runs the units
# named and refuses a name that is no unit; T_ONLY runs one test of a C test program.
# (The planted C program is built with -O1: its unused helpers of test.h, which call the library,
# are dropped, so it links without it.)
# Throwaway scripts in a temporary directory, with failures planted at known lines.
. "$(dirname "$0")/lib.sh"
LIB=$PWD/tests/lib.sh
P=$T_TMP/planted.sh
cat > "$P" <<EOF
. '$LIB'
helper() {
  check "planted in a helper" false
}
check "planted check" sh -c 'i=0; while [ \$i -lt 20 ]; do i=\$((i+1)); echo "noise \$i"; done; echo "the planted output" >&2; exit 3'
fail "planted direct failure"
helper
check "a passing check" true
check "a silent failure" test 1 = 2
tally planted
EOF
sh "$P" > "$T_TMP/out" 2>&1; rc=$?
has() { grep -qF -- "$1" "$T_TMP/out"; }
show() { sed 's/^/    | /' "$T_TMP/out"; }
check "the planted script ends with its closing line" has "planted: 1 passed, 4 failed, 0 skipped"
check "exit status 0 (the tally, not the status, tells failures)" test "$rc" = 0
if has "FAIL $P:5: planted check"; then ok "a failed check: script:line"
else fail "a failed check: script:line"; show; fi
if has '    | the planted output' && has '    | noise 20' && ! has '    | noise 8'; then ok "a failed check: the last lines of its output, stdout and stderr"
else fail "a failed check: the last lines of its output"; show; fi
if has '    | ... (the last 12 of 21 lines)'; then ok "a failed check: how much of the output is shown"
else fail "a failed check: how much of the output is shown"; show; fi
if grep -qE '^    \$ sh -c .*\(exit 3\)$' "$T_TMP/out"; then ok "a failed check: the command and its exit status"
else fail "a failed check: the command and its exit status"; show; fi
if has "FAIL $P:6: planted direct failure"; then ok "fail: script:line"
else fail "fail: script:line"; show; fi
if has "FAIL $P:3 (via line 7): planted in a helper"; then ok "a check in a helper function: its line and the call's"
else fail "a check in a helper function: its line and the call's"; show; fi
if has "FAIL $P:9: a silent failure" && has '    | (no output)'; then ok "a failed check without output says so"
else fail "a failed check without output says so"; show; fi
check "a passing check prints ok and no excerpt" sh -c "grep -A1 -x 'ok   a passing check' '$T_TMP/out' | tail -1 | grep -q '^FAIL '"

# tests/run.sh: the FAIL line and its excerpt reach the screen; an unknown unit is a failure.
R=$T_TMP/repo
mkdir -p "$R/tests" "$R/b/tests"
cp tests/run.sh tests/lib.sh "$R/tests/"
sed "s|'$LIB'|tests/lib.sh|" "$P" > "$R/tests/cli_planted.sh"
printf '. tests/lib.sh\ncheck "fine" true\ntally other\n' > "$R/tests/cli_other.sh"
sh "$R/tests/run.sh" b cli_planted > "$T_TMP/out" 2>&1; rc=$?
check "run.sh: one unit named, exit 1 on its failures" test "$rc" = 1
check "run.sh: only the unit named ran" sh -c "! grep -q 'cli_other' '$T_TMP/out'"
if has "FAIL tests/cli_planted.sh:5: planted check" && has '    | the planted output' && has '1 passed, 4 failed, 0 skipped'; then
  ok "run.sh: the FAIL line with its place and excerpt on the screen"
else fail "run.sh: the FAIL line with its place and excerpt on the screen"; show; fi
sh "$R/tests/run.sh" b cli_other tests/cli_nosuch.sh > "$T_TMP/out" 2>&1; rc=$?
if [ "$rc" = 1 ] && has "cli_nosuch: 0 passed, 1 failed" && has "other: 1 passed"; then ok "run.sh: a name that is no unit fails"
else fail "run.sh: a name that is no unit fails"; show; fi

# tests/test.h: T_ONLY runs the tests whose name holds it; one that matches none fails.
cat > "$T_TMP/t.c" <<'EOF'
#include "test.h"
static void test_alpha(void) { CHECK(1); }
static void test_beta(void) { CHECK(1 == 2); }
int main(void) { RUN(test_alpha); RUN(test_beta); return TEST_END("planted"); }
EOF
LLVM_CFLAGS=$(llvm-config-"$T_LLVM_MAJOR" --cflags 2>/dev/null || llvm-config --cflags 2>/dev/null)
if ! cc -std=c11 -O1 -Wall -Wextra -Wno-unused-function $LLVM_CFLAGS -I. -Itests "$T_TMP/t.c" -o "$T_TMP/t" > "$T_TMP/out" 2>&1; then
  fail "test.h: a planted test program builds" "$T_TMP/out"
else
  "$T_TMP/t" > "$T_TMP/out" 2>&1; rc=$?
  if [ "$rc" = 1 ] && has "FAIL $T_TMP/t.c:3: 1 == 2" && has "planted: 1 passed, 1 failed"; then ok "test.h: a failed CHECK says file:line"
  else fail "test.h: a failed CHECK says file:line"; show; fi
  T_ONLY=alpha "$T_TMP/t" > "$T_TMP/out" 2>&1; rc=$?
  if [ "$rc" = 0 ] && has "planted: 1 passed, 0 failed" && ! has "beta"; then ok "test.h: T_ONLY=alpha runs test_alpha alone"
  else fail "test.h: T_ONLY=alpha runs test_alpha alone"; show; fi
  T_ONLY=gamma "$T_TMP/t" > "$T_TMP/out" 2>&1; rc=$?
  if [ "$rc" = 1 ] && has "FAIL T_ONLY=gamma" && has "planted: 0 passed, 1 failed"; then ok "test.h: a T_ONLY that matches no test fails"
  else fail "test.h: a T_ONLY that matches no test fails"; show; fi
fi
tally cli_lib
