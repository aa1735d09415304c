#!/bin/sh
# Under faults the tool keeps its word: LLVM aborting on one input is that input's error (the
# compiles run in worker processes), signals end the children and remove the temporary files,
# reads are bounded, the toolkit's chips are checked first, odd temp paths do not break
# fatbinary, --host has no fixed limits, and the small promises of the command line hold.
. "$(dirname "$0")/lib.sh"
K=$PWD/examples/kernels
NV=$K/saxpy_nvptx.ll
T80='#gpu.nvptx<chip = "sm_80">'
export TMPDIR="$T_TMP/tmp"
mkdir -p "$TMPDIR" "$T_TMP/in" "$T_TMP/out"
G() { "$GPUCOMPILE" --no-cache "$@"; }
no_temps() { test -z "$(ls -A "$TMPDIR")"; }
# LLVM 19 and 22 both abort in instruction selection here: redux.sync needs sm_80.
cat > "$T_TMP/in/redux.ll" <<'EOF'
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p
  %r = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 -1)
  store i32 %r, ptr addrspace(1) %p
  ret void
}
EOF
SM50='#gpu.nvptx<chip = "sm_50">'

# ---- 1. an input LLVM aborts on -------------------------------------------------------------
rc=0; G -t "$SM50" -f isa "$T_TMP/in/redux.ll" -o "$T_TMP/out/r.ptx" 2>"$T_TMP/err" || rc=$?
check "abort in LLVM: exit 1, not a signal" test "$rc" = 1
check "abort in LLVM: the error is LLVM's line" grep -q "^gpucompile: error: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.redux.sync.add" "$T_TMP/err"
check "abort in LLVM: no raw LLVM ERROR line, no stack dump" sh -c "! grep -q '^LLVM ERROR\|Stack dump\|PLEASE submit' '$T_TMP/err'"
check "abort in LLVM: no output, no temporary file" sh -c "test ! -e '$T_TMP/out/r.ptx' && test -z \"\$(ls -A '$TMPDIR')\""
for j in 1 2; do
    rm -rf "$T_TMP/out/b"
    rc=0; G -j $j -t "$SM50" -f isa "$T_TMP/in/redux.ll" "$NV" "$K/math_nvptx.ll" -o "$T_TMP/out/b" 2>"$T_TMP/err" || rc=$?
    check "batch -j $j with an abort: exit 1" test "$rc" = 1
    check "batch -j $j with an abort: the other outputs are written" test -s "$T_TMP/out/b/saxpy_nvptx.ptx" -a -s "$T_TMP/out/b/math_nvptx.ptx"
    check "batch -j $j with an abort: none for it, its LLVM line named" sh -c "test ! -e '$T_TMP/out/b/redux.ptx' && grep -q 'redux.ll: LLVM ERROR: Cannot select' '$T_TMP/err'"
done
rm -rf "$T_TMP/out/b"
# two aborts in a row (more than there are workers): each is replaced
cp "$T_TMP/in/redux.ll" "$T_TMP/in/redux2.ll"
rc=0; G -t "$SM50" -f isa "$T_TMP/in/redux.ll" "$T_TMP/in/redux2.ll" "$NV" -o "$T_TMP/out/b" 2>"$T_TMP/err" || rc=$?
check "two aborts, one worker: both errors, the third input written" sh -c \
    "test $rc = 1 && test \$(grep -c 'LLVM ERROR: Cannot select' '$T_TMP/err') = 2 && test -s '$T_TMP/out/b/saxpy_nvptx.ptx'"
rc=0; G --isolate -t "$SM50" -f isa "$T_TMP/in/redux.ll" -o "$T_TMP/out/r.ptx" 2>"$T_TMP/err" || rc=$?
check "--isolate: the same error text" sh -c "test $rc = 1 && grep -q '^gpucompile: error: LLVM ERROR: Cannot select' '$T_TMP/err'"
G -t "$T80" -f isa "$T_TMP/in/redux.ll" -o "$T_TMP/out/r.ptx"
check "the same kernel for sm_80 compiles" grep -q "redux.sync" "$T_TMP/out/r.ptx"

# ---- 2. signals with a slow stand-in for ptxas -----------------------------------------------
SLOW=$T_TMP/slow_ptxas_stand_in.sh
ln -s "$(command -v sleep)" "$T_TMP/test_sleep" # a sleep of ours, not another process's
cat > "$SLOW" <<EOF
#!/bin/sh
case "\$*" in *--version*) echo "Cuda compilation tools, release 13.0, V13.0.48"; exit 0;; *--help*) exit 0;; esac
"$T_TMP/test_sleep" 20
EOF
chmod +x "$SLOW"
LEFT="$T_TMP/[s]low_ptxas_stand_in|$T_TMP/[t]est_sleep" # (brackets: the pattern does not match itself)
# slow_running: until the stand-in runs for the cubin (at most 10 s), not for --version
slow_running() { i=0; while [ $i -lt 100 ] && ! pgrep -f "$T_TMP/[t]est_sleep" >/dev/null; do sleep 0.1; i=$((i+1)); done; }
for sig in TERM HUP INT; do
    for mode in "" --isolate; do
        rm -rf "$TMPDIR" "$T_TMP/out/s.cubin"; mkdir -p "$TMPDIR"
        # (setsid: a process group of its own, for the ^C case, which goes to the whole group)
        setsid "$GPUCOMPILE" --no-cache $mode -t "$T80" --bin-method ptxas --tool ptxas="$SLOW" "$NV" -o "$T_TMP/out/s.cubin" 2>/dev/null &
        pid=$!
        slow_running
        if [ $sig = INT ]; then kill -INT "-$pid"; else kill -$sig "$pid"; fi
        rc=0; wait "$pid" || rc=$?
        n=$(case $sig in HUP) echo 129;; INT) echo 130;; TERM) echo 143;; esac)
        check "SIG$sig ${mode:-(workers)}: exit $n" test "$rc" = "$n"
        check "SIG$sig ${mode:-(workers)}: no temporary file, no output" sh -c "test -z \"\$(ls -A '$TMPDIR')\" && test ! -e '$T_TMP/out/s.cubin'"
        check "SIG$sig ${mode:-(workers)}: no ptxas (nor its sleep) left" sh -c "! pgrep -f '$LEFT' >/dev/null"
        pkill -f "$LEFT" 2>/dev/null
    done
done
# SIGKILL: what it leaves (temporary files named by PID) goes with a later run
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
"$GPUCOMPILE" --no-cache -t "$T80" --bin-method ptxas --tool ptxas="$SLOW" "$NV" -o "$T_TMP/out/s.cubin" 2>/dev/null &
pid=$!
slow_running
kill -KILL "$pid" $(pgrep -P "$pid"); wait "$pid" 2>/dev/null
pkill -f "$LEFT" 2>/dev/null
check "SIGKILL: the temporary files stay, named gpucompile-PID-*" sh -c "ls '$TMPDIR' | grep -q '^gpucompile-[0-9]*-'"
touch "$TMPDIR/gpucompile-1-alive.ptx" "$TMPDIR/unrelated"
G -t "$T80" --bin-method ptxas "$NV" -o "$T_TMP/out/s.cubin" 2>/dev/null
check "SIGKILL: a later run removes those of dead PIDs, only those" test "$(ls -A "$TMPDIR" | tr '\n' ' ')" = "gpucompile-1-alive.ptx unrelated "
rm -f "$TMPDIR"/*
# ... also a later run that makes no temporary file of its own (PTX; an nvJitLink cubin): the
# CLI sweeps once at its start
"$GPUCOMPILE" --no-cache -t "$T80" --bin-method ptxas --tool ptxas="$SLOW" "$NV" -o "$T_TMP/out/s.cubin" 2>/dev/null &
pid=$!
slow_running
kill -KILL "$pid" $(pgrep -P "$pid"); wait "$pid" 2>/dev/null
pkill -f "$LEFT" 2>/dev/null
check "SIGKILL again: its temporary files stay" sh -c "ls '$TMPDIR' | grep -q '^gpucompile-[0-9]*-'"
dead=$(sh -c 'echo $$'); touch "$TMPDIR/gpucompile-$dead-0.cubin" "$TMPDIR/gpucompile-1-alive.ptx"
G -f isa -t "$T80" "$NV" -o "$T_TMP/out/s.ptx" 2>/dev/null
check "a later PTX compile (no temporary file of its own) removes those of dead PIDs, only those" \
  test "$(ls -A "$TMPDIR" | tr '\n' ' ')" = "gpucompile-1-alive.ptx "
rm -f "$TMPDIR"/*

# ---- 3. bounded reads ------------------------------------------------------------------------
rc=0; timeout 20 "$GPUCOMPILE" --no-cache /dev/zero -o "$T_TMP/out/z" 2>"$T_TMP/err" || rc=$?
check "/dev/zero: an error at once" sh -c "test $rc = 1 && grep -q 'not a regular file or a pipe' '$T_TMP/err'"
rc=0; G --max-input 100 -f isa "$NV" -o "$T_TMP/out/z" 2>"$T_TMP/err" || rc=$?
check "--max-input: a larger file is refused" sh -c "test $rc = 1 && grep -q 'larger than the read limit' '$T_TMP/err'"
rc=0; head -c 20000000 /dev/zero | G --max-input 10M -f isa - -o "$T_TMP/out/z" 2>"$T_TMP/err" || rc=$?
check "--max-input: a larger stdin is refused" sh -c "test $rc = 1 && grep -q \"cannot read '-': larger than the read limit\" '$T_TMP/err'"
rc=0; (ulimit -v 600000; head -c 700000000 /dev/zero | "$GPUCOMPILE" --no-cache --max-input 2G -f isa - -o "$T_TMP/out/z") 2>"$T_TMP/err" || rc=$?
check "under ulimit -v: out of memory, exit 1" sh -c "test $rc = 1 && grep -q \"cannot read '-': out of memory\" '$T_TMP/err'"
rc=0; G --max-input 0 "$NV" -o "$T_TMP/out/z" 2>/dev/null || rc=$?
check "--max-input 0: a usage error" test "$rc" = 2
rm -rf "$T_TMP/out/b"
rc=0; timeout 20 "$GPUCOMPILE" --no-cache -f isa /dev/zero "$NV" -o "$T_TMP/out/b" 2>/dev/null || rc=$?
check "batch with /dev/zero: exit 1, the other input written" sh -c "test $rc = 1 && test -s '$T_TMP/out/b/saxpy_nvptx.ptx'"

# ---- 4. first contact: the toolkit's chips -------------------------------------------------
if [ -n "$HAVE_CUDA" ]; then
    rc=0; G "$NV" -o "$T_TMP/out/d.cubin" 2>"$T_TMP/err" || rc=$?
    if [ $rc = 0 ]; then
        skip "default chip sm_50: this toolkit takes it"
    else
        check "default chip on a toolkit without sm_50: exit 1, no ptxas words" sh -c "test $rc = 1 && ! grep -q 'gpu-name' '$T_TMP/err'"
        check "... the message says which chips it takes and how to choose" sh -c \
            "grep -q 'cannot make a cubin for sm_50' '$T_TMP/err' && grep -q \"choose a chip it takes with -t '#gpu.nvptx<chip = \" '$T_TMP/err'"
        check "... nvJitLink's code by name, never a bare number" sh -c "! grep -q 'error [0-9]' '$T_TMP/err'"
        rc=0; G --bin-method ptxas -f fatbin "$NV" -o "$T_TMP/out/d.fatbin" 2>"$T_TMP/err" || rc=$?
        check "ptxas alone: its list of chips" sh -c "test $rc = 1 && grep -q 'ptxas takes sm_' '$T_TMP/err'"
    fi
else
    skip "toolkit chips: no CUDA toolkit at $T_CUDA"
fi

# ---- 5. fatbinary with a TMPDIR holding , and " ------------------------------------------------
if [ -x "${CUDA_PATH:-/usr/local/cuda}/bin/fatbinary" ]; then
    ODD="$T_TMP/we,ird\"dir"
    mkdir -p "$ODD"
    rc=0; TMPDIR=$ODD "$GPUCOMPILE" --no-cache -t "$T80" -f fatbin "$NV" -o "$T_TMP/out/o.fatbin" 2>"$T_TMP/err" || rc=$?
    check "fatbin with , and \" in TMPDIR: exit 0" test "$rc" = 0
    check "... a fatbin (magic 0xba55ed50) and no temporary file left" sh -c \
        "od -An -tx4 -N4 '$T_TMP/out/o.fatbin' | grep -q ba55ed50 && test -z \"\$(ls -A '$ODD')\""
else
    skip "fatbin with odd TMPDIR (no fatbinary)"
fi

# ---- 6. --host: no fixed limits ----------------------------------------------------------------
awk 'BEGIN { print "target triple = \"nvptx64-nvidia-cuda\""
             for (i = 0; i < 1100; i++) printf "define ptx_kernel void @k%d(ptr %%p) {\n  ret void\n}\n", i
             n = "_Z"; for (i = 0; i < 3000; i++) n = n "x"
             printf "define ptx_kernel void @%sv() {\n  ret void\n}\n", n }' > "$T_TMP/in/many.ll"
rc=0; G -t "$T80" -f isa "$T_TMP/in/many.ll" -o "$T_TMP/out/many.ptx" --host "$T_TMP/out/many.host.ll" 2>"$T_TMP/err" || rc=$?
check "--host: 1101 kernels, one name of 3003 characters: exit 0" test "$rc" = 0
check "... a launch function for each" test "$(grep -c '^define void @many_.*_launch(' "$T_TMP/out/many.host.ll")" = 1101
check "... and the module parses" llvm-as "$T_TMP/out/many.host.ll" -o /dev/null
rm -f "$T_TMP/out/o.ptx"
rc=0; G -t "$T80" -f isa "$NV" --name '' -o "$T_TMP/out/o.ptx" --host "$T_TMP/out/h.ll" 2>"$T_TMP/err" || rc=$?
check "host module refused: exit 1, the PTX still written, no host module" sh -c \
    "test $rc = 1 && test -s '$T_TMP/out/o.ptx' && test ! -e '$T_TMP/out/h.ll' && grep -q 'the other outputs are' '$T_TMP/err'"

# ---- 7. the small promises ---------------------------------------------------------------------
rc=0; G -f isa "$NV" 2>"$T_TMP/err" || rc=$?
check "no -o: a usage error that says what to give" sh -c "test $rc = 2 && grep -q 'no output: give -o PATH' '$T_TMP/err'"
mkdir -p "$T_TMP/ro"; chmod 555 "$T_TMP/ro"
if [ "$(id -u)" = 0 ]; then W=/proc/version; else W=$T_TMP/ro/o.ptx; fi
rc=0; G -f isa -t "$T80" "$NV" -o "$W" 2>"$T_TMP/err" || rc=$?
check "a write error says why" sh -c "test $rc = 1 && grep -Eq \"cannot write the output '$W': (Permission denied|No such file or directory|Operation not permitted)\" '$T_TMP/err'"
printf 'OLD' > "$T_TMP/out/keep.ptx"
rc=0; G -f isa -t "$T80" "$NV" -o "$T_TMP/out/keep.ptx" --emit-text "$T_TMP/no/dir/x.mlir" 2>"$T_TMP/err" || rc=$?
check "a failed --emit-text write: exit 1, the old -o file untouched" sh -c "test $rc = 1 && test \"\$(cat '$T_TMP/out/keep.ptx')\" = OLD"
rc=0; G -f isa -t "$T80" "$NV" -o "$T_TMP/out/keep.ptx" --host "$T_TMP/no/dir/h.ll" 2>"$T_TMP/err" || rc=$?
check "a failed --host write: exit 1, the old -o file untouched, its reason" sh -c \
    "test $rc = 1 && test \"\$(cat '$T_TMP/out/keep.ptx')\" = OLD && grep -q 'host module.*No such file or directory' '$T_TMP/err'"
check "... no temporary beside it" test "$(ls "$T_TMP/out" | grep -c 'keep.ptx.tmp')" = 0
printf 'target triple = "x86_64-pc-linux-gnu"\ndefine ptx_kernel void @k() {\n  ret void\n}\n' > "$T_TMP/in/x86.ll"
G -f isa -t "$T80" "$T_TMP/in/x86.ll" -o "$T_TMP/out/x.ptx" 2>"$T_TMP/err"
check "another target's triple: a warning naming both" grep -q "warning: the module's triple 'x86_64-pc-linux-gnu' names another target than 'nvptx64-nvidia-cuda'" "$T_TMP/err"
rc=0; G -f isa -t "$T80" -t '#gpu.nvptx<chip="sm_80">' "$NV" -o "$T_TMP/out/two.bin" 2>"$T_TMP/err" || rc=$?
check "the same target twice: a warning" sh -c "test $rc = 0 && grep -q 'warning: the target #gpu.nvptx<chip = \"sm_80\"> is given twice' '$T_TMP/err'"
mkdir -p "$T_TMP/with space"
cat > "$T_TMP/with space/ptxas" <<'EOF'
#!/bin/sh
case "$*" in *--version*) echo "Cuda compilation tools, release 13.0, V13.0.48"; exit 0;; *--help*) exit 0;; esac
echo ran > "$MARK"
exit 1
EOF
chmod +x "$T_TMP/with space/ptxas"
G -v -t "$T80" --bin-method ptxas --tool "ptxas=$T_TMP/with space/ptxas" "$NV" -o "$T_TMP/out/q.cubin" 2>"$T_TMP/err"
line=$(grep "note: running: '$T_TMP/with space/ptxas' " "$T_TMP/err" | grep -v -- '--version\|--help' | head -1 | sed 's/^gpucompile: note: running: //')
check "-v: a tool's command line quoted for a shell" test -n "$line"
MARK=$T_TMP/mark; export MARK
sh -c "$line" >/dev/null 2>&1
check "... which a shell runs as it was run" test -s "$MARK"
tally cli_faults
