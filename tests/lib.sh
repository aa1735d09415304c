# Shell test helpers for CLI tests: ok/fail/skip and a closing tally line.
: "${GPUCOMPILE:=build/gpucompile}"
# LLVM's tools by their plain names (llc, opt, llvm-readelf, mlir-opt, ...) are those of the LLVM
# gpucompile runs on: its bin directory goes first on PATH. T_LLVM_MAJOR: that LLVM's major.
T_LLVM_MAJOR=$("$GPUCOMPILE" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
T_LLVM_BIN=$(llvm-config-"$T_LLVM_MAJOR" --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null)
[ -n "$T_LLVM_BIN" ] && PATH="$T_LLVM_BIN:$PATH" && export PATH
# The tools format bin needs: where one is here, making that format must work (no probing).
T_CUDA=${CUDA_PATH:-${CUDA_HOME:-/usr/local/cuda}}
HAVE_CUDA=; [ -x "$T_CUDA/bin/ptxas" ] && HAVE_CUDA=1
HAVE_LLD=; command -v ld.lld >/dev/null && HAVE_LLD=1
T_PASS=0; T_FAIL=0; T_SKIP=0
ok()   { T_PASS=$((T_PASS+1)); echo "ok   $1"; }
fail() { T_FAIL=$((T_FAIL+1)); echo "FAIL $1"; }
skip() { T_SKIP=$((T_SKIP+1)); echo "SKIP $1"; }
# check NAME COMMAND...: passes when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else fail "$n"; fi; }
tally() { echo "$1: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"; }
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
export XDG_CACHE_HOME="$T_TMP/cache"   # a private compile cache per script
