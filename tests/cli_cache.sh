# The compile cache: what the key covers (a changed tool or library misses, an unrelated
# variable or PATH hits), warnings replayed on a hit, --cache-stats / --cache-clear, and the
# Redis store behind it against a real redis-server on 127.0.0.1 (a second machine's fresh
# directory hits remotely, corrupt and truncated values, a full server, a server stopped or
# killed mid-batch, two writers at once): outputs always equal to --no-cache.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
K=examples/kernels
NV='#gpu.nvptx<chip = "sm_90">'
CUDA=${CUDA_PATH:-/usr/local/cuda}
G="$GPUCOMPILE"

# ---- the key ----
"$G" -t "$NV" -f isa "$K/saxpy_nvptx.ll" -o "$T_TMP/a.ptx" --cache-dir "$T_TMP/c1" 2>/dev/null
CUDA_VISIBLE_DEVICES=1 GPUCOMPILE_UNRELATED=x HIP_VISIBLE_DEVICES=3 PATH="$T_TMP:$PATH" \
    "$G" -t "$NV" -f isa "$K/saxpy_nvptx.ll" -o "$T_TMP/b.ptx" --cache-dir "$T_TMP/c1" --cache-stats 2>"$T_TMP/err"
check "PTX: CUDA_VISIBLE_DEVICES, other variables and a changed PATH hit" grep -q ': 1 hits, 0 remote hits, 0 misses' "$T_TMP/err"
check "PTX: the hit's bytes are the compile's" cmp -s "$T_TMP/a.ptx" "$T_TMP/b.ptx"

# a toolkit of our own: its ptxas is a copy whose --version we change in place
if [ -x "$CUDA/bin/ptxas" ] && [ -f "$CUDA/nvvm/libdevice/libdevice.10.bc" ]; then
    TK="$T_TMP/tk"; mkdir -p "$TK/bin" "$TK/nvvm/libdevice"
    cp "$CUDA/nvvm/libdevice/libdevice.10.bc" "$TK/nvvm/libdevice/"
    # (each --version run is logged: a hit in a new process must not need one)
    fake() { printf '#!/bin/sh\n[ "$1" = --version ] && { echo x >> "%s"; echo "fake ptxas %s"; exit 0; }\nexec "%s" "$@"\n' "$T_TMP/versions" "$1" "$CUDA/bin/ptxas" > "$TK/bin/ptxas"; chmod +x "$TK/bin/ptxas"; }
    fake 1
    bin() { "$G" -t "$NV" --toolkit "$TK" --bin-method ptxas "$K/math_nvptx.ll" -o "$T_TMP/m.cubin" --cache-dir "$T_TMP/c2" --cache-stats 2>"$T_TMP/err"; }
    bin; rm -f "$T_TMP/versions"; bin
    check "cubin: the same ptxas and libdevice hit" grep -q ': 1 hits, 0 remote hits, 0 misses' "$T_TMP/err"
    check "cubin: a hit in a new process runs no ptxas --version (its identity is recorded beside its stat)" test ! -e "$T_TMP/versions"
    check "cubin: the records are in the cache directory, not counted as entries" \
      sh -c "ls '$T_TMP/c2' | grep -q '^ident-' && '$G' --cache-stats --cache-dir '$T_TMP/c2' | grep -q 'c2: 1 entries'"
    # a ptxas replaced by another of the same size and mtime (another inode and ctime) is run again
    cp -p "$TK/bin/ptxas" "$T_TMP/old-ptxas"; fake 3; touch -r "$T_TMP/old-ptxas" "$TK/bin/ptxas"
    mv "$TK/bin/ptxas" "$T_TMP/new-ptxas"; cp -p "$T_TMP/new-ptxas" "$TK/bin/ptxas"; bin
    check "cubin: a ptxas replaced with the same size and mtime, another --version: misses" grep -q ': 0 hits, 0 remote hits, 1 misses' "$T_TMP/err"
    rm -f "$T_TMP/versions"; mv "$T_TMP/old-ptxas" "$TK/bin/ptxas"; bin
    check "cubin: the earlier ptxas back (its stat recorded no more): run again, a miss (the entry was the other's)" \
      sh -c "grep -q ' 1 misses' '$T_TMP/err' && test -s '$T_TMP/versions'"
    fake 2; bin
    check "cubin: a ptxas with another --version misses" grep -q ': 0 hits, 0 remote hits, 1 misses' "$T_TMP/err"
    bin
    check "cubin: ... and hits after that" grep -q ': 1 hits,' "$T_TMP/err"
    touch "$TK/nvvm/libdevice/libdevice.10.bc"; bin
    check "cubin: a touched (unchanged) libdevice hits" grep -q ': 1 hits,' "$T_TMP/err"
    printf 'x' >> "$TK/nvvm/libdevice/libdevice.10.bc"; bin
    check "cubin: a changed libdevice (used by math) misses" grep -q ' 1 misses' "$T_TMP/err"
else skip "the key against tools (no ptxas or libdevice in $CUDA)"; fi

# a -l library changed in place misses
llvm-as tests/data/mylib.ll -o "$T_TMP/lib.bc"
lib() { "$G" -t "$NV" -f isa -l "$T_TMP/lib.bc" tests/data/uses_lib_nvptx.ll -o "$T_TMP/l.ptx" --cache-dir "$T_TMP/c3" --cache-stats 2>"$T_TMP/err"; }
lib; lib
check "-l: the same library hits" grep -q ': 1 hits,' "$T_TMP/err"
sed 's/3\.0/4.0/' tests/data/mylib.ll > "$T_TMP/mylib2.ll"
llvm-as "$T_TMP/mylib2.ll" -o "$T_TMP/lib.bc"; lib
check "-l: a library with other contents at the same path misses" grep -q ' 1 misses' "$T_TMP/err"

# ---- warnings replayed ----
printf 'target triple = "nvptx64-nvidia-cuda"\ndefine void @f() {\n  ret void\n}\n' > "$T_TMP/nokernel.ll"
"$G" -f isa "$T_TMP/nokernel.ll" -o "$T_TMP/n1" --cache-dir "$T_TMP/c4" 2>"$T_TMP/w1"
"$G" -f isa "$T_TMP/nokernel.ll" -o "$T_TMP/n2" --cache-dir "$T_TMP/c4" --cache-stats 2>"$T_TMP/w2"
check "a hit warns as the first compile did" sh -c "grep -q 'no kernel' '$T_TMP/w1' && grep -v '^cache ' '$T_TMP/w2' | cmp -s - '$T_TMP/w1' && grep -q ': 1 hits' '$T_TMP/w2'"

# ---- --cache-stats, --cache-clear ----
"$G" --cache-stats --cache-dir "$T_TMP/c4" > "$T_TMP/st"
check "--cache-stats alone: 1 entry and its bytes" grep -q "c4: 1 entries, [1-9][0-9]* bytes" "$T_TMP/st"
touch "$T_TMP/c4/keepme"
"$G" --cache-clear --cache-stats --cache-dir "$T_TMP/c4" > "$T_TMP/st"
check "--cache-clear: no entry left" grep -q "c4: 0 entries, 0 bytes" "$T_TMP/st"
if [ -d "$T_TMP/c2" ]; then
  "$G" --cache-clear --cache-dir "$T_TMP/c2" > /dev/null
  check "--cache-clear: the identity records go too" sh -c "! ls '$T_TMP/c2' | grep -q '^ident-'"
fi
check "--cache-clear: other files stay" test -f "$T_TMP/c4/keepme"

# ---- the Redis store ----
if ! t_redis_here; then
    skip "the Redis store (needs redis-server, redis-cli and libhiredis0.14)"
    tally cli_cache.sh; exit 0
fi
RC=$(command -v redis-cli)
if ! t_redis_start; then fail "redis-server starts"; tally cli_cache.sh; exit 1; fi
PORT=$T_REDIS_PORT
R="redis://127.0.0.1:$PORT"

# the batch: many distinct inputs (each its own key)
mkdir -p "$T_TMP/in"
for i in $(seq 1 12); do
    for s in saxpy reduce math; do sed "1i ; variant $i" "$K/${s}_nvptx.ll" > "$T_TMP/in/${s}_$i.ll"; done
done
"$G" --no-cache -t "$NV" "$T_TMP"/in/*.ll -o "$T_TMP/ref" 2>/dev/null
check "--no-cache reference batch" test "$(ls "$T_TMP/ref" | wc -l)" -eq 36
batch() { # DIR CACHEDIR [ARGS...]: the batch with the remote store
    out=$1; cd_=$2; shift 2
    "$G" -t "$NV" "$T_TMP"/in/*.ll -o "$out" --cache-dir "$cd_" --cache-remote "$R" --cache-stats "$@"
}
batch "$T_TMP/m1" "$T_TMP/r1" 2>"$T_TMP/err"
check "machine 1: compiles, stores remotely" sh -c "diff -r '$T_TMP/ref' '$T_TMP/m1' && grep -q ' 36 misses' '$T_TMP/err' && test \"\$('$RC' -p $PORT dbsize)\" -eq 36"
check "machine 1: no warning" test "$(grep -c warning "$T_TMP/err")" -eq 0
GPUCOMPILE_CACHE_REMOTE="$R" "$G" -t "$NV" "$T_TMP"/in/*.ll -o "$T_TMP/m2" --cache-dir "$T_TMP/r2" --cache-stats 2>"$T_TMP/err"
check "machine 2 (fresh directory, the variable): every input a remote hit" grep -q ': 0 hits, 36 remote hits, 0 misses' "$T_TMP/err"
check "machine 2: byte-identical to --no-cache" diff -r "$T_TMP/ref" "$T_TMP/m2"
batch "$T_TMP/m2b" "$T_TMP/r2" 2>"$T_TMP/err"
check "machine 2 again: local hits now" grep -q ': 36 hits, 0 remote hits' "$T_TMP/err"

# a value corrupted by hand, and one truncated
KEY=$("$RC" -p "$PORT" --scan --pattern 'gpucompile:*' | head -n 1)
KEY2=$("$RC" -p "$PORT" --scan --pattern 'gpucompile:*' | sed -n 2p)
"$RC" -p "$PORT" set "$KEY" "garbage, not an entry" > /dev/null
"$RC" -p "$PORT" getrange "$KEY2" 0 99 | head -c 100 > "$T_TMP/trunc"
"$RC" -p "$PORT" -x set "$KEY2" < "$T_TMP/trunc" > /dev/null
batch "$T_TMP/m3" "$T_TMP/r3" 2>"$T_TMP/err"; rc=$?
check "corrupt + truncated values: exit 0, equal to --no-cache" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/m3'"
check "corrupt + truncated values: a warning each, 34 remote hits" sh -c "[ \$(grep -c 'corrupt or truncated' '$T_TMP/err') -eq 2 ] && grep -q ': 0 hits, 34 remote hits, 2 misses' '$T_TMP/err'"
batch "$T_TMP/m4" "$T_TMP/r4" 2>"$T_TMP/err"
check "the corrupt values were replaced" grep -q ': 0 hits, 36 remote hits, 0 misses' "$T_TMP/err"

# two processes writing the same keys at once
"$RC" -p "$PORT" flushall > /dev/null
batch "$T_TMP/wa" "$T_TMP/rw1" -j 2 2>"$T_TMP/errw1" & P1=$!
batch "$T_TMP/wb" "$T_TMP/rw2" -j 2 2>"$T_TMP/errw2" & P2=$!
wait $P1; r1=$?; wait $P2; r2=$?
check "two writers at once: both exit 0, both equal to --no-cache" sh -c "[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/wa' && diff -r '$T_TMP/ref' '$T_TMP/wb'"
check "two writers: no warning" test "$(cat "$T_TMP/errw1" "$T_TMP/errw2" | grep -c warning)" -eq 0
batch "$T_TMP/wc" "$T_TMP/rw3" 2>"$T_TMP/err"
check "two writers: what they left is whole (every input a remote hit)" grep -q ': 0 hits, 36 remote hits, 0 misses' "$T_TMP/err"

# a full server (maxmemory with noeviction): one warning, compiles go on
"$RC" -p "$PORT" flushall > /dev/null
"$RC" -p "$PORT" config set maxmemory-policy noeviction > /dev/null
"$RC" -p "$PORT" config set maxmemory 1 > /dev/null
batch "$T_TMP/f1" "$T_TMP/rf1" 2>"$T_TMP/err"; rc=$?
check "full server: exit 0, equal to --no-cache" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/f1'"
check "full server: exactly one warning, naming the refusal" sh -c "[ \$(grep -c warning '$T_TMP/err') -eq 1 ] && grep -q 'OOM' '$T_TMP/err'"
"$RC" -p "$PORT" config set maxmemory 0 > /dev/null

# a server that accepts but does not answer (stopped): the short timeout, one warning
kill -STOP "$T_REDIS_PID"
s0=$(date +%s)
batch "$T_TMP/s1" "$T_TMP/rs1" 2>"$T_TMP/err"; rc=$?
s1=$(date +%s)
kill -CONT "$T_REDIS_PID"
check "stopped server: exit 0, equal to --no-cache, one warning" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/s1' && [ \$(grep -c warning '$T_TMP/err') -eq 1 ]"
check "stopped server: the batch waits at most one timeout ($((s1 - s0)) s)" test $((s1 - s0)) -lt 20

# killed mid-batch
"$RC" -p "$PORT" flushall > /dev/null
batch "$T_TMP/k1" "$T_TMP/rk1" 2>"$T_TMP/err" & P=$!
i=0; while [ $i -lt 200 ] && [ "$("$RC" -p "$PORT" dbsize 2>/dev/null || echo 0)" -lt 3 ]; do sleep 0.05; i=$((i+1)); done
t_redis_stop
wait $P; rc=$?
check "killed mid-batch: exit 0, equal to --no-cache" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/k1'"
check "killed mid-batch: at most one warning" test "$(grep -c warning "$T_TMP/err")" -le 1
batch "$T_TMP/k2" "$T_TMP/rk2" 2>"$T_TMP/err"; rc=$?
check "server down (refused): exit 0, equal to --no-cache, one warning" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/k2' && [ \$(grep -c warning '$T_TMP/err') -eq 1 ]"
tally cli_cache.sh
