# Shell test helpers for CLI tests: ok/fail/skip/check and a closing tally line.
# The scripts run under bash, for the caller's line: tests/run.sh runs them with bash, and a
# script started with `sh` runs itself again under bash here. A failure prints where it was
# (`FAIL tests/cli_x.sh:LINE: description`, and `(via line N)` when the check sits in a helper
# function of the script); `check` also prints the failed command and the last lines of its
# output, each indented under the FAIL line. tests/cli_lib.sh checks all of this.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
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
T_EXCERPT_LINES=${T_EXCERPT_LINES:-12}   # lines of a failed command's output that `check` prints

# t__where: the innermost caller outside this file as FILE:LINE, then " (via line N)" for each
# outer call in the scripts (a check inside a helper function: the helper's line, then the call).
t__where() {
  local i where= via=
  for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do
    [ "${BASH_SOURCE[i]}" = "${BASH_SOURCE[0]}" ] && continue
    if [ -z "$where" ]; then where="${BASH_SOURCE[i]}:${BASH_LINENO[i-1]}"
    else via="$via (via line ${BASH_LINENO[i-1]})"; fi
  done
  printf '%s%s' "${where:-$0}" "$via"
}
ok()   { T_PASS=$((T_PASS+1)); printf 'ok   %s\n' "$1"; }
# fail DESCRIPTION [FILE]: FILE, when given, is the output to show an excerpt of.
fail() {
  T_FAIL=$((T_FAIL+1))
  printf 'FAIL %s: %s\n' "$(t__where)" "$1"
  [ -n "${2:-}" ] && t__excerpt "$2"
  return 0
}
skip() { T_SKIP=$((T_SKIP+1)); printf 'SKIP %s\n' "$1"; }
# t__excerpt FILE: the last T_EXCERPT_LINES lines of FILE, each as "    | LINE".
t__excerpt() {
  local n
  n=$(wc -l < "$1" 2>/dev/null || echo 0)
  if [ ! -s "$1" ]; then printf '    | (no output)\n'; return; fi
  [ "$n" -gt "$T_EXCERPT_LINES" ] && printf '    | ... (the last %d of %d lines)\n' "$T_EXCERPT_LINES" "$n"
  tail -n "$T_EXCERPT_LINES" "$1" | cut -c 1-400 | sed 's/^/    | /'
}
# check NAME COMMAND...: passes when the command succeeds. Its output (stdout and stderr) is kept
# aside: on failure it is shown after the FAIL line with the command itself, else dropped.
check() {
  local n=$1 out="$T_TMP/.check.$BASHPID.${#FUNCNAME[@]}" rc
  shift
  "$@" > "$out" 2>&1; rc=$?
  if [ $rc = 0 ]; then ok "$n"
  else
    fail "$n"
    printf '    $ %s   (exit %d)\n' "$(printf '%q ' "$@" | cut -c 1-400)" "$rc"
    t__excerpt "$out"
  fi
  rm -f "$out"
  return 0
}
tally() { printf '%s: %d passed, %d failed, %d skipped\n' "$1" "$T_PASS" "$T_FAIL" "$T_SKIP"; }
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
export XDG_CACHE_HOME="$T_TMP/cache"   # a private compile cache per script
# A redis-server of the script's own, for the remote cache's tests. t_redis_here: redis-server,
# redis-cli and a libhiredis that gpucompile opens (0.14 or 1.x) are installed.
# The OpenCL runtime make installs (Intel's CPU runtime in $GPUCOMPILE_OPENCL, `make opencl`) for
# what this script runs, where there is one; else the system's OpenCL ICDs.
t_opencl_here() {
  if [ -n "$GPUCOMPILE_OPENCL" ] && [ -f "$GPUCOMPILE_OPENCL/vendors/intel-cpu.icd" ]; then
    OCL_ICD_VENDORS=$GPUCOMPILE_OPENCL/vendors; LD_LIBRARY_PATH=$GPUCOMPILE_OPENCL/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export OCL_ICD_VENDORS LD_LIBRARY_PATH
  fi
}

t_redis_here() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null &&
    [ -n "$(ls /usr/lib/*/libhiredis.so.0.14 /usr/lib/*/libhiredis.so.1.* 2>/dev/null)" ]
}
# t_redis_start [ARGS...]: starts one on 127.0.0.1, a random port, nothing saved, its files in
# $T_TMP/redis, ARGS added to its command line (--requirepass PW: then REDISCLI_AUTH holds PW, for
# the PING); 0 once it answers PING, with T_REDIS_PORT and T_REDIS_PID set, 1 when five ports
# fail. It is stopped when the script exits (t_redis_stop: also one held with kill -STOP).
t_redis_start() {
  local try i
  mkdir -p "$T_TMP/redis"
  trap 't_redis_stop; rm -rf "$T_TMP"' EXIT
  trap 'exit 1' INT TERM HUP
  for try in 1 2 3 4 5; do
    T_REDIS_PORT=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000 ))
    redis-server --port "$T_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$T_TMP/redis" --daemonize no "$@" \
      > "$T_TMP/redis/log" 2>&1 &
    T_REDIS_PID=$!
    i=0; while [ $i -lt 50 ]; do
      redis-cli -p "$T_REDIS_PORT" ping 2>/dev/null | grep -q PONG && return 0
      kill -0 "$T_REDIS_PID" 2>/dev/null || break
      sleep 0.1; i=$((i+1))
    done
    t_redis_stop
  done
  return 1
}
t_redis_stop() {
  [ -n "${T_REDIS_PID:-}" ] && { kill -CONT "$T_REDIS_PID" 2>/dev/null; kill -9 "$T_REDIS_PID" 2>/dev/null; wait "$T_REDIS_PID" 2>/dev/null; }
  T_REDIS_PID=
}
