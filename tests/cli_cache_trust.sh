# A cache only the team can write, against a real redis-server on 127.0.0.1 with a password:
# the password in the URL (AUTH PASSWORD; %XX escapes), from a file (--cache-remote-password-file
# and its variable), an ACL user limited to gpucompile:* (AUTH USER PASSWORD), one refused for
# the keys or for SET (NOPERM), a wrong password (WRONGPASS), none (NOAUTH): each problem one
# warning naming it; the password in no message, -v line, --save-temps file, cache entry or
# stats line. With a cache secret: a second machine's remote hits, another secret's and no
# secret's misses, entries planted in the store and in the directory (another kernel's, made
# without the secret or tagged under another key) refused with one warning. Every output is
# byte-identical to --no-cache.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"
K=examples/kernels
NV='#gpu.nvptx<chip = "sm_90">'
G="$GPUCOMPILE"
unset GPUCOMPILE_CACHE_REMOTE GPUCOMPILE_CACHE_REMOTE_PASSWORD_FILE GPUCOMPILE_CACHE_SECRET_FILE

if ! t_redis_here; then
    skip "a password-protected Redis store (needs redis-server, redis-cli and libhiredis0.14)"
    tally cli_cache_trust.sh; exit 0
fi
RC=$(command -v redis-cli)
# the password holds what a URL parser trips on: ':', '@', '/', and a '%' that is no escape
PW='s3cr:t@p/w%zz-9Kq'
PW_ESC='s3cr%3At%40p%2Fw%25zz-9Kq'
export REDISCLI_AUTH="$PW" # redis-cli's password, off its command line
if ! t_redis_start --requirepass "$PW"; then fail "redis-server starts"; tally cli_cache_trust.sh; exit 1; fi
PORT=$T_REDIS_PORT
rc_() { "$RC" -p "$PORT" "$@"; }
check "the server wants a password (redis-cli without one is refused)" sh -c "REDISCLI_AUTH= '$RC' -p $PORT get x 2>&1 | grep -q NOAUTH"
H="127.0.0.1:$PORT"

# six inputs (each its own key) and their --no-cache outputs
mkdir -p "$T_TMP/in"
for i in 1 2; do
    for s in saxpy reduce math; do sed "1i ; variant $i" "$K/${s}_nvptx.ll" > "$T_TMP/in/${s}_$i.ll"; done
done
"$G" --no-cache -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/ref" 2>/dev/null
check "--no-cache reference batch" test "$(ls "$T_TMP/ref" | wc -l)" -eq 6
N=0 # runs, each with its own stderr file (all searched for the password at the end)
batch() { # OUT CACHEDIR URL [ARGS...]: the batch with the remote store; stderr in $E
    out=$1; cd_=$2; url=$3; shift 3
    N=$((N+1)); E="$T_TMP/err.$N"
    "$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$out" --cache-dir "$cd_" --cache-remote "$url" --cache-stats "$@" 2>"$E"
}
same() { diff -r "$T_TMP/ref" "$1" >/dev/null; }
warnings() { grep -c warning "$E"; }
stats() { grep -q ": $1 hits, $2 remote hits, $3 misses, $4 refused" "$E"; }

# ---- authentication ----
batch "$T_TMP/a1" "$T_TMP/ca1" "redis://:$PW@$H"; rc=$?
check "URL password (AUTH PASSWORD): exit 0, equal to --no-cache, stored remotely" \
    sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/a1' >/dev/null && [ \$(REDISCLI_AUTH='$PW' '$RC' -p $PORT dbsize) -eq 6 ]"
check "URL password: no warning, 6 misses" sh -c "[ \$(grep -c warning '$E') -eq 0 ] && grep -q ': 0 hits, 0 remote hits, 6 misses' '$E'"
batch "$T_TMP/a2" "$T_TMP/ca2" "redis://:$PW_ESC@$H"
check "the password %XX-escaped: a second machine gets 6 remote hits" stats 0 6 0 0
check "... byte-identical to --no-cache" same "$T_TMP/a2"
printf '%s\n' "$PW" > "$T_TMP/pwfile"; chmod 600 "$T_TMP/pwfile"
batch "$T_TMP/a3" "$T_TMP/ca3" "redis://$H" --cache-remote-password-file "$T_TMP/pwfile"
check "the password from --cache-remote-password-file: 6 remote hits, equal to --no-cache" sh -c "grep -q ': 0 hits, 6 remote hits, 0 misses' '$E' && diff -r '$T_TMP/ref' '$T_TMP/a3' >/dev/null"
printf '%s\r\nsecond line\n' "$PW" > "$T_TMP/pwfile-crlf"
GPUCOMPILE_CACHE_REMOTE_PASSWORD_FILE="$T_TMP/pwfile-crlf" batch "$T_TMP/a4" "$T_TMP/ca4" "redis://$H" -v
check "the password from \$GPUCOMPILE_CACHE_REMOTE_PASSWORD_FILE (CRLF, a second line; -v): 6 remote hits, no warning" \
    sh -c "grep -q ': 0 hits, 6 remote hits, 0 misses' '$E' && [ \$(grep -c warning '$E') -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/a4' >/dev/null"
batch "$T_TMP/a5" "$T_TMP/ca5" "redis://:$PW@$H/3"
check "AUTH before SELECT: /3 stores into database 3" sh -c "[ \$(REDISCLI_AUTH='$PW' '$RC' -p $PORT -n 3 dbsize) -eq 6 ] && [ \$(grep -c warning '$E') -eq 0 ]"

batch "$T_TMP/w1" "$T_TMP/cw1" "redis://:wrong-$PW@$H" -v; rc=$?
check "a wrong password: exit 0, equal to --no-cache" sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/w1' >/dev/null"
check "a wrong password: exactly one warning, naming WRONGPASS" sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep warning '$E' | grep -q WRONGPASS"
printf 'not-it\n' > "$T_TMP/badpw"
batch "$T_TMP/w2" "$T_TMP/cw2" "redis://$H" --cache-remote-password-file "$T_TMP/badpw"
check "a wrong password from the file: one warning, WRONGPASS" sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q WRONGPASS '$E' && diff -r '$T_TMP/ref' '$T_TMP/w2' >/dev/null"
batch "$T_TMP/w3" "$T_TMP/cw3" "redis://$H" -v; rc=$?
check "a protected server given no password: exit 0, equal to --no-cache, one warning naming NOAUTH" \
    sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/w3' >/dev/null && [ \$(grep -c warning '$E') -eq 1 ] && grep warning '$E' | grep -q NOAUTH"
batch "$T_TMP/w4" "$T_TMP/cw4" "redis://$H" --cache-remote-password-file "$T_TMP/no-such-file"
check "a missing password file: one warning naming it, equal to --no-cache" sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q 'no-such-file' '$E' && diff -r '$T_TMP/ref' '$T_TMP/w4' >/dev/null"
bad_url() { # LABEL URL: an address we do not take is one warning, naming why, never the password
    batch "$T_TMP/b$N" "$T_TMP/cb$N" "$2"; rc=$?
    check "$1: exit 0, one warning, equal to --no-cache" \
        sh -c "[ $rc -eq 0 ] && [ \$(grep -c warning '$E') -eq 1 ] && grep -q 'not a redis://\\|not supported' '$E' && diff -r '$T_TMP/ref' '$T_TMP/b$((N-1))' >/dev/null"
}
bad_url "no host (redis://:PASSWORD@)" "redis://:$PW@"
bad_url "a port out of range" "redis://:$PW@$H:99999"
bad_url "a database that is no number" "redis://:$PW@$H/x"
bad_url "TLS (rediss://)" "rediss://:$PW@$H"

# ---- ACL users (Redis 6+) ----
rc_ acl setuser builder on '>b-pass' '~gpucompile:*' +get +set > /dev/null
rc_ acl setuser stranger on '>s-pass' '~other:*' +get +set > /dev/null
rc_ acl setuser reader on '>r-pass' '~gpucompile:*' +get > /dev/null
batch "$T_TMP/u1" "$T_TMP/cu1" "redis://builder:b-pass@$H"
check "ACL user (~gpucompile:* +get +set; AUTH USER PASSWORD): 6 remote hits, no warning" \
    sh -c "grep -q ': 0 hits, 6 remote hits, 0 misses' '$E' && [ \$(grep -c warning '$E') -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/u1' >/dev/null"
printf 'b-pass\n' > "$T_TMP/bpw"
batch "$T_TMP/u2" "$T_TMP/cu2" "redis://builder@$H" --cache-remote-password-file "$T_TMP/bpw"
check "ACL user named in the URL, its password from the file: 6 remote hits" stats 0 6 0 0
rc_ del "$(rc_ --scan --pattern 'gpucompile:*' | head -n 1)" > /dev/null
batch "$T_TMP/u3" "$T_TMP/cu3" "redis://builder:b-pass@$H"
check "ACL user: SET allowed (the deleted entry is written again)" sh -c "grep -q ': 0 hits, 5 remote hits, 1 misses' '$E' && [ \$(REDISCLI_AUTH='$PW' '$RC' -p $PORT dbsize) -eq 6 ] && [ \$(grep -c warning '$E') -eq 0 ]"
batch "$T_TMP/u4" "$T_TMP/cu4" "redis://stranger:s-pass@$H"; rc=$?
check "an ACL user refused the keys: exit 0, equal to --no-cache, one warning naming NOPERM" \
    sh -c "[ $rc -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/u4' >/dev/null && [ \$(grep -c warning '$E') -eq 1 ] && grep warning '$E' | grep -q NOPERM"
batch "$T_TMP/u5" "$T_TMP/cu5" "redis://reader:r-pass@$H"
check "an ACL user without SET (~gpucompile:* +get): its GETs hit (6), no warning" sh -c "grep -q ': 0 hits, 6 remote hits, 0 misses' '$E' && [ \$(grep -c warning '$E') -eq 0 ]"
sed '1i ; a new one' "$K/saxpy_nvptx.ll" > "$T_TMP/new.ll"
"$G" --no-cache -t "$NV" -f isa "$T_TMP/new.ll" -o "$T_TMP/new.ref.ptx" 2>/dev/null
N=$((N+1)); E="$T_TMP/err.$N"
"$G" -t "$NV" -f isa "$T_TMP/new.ll" -o "$T_TMP/new.ptx" --cache-dir "$T_TMP/cu5" --cache-remote "redis://reader:r-pass@$H" 2>"$E"; rc=$?
check "an ACL user without SET, a new input: exit 0, equal to --no-cache, one warning naming SET's NOPERM" \
    sh -c "[ $rc -eq 0 ] && cmp -s '$T_TMP/new.ref.ptx' '$T_TMP/new.ptx' && [ \$(grep -c warning '$E') -eq 1 ] && grep warning '$E' | grep -q 'SET: NOPERM'"
batch "$T_TMP/u6" "$T_TMP/cu6" "redis://builder:wrong@$H"
check "an ACL user with a wrong password: one warning, WRONGPASS" sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q WRONGPASS '$E'"

# ---- the password is never written out ----
"$G" -v -t "$NV" -f isa "$K/saxpy_nvptx.ll" -o "$T_TMP/st.ptx" --cache-remote "redis://:$PW@$H" \
    --save-temps "$T_TMP/saved" > "$T_TMP/err.st" 2>&1
check "--save-temps with the password in the URL: the stages are saved" test -f "$T_TMP/saved/saxpy_nvptx.sm_90.isa/repro.sh"
"$G" --cache-stats --cache-dir "$T_TMP/ca1" --cache-remote "redis://:$PW@$H" > "$T_TMP/err.stats" 2>&1
check "--cache-stats alone: its line" grep -q 'ca1: 6 entries' "$T_TMP/err.stats"
rc_ --scan --pattern 'gpucompile:*' | while read -r k; do rc_ get "$k"; done > "$T_TMP/values"
check "the store's values were read (6 entries)" test "$(wc -c < "$T_TMP/values")" -gt 1000
for p in "$PW" "$PW_ESC" "b-pass" "s-pass" "r-pass" "not-it" "wrong-$PW"; do
    check "'$p' in no stderr (-v included), saved file, cache entry, stored value or stats line" \
        sh -c "! grep -rqF -e '$p' '$T_TMP'/err.* '$T_TMP/saved' '$T_TMP'/c[abuw]* '$T_TMP/values'"
done

# ---- a cache secret: entries only the team can write ----
head -c 32 /dev/urandom | base64 > "$T_TMP/secret1"
head -c 32 /dev/urandom | base64 > "$T_TMP/secret2"
chmod 600 "$T_TMP/secret1" "$T_TMP/secret2"
rc_ flushall > /dev/null
R="redis://builder:b-pass@$H"
batch "$T_TMP/s1" "$T_TMP/cs1" "$R" --cache-secret-file "$T_TMP/secret1"
check "secret, machine 1: 6 misses stored, no warning, equal to --no-cache" \
    sh -c "grep -q ' 6 misses, 0 refused' '$E' && [ \$(REDISCLI_AUTH='$PW' '$RC' -p $PORT dbsize) -eq 6 ] && [ \$(grep -c warning '$E') -eq 0 ] && diff -r '$T_TMP/ref' '$T_TMP/s1' >/dev/null"
f=$(ls "$T_TMP/cs1" | head -n 1)
check "secret: an entry ends with GPUTAG01 and a 32-byte tag" sh -c "tail -c 40 '$T_TMP/cs1/$f' | head -c 8 | grep -q GPUTAG01"
GPUCOMPILE_CACHE_SECRET_FILE="$T_TMP/secret1" batch "$T_TMP/s2" "$T_TMP/cs2" "$R"
check "secret (\$GPUCOMPILE_CACHE_SECRET_FILE), machine 2 (a fresh directory): 6 remote hits" stats 0 6 0 0
check "... byte-identical to --no-cache" same "$T_TMP/s2"
batch "$T_TMP/s3" "$T_TMP/cs3" "$R" --cache-secret-file "$T_TMP/secret2"
check "another secret: 6 misses, none refused (other keys), no warning" sh -c "grep -q ': 0 hits, 0 remote hits, 6 misses, 0 refused' '$E' && [ \$(grep -c warning '$E') -eq 0 ]"
check "another secret: equal to --no-cache, its entries beside the first's (12 values)" \
    sh -c "diff -r '$T_TMP/ref' '$T_TMP/s3' >/dev/null && [ \$(REDISCLI_AUTH='$PW' '$RC' -p $PORT dbsize) -eq 12 ]"
batch "$T_TMP/s4" "$T_TMP/cs4" "$R"
check "no secret: 6 misses (the team's keys are not the plain ones), equal to --no-cache" \
    sh -c "grep -q ': 0 hits, 0 remote hits, 6 misses' '$E' && diff -r '$T_TMP/ref' '$T_TMP/s4' >/dev/null"
cat "$T_TMP/secret1" "$T_TMP/secret1" > "$T_TMP/secret1x"
check "no key of one secret's entries names another's or none's (18 distinct keys)" \
    sh -c "[ \$(ls '$T_TMP/cs1' '$T_TMP/cs3' '$T_TMP/cs4' | grep -c '^[0-9a-f]\{64\}\$') -eq 18 ] && [ \$(ls '$T_TMP/cs1' '$T_TMP/cs3' '$T_TMP/cs4' | grep '^[0-9a-f]\{64\}\$' | sort -u | wc -l) -eq 18 ]"

# the victim: saxpy_1 under secret1; its key is the file a fresh secret1 compile of it writes
one() { # OUT CACHEDIR INPUT [ARGS...]: one input, the remote store, stderr in $E
    out=$1; cd_=$2; in=$3; shift 3
    N=$((N+1)); E="$T_TMP/err.$N"
    "$G" -t "$NV" -f isa "$in" -o "$out" --cache-dir "$cd_" --cache-remote "$R" --cache-stats "$@" 2>"$E"
}
one "$T_TMP/v.ptx" "$T_TMP/cv" "$T_TMP/in/saxpy_1.ll" --cache-secret-file "$T_TMP/secret1"
V=$(ls "$T_TMP/cv"); VR="gpucompile:$V"
check "the victim's key is found (a remote hit in a fresh directory)" sh -c "[ \$(echo '$V' | wc -c) -eq 65 ] && grep -q ' 1 remote hits' '$E'"
# another kernel's entries: made without the secret, with secret2, and with secret1 (its own key)
"$G" -t "$NV" -f isa "$T_TMP/in/reduce_1.ll" -o "$T_TMP/x.ptx" --cache-dir "$T_TMP/cx0" 2>/dev/null
"$G" -t "$NV" -f isa "$T_TMP/in/reduce_1.ll" -o "$T_TMP/x.ptx" --cache-dir "$T_TMP/cx2" --cache-secret-file "$T_TMP/secret2" 2>/dev/null
"$G" -t "$NV" -f isa "$T_TMP/in/reduce_1.ll" -o "$T_TMP/x.ptx" --cache-dir "$T_TMP/cx1" --cache-secret-file "$T_TMP/secret1" 2>/dev/null
check "reduce's PTX is not saxpy's (a planted object would show)" sh -c "! cmp -s '$T_TMP/x.ptx' '$T_TMP/ref/saxpy_1.ptx'"
for w in 0 2 1; do
    case $w in 0) what="made without the secret";; 2) what="tagged with another secret";; 1) what="tagged with the secret under its own key";; esac
    P="$T_TMP/cx$w/$(ls "$T_TMP/cx$w")"
    rc_ -x set "$VR" < "$P" > /dev/null
    check "planted ($what): the store holds it under the victim's key" sh -c "REDISCLI_AUTH='$PW' '$RC' -p $PORT --raw getrange '$VR' 0 -1 | head -c \$(wc -c < '$P') | cmp -s - '$P'"
    one "$T_TMP/p$w.ptx" "$T_TMP/cp$w" "$T_TMP/in/saxpy_1.ll" --cache-secret-file "$T_TMP/secret1"; rc=$?
    check "remote, planted ($what): refused, the victim's own PTX (equal to --no-cache)" \
        sh -c "[ $rc -eq 0 ] && cmp -s '$T_TMP/p$w.ptx' '$T_TMP/ref/saxpy_1.ptx' && grep -q ': 0 hits, 0 remote hits, 1 misses, 1 refused' '$E'"
    check "remote, planted ($what): one warning, no valid tag" sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q 'no valid tag' '$E'"
    one "$T_TMP/q$w.ptx" "$T_TMP/cq$w" "$T_TMP/in/saxpy_1.ll" --cache-secret-file "$T_TMP/secret1"
    check "remote, planted ($what): the refused value was replaced (a remote hit next)" sh -c "grep -q ' 1 remote hits, 0 misses, 0 refused' '$E' && cmp -s '$T_TMP/q$w.ptx' '$T_TMP/ref/saxpy_1.ptx'"
    cp "$P" "$T_TMP/cv/$V"
    one "$T_TMP/l$w.ptx" "$T_TMP/cv" "$T_TMP/in/saxpy_1.ll" --cache-secret-file "$T_TMP/secret1"
    check "local, planted ($what): refused, then a remote hit, the victim's own PTX" \
        sh -c "cmp -s '$T_TMP/l$w.ptx' '$T_TMP/ref/saxpy_1.ptx' && grep -q ': 0 hits, 1 remote hits, 0 misses, 1 refused' '$E' && [ \$(grep -c warning '$E') -eq 1 ]"
done
# a directory of planted entries, no remote store: every one refused, one warning in the process
cp -r "$T_TMP/cs2" "$T_TMP/cpl"
for f in "$T_TMP"/cpl/*; do cp "$T_TMP/cx0/$(ls "$T_TMP/cx0")" "$f"; done
N=$((N+1)); E="$T_TMP/err.$N"
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/pl" --cache-dir "$T_TMP/cpl" --cache-secret-file "$T_TMP/secret1" --cache-stats 2>"$E"
check "six planted local files: 6 refused, exactly one warning, equal to --no-cache" \
    sh -c "grep -q ': 0 hits, 0 remote hits, 6 misses, 6 refused' '$E' && [ \$(grep -c warning '$E') -eq 1 ] && diff -r '$T_TMP/ref' '$T_TMP/pl' >/dev/null"
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/pl2" --cache-dir "$T_TMP/cpl" --cache-secret-file "$T_TMP/secret1" --cache-stats 2>"$E"
check "... rewritten: 6 local hits, no warning (a refusal is not replayed)" sh -c "grep -q ': 6 hits, 0 remote hits, 0 misses, 0 refused' '$E' && [ \$(grep -c warning '$E') -eq 0 ]"
# a flipped byte in the tag
f=$(ls "$T_TMP/cpl" | head -n 1); sz=$(wc -c < "$T_TMP/cpl/$f")
printf 'x' | dd of="$T_TMP/cpl/$f" bs=1 seek=$((sz - 5)) conv=notrunc 2>/dev/null
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/pl3" --cache-dir "$T_TMP/cpl" --cache-secret-file "$T_TMP/secret1" --cache-stats 2>"$E"
check "a byte of the tag changed: refused (5 hits, 1 refused), equal to --no-cache" \
    sh -c "grep -q ': 5 hits, 0 remote hits, 1 misses, 1 refused' '$E' && diff -r '$T_TMP/ref' '$T_TMP/pl3' >/dev/null"
# the secret itself: unusable is a warning and no cache, never entries without tags
echo short > "$T_TMP/secret-short"
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/ns" --cache-dir "$T_TMP/cns" --cache-secret-file "$T_TMP/secret-short" 2>"$E"
check "a secret under 16 bytes: one warning, nothing cached, equal to --no-cache" \
    sh -c "[ \$(grep -c warning '$E') -eq 1 ] && ! ls '$T_TMP/cns' 2>/dev/null | grep -q . && diff -r '$T_TMP/ref' '$T_TMP/ns' >/dev/null"
head -c 5000 /dev/urandom | base64 > "$T_TMP/secret-big"
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/ns3" --cache-dir "$T_TMP/cns" --cache-secret-file "$T_TMP/secret-big" 2>"$E"
check "a secret file over 4 KiB (not a secret: a wrong path?): one warning, nothing cached" \
    sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q '4 KiB' '$E' && ! ls '$T_TMP/cns' 2>/dev/null | grep -q . && diff -r '$T_TMP/ref' '$T_TMP/ns3' >/dev/null"
"$G" -t "$NV" -f isa "$T_TMP"/in/*.ll -o "$T_TMP/ns2" --cache-dir "$T_TMP/cns" --cache-secret-file "$T_TMP/no-secret-here" 2>"$E"
check "a missing secret file: one warning naming it, nothing cached" \
    sh -c "[ \$(grep -c warning '$E') -eq 1 ] && grep -q no-secret-here '$E' && ! ls '$T_TMP/cns' 2>/dev/null | grep -q ."
check "the secret in no message, entry or stored value" \
    sh -c "! grep -rqF -e \"\$(cat '$T_TMP/secret1')\" '$T_TMP'/err.* '$T_TMP'/c[svpq]* '$T_TMP/values'"
tally cli_cache_trust.sh
