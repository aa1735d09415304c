#!/bin/sh
# The bad-input battery (docs/guarantees.md): whatever the tool is fed, it exits by return (1, or 2 for a
# usage error) with a message naming the problem, writes nothing to stdout, leaves no output
# file and no temporary file. Every case runs with a fresh private $TMPDIR and --no-cache.
# Also run by `make sanitize` against the ASan/UBSan build (GPUCOMPILE points there).
. "$(dirname "$0")/lib.sh"
K=$PWD/examples/kernels
NV=$K/saxpy_nvptx.ll
AMD=$K/saxpy_amdgpu.ll
export TMPDIR="$T_TMP/tmp"
D=$T_TMP/in                     # inputs
mkdir -p "$D" "$T_TMP/out"
OUT=$T_TMP/out/o                # the output every case asks for
NVBIN='#gpu.nvptx<chip = "sm_90">'   # CUDA 13's ptxas refuses the default sm_50
AMDT='#gpu.amdgpu<chip = "gfx90a">'

# The common checks after one run; $1 the exit status wanted ("12": 1 or 2), the rest set by run.
# Prints what went wrong, nothing when all is well.
problems() {
  p=""
  [ "$rc" -ge 128 ] && p="$p died by signal $((rc - 128));"
  case "$1" in *"$rc"*) ;; *) p="$p exit $rc (want $1);"; esac
  # report_fatal_error exits with 1 too: LLVM's own "LLVM ERROR" line gives it away
  grep -q "^LLVM ERROR" "$T_TMP/stderr" 2>/dev/null && p="$p LLVM called exit/abort (LLVM ERROR);"
  # under `make sanitize` a crash is a sanitizer report with exit 1
  grep -q "Sanitizer" "$T_TMP/stderr" 2>/dev/null && p="$p sanitizer report;"
  [ -n "$(ls -A "$TMPDIR" 2>/dev/null)" ] && p="$p temp files left: $(ls -A "$TMPDIR" | tr '\n' ' ');"
  [ -n "$(find "$T_TMP" "$PWD" -maxdepth 3 -name pwned 2>/dev/null)" ] && p="$p a shell ran ('pwned' exists);"
  printf '%s' "$p"
}

run() {
  rm -rf "$TMPDIR" "$T_TMP/out"; mkdir -p "$TMPDIR" "$T_TMP/out"
  "$GPUCOMPILE" --no-cache "$@" >"$T_TMP/stdout" 2>"$T_TMP/stderr"; rc=$?
}

# bad NAME CODES PATTERN ARGS...: fails with exit in CODES, PATTERN (grep -E) on stderr, no
# stdout, no output file (nor its temporary) and no temp file.
bad() {
  n=$1; want=$2; pat=$3; shift 3
  run "$@"
  p=$(problems "$want")
  grep -Eq -- "$pat" "$T_TMP/stderr" || p="$p stderr lacks /$pat/;"
  [ -s "$T_TMP/stdout" ] && p="$p output on stdout;"
  [ -n "$(ls -A "$T_TMP/out")" ] && p="$p output left: $(ls -A "$T_TMP/out" | tr '\n' ' ');"
  if [ -z "$p" ]; then ok "$n"; else fail "$n:$p stderr: $(head -c 400 "$T_TMP/stderr")"; fi
}

# good NAME PATTERN ARGS...: exit 0, the output file exists, PATTERN (or "" for none) on stderr.
good() {
  n=$1; pat=$2; shift 2
  run "$@"
  p=$(problems 0)
  [ -n "$pat" ] && ! grep -Eq -- "$pat" "$T_TMP/stderr" && p="$p stderr lacks /$pat/;"
  [ -s "$OUT" ] || p="$p no output;"
  if [ -z "$p" ]; then ok "$n"; else fail "$n:$p stderr: $(head -c 400 "$T_TMP/stderr")"; fi
}

# ---- inputs that are not LLVM IR ----
: > "$D/empty.ll"
bad "empty file" 1 "empty" -f isa "$D/empty.ll" -o "$OUT"
bad "empty stdin" 1 "empty" -f isa - -o "$OUT" < "$D/empty.ll"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 255) + 1 }' > "$D/random.bin"
bad "random bytes" 1 "random.bin: invalid LLVM IR" -f isa "$D/random.bin" -o "$OUT"
{ printf 'BC\300\336'; cat "$D/random.bin"; } > "$D/random.bc"
bad "random bytes after the bitcode magic" 1 "random.bc: invalid or truncated bitcode" -f isa "$D/random.bc" -o "$OUT"
"$GPUCOMPILE" --no-cache -f llvm "$NV" -o "$D/full.bc" 2>/dev/null
head -c 300 "$D/full.bc" > "$D/trunc.bc"
bad "truncated bitcode" 1 "trunc.bc: invalid or truncated bitcode" -f isa "$D/trunc.bc" -o "$OUT"
head -c 3 "$D/full.bc" > "$D/magic3.bc"
bad "3 bytes of bitcode magic" 1 "magic3.bc" -f isa "$D/magic3.bc" -o "$OUT"
# LLVM reads a NUL inside the text as a blank: what follows it must still be parsed.
printf 'define void @f() {\n  ret void\n}\n\0 this is not IR\n' > "$D/nul.ll"
bad "NUL byte in IR text: the rest is still read" 1 "nul.ll: invalid LLVM IR" -f isa "$D/nul.ll" -o "$OUT"
bad "a directory as input" 1 "in" -f isa "$D" -o "$OUT"
bad "missing input" 1 "no_such.ll" -f isa "$D/no_such.ll" -o "$OUT"

# ---- invalid IR ----
printf 'define void @f( {' > "$D/syntax.ll"
bad "IR syntax error" 1 "syntax.ll: invalid LLVM IR" -f isa "$D/syntax.ll" -o "$OUT"
printf 'define ptx_kernel void @k() {\nentry:\n  %%x = add i32 1, 2\n}\n' > "$D/noterm.ll"
bad "block without terminator" 1 "noterm.ll: invalid LLVM IR" -f isa "$D/noterm.ll" -o "$OUT"
printf 'define ptx_kernel void @k(ptr %%p) {\n  store i32 %%v, ptr %%p\n  ret void\n}\n' > "$D/undef_value.ll"
bad "use of an undefined value" 1 "undef_value.ll" -f isa "$D/undef_value.ll" -o "$OUT"
printf 'define ptx_kernel void @k() {\n  %%a = add i32 %%a, 1\n  ret void\n}\n' > "$D/selfref.ll"
bad "instruction using itself (verifier)" 1 "not valid LLVM IR|Only PHI nodes|invalid LLVM IR" -f isa "$D/selfref.ll" -o "$OUT"
printf 'declare void @g()\ndefine ptx_kernel void @k() {\n  call void @g()\n  ret void\n}\n' > "$D/undefined.ll"
bad "unresolved function" 1 "undefined function 'g'" -f isa "$D/undefined.ll" -o "$OUT"
printf 'declare void @llvm.gpucompile.nosuch()\ndefine ptx_kernel void @k() {\n  call void @llvm.gpucompile.nosuch()\n  ret void\n}\n' > "$D/unknown_intr.ll"
bad "unknown intrinsic" 1 "unknown intrinsic 'llvm.gpucompile.nosuch'" -f isa "$D/unknown_intr.ll" -o "$OUT"
printf 'declare i32 @llvm.amdgcn.workitem.id.x()\ndefine ptx_kernel void @k(ptr %%p) {\n  %%x = call i32 @llvm.amdgcn.workitem.id.x()\n  store i32 %%x, ptr %%p\n  ret void\n}\n' > "$D/amdgcn_in_nvptx.ll"
bad "amdgcn intrinsic in an NVPTX module" 1 "llvm.amdgcn.workitem.id.x' belongs to another target" -f isa "$D/amdgcn_in_nvptx.ll" -o "$OUT"
printf 'declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\ndefine amdgpu_kernel void @k(ptr %%p) {\n  %%x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  store i32 %%x, ptr %%p\n  ret void\n}\n' > "$D/nvvm_in_amdgpu.ll"
bad "nvvm intrinsic in an AMDGPU module" 1 "llvm.nvvm.read.ptx.sreg.tid.x' belongs to another target" -t "$AMDT" -f isa "$D/nvvm_in_amdgpu.ll" -o "$OUT"
printf 'declare void @llvm.x86.sse2.pause()\ndefine amdgpu_kernel void @k() {\n  call void @llvm.x86.sse2.pause()\n  ret void\n}\n' > "$D/x86.ll"
bad "x86 intrinsic in an AMDGPU module, format bin" 1 "llvm.x86.sse2.pause' belongs to another target" -t "$AMDT" -f bin "$D/x86.ll" -o "$OUT"

# Calling conventions LLVM 19's AMDGPU code generator aborts or crashes on (found by this battery);
# LLVM 22's verifier already refuses calls to the graphics ones.
bad "NVPTX kernel (ptx_kernel) compiled for AMDGPU" 1 "'saxpy': calling convention" -t "$AMDT" -f isa "$NV" -o "$OUT"
for cc in amdgpu_ps amdgpu_gfx spir_func tailcc x86_stdcallcc; do
  printf 'define %s void @g(ptr %%p) {\n  store i32 1, ptr %%p\n  ret void\n}\ndefine amdgpu_kernel void @k(ptr %%p) {\n  call %s void @g(ptr %%p)\n  ret void\n}\n' $cc $cc > "$D/cc_$cc.ll"
  bad "AMDGPU: a function with calling convention $cc" 1 "'g': calling convention|calling convention does not permit calls" -t "$AMDT" -f isa "$D/cc_$cc.ll" -o "$OUT"
done
bad "AMDGPU kernel (amdgpu_kernel) compiled for NVPTX" 1 "'k': calling convention" -f isa "$D/cc_tailcc.ll" -o "$OUT"

# Visible PTX symbols with characters PTX lacks: LLVM 19 aborts (found by the IR fuzzer).
printf 'define ptx_kernel void @"a-b"(ptr %%p) {\n  store i32 1, ptr %%p\n  ret void\n}\n' > "$D/name_kernel.ll"
bad "NVPTX kernel named 'a-b'" 1 "'a-b': PTX names" -f isa "$D/name_kernel.ll" -o "$OUT"
printf '@"g v" = linkonce_odr global i32 0\ndefine ptx_kernel void @k() {\n  store i32 1, ptr @"g v"\n  ret void\n}\n' > "$D/name_global.ll"
bad "NVPTX global named 'g v'" 1 "'g v': PTX names" -f isa "$D/name_global.ll" -o "$OUT"

# Valid IR that LLVM 19's code generators abort or crash on (found by sweeping constructs).
# kernel NAME TARGETS BODY PATTERN: BODY in a kernel @k(ptr %p) for each of TARGETS (nv, amd):
# refused with PATTERN.
kernel() {
  for tk in $2; do
    if [ $tk = nv ]; then cc=ptx_kernel; t='#gpu.nvptx<chip = "sm_90">'; else cc=amdgpu_kernel; t=$AMDT; fi
    printf '@tls = thread_local global i32 0\ndefine %s void @k(ptr %%p, ptr addrspace(8) %%r) {\n%b\n  ret void\n}\n' $cc "$3" > "$D/$1_$tk.ll"
    bad "LLVM-killing IR refused: $1 ($tk)" 1 "$4|intrinsic '" -t "$t" -f isa "$D/$1_$tk.ll" -o "$OUT"
  done
}
kernel fp128 "nv amd" '  %a = load fp128, ptr %p\n  %b = fadd fp128 %a, %a\n  store fp128 %b, ptr %p' "floating-point types"
kernel x86_fp80 "nv amd" '  %a = load x86_fp80, ptr %p\n  store x86_fp80 %a, ptr %p' "floating-point types"
kernel thread_local "nv amd" '  store i32 1, ptr @tls' "'tls'.*thread-local"
kernel clear_cache "nv amd" '  call void @llvm.clear_cache(ptr %p, ptr %p)' "intrinsic 'llvm.clear_cache'"
kernel frameaddress "amd" '  %f = call ptr @llvm.frameaddress.p0(i32 0)\n  store ptr %f, ptr %p' "intrinsic 'llvm.frameaddress"
kernel addrspacecast_7 "nv amd" '  %q = addrspacecast ptr %p to ptr addrspace(7)\n  store i32 1, ptr addrspace(7) %q' "address space"
kernel load_addrspace_8 "amd" '  %v = load i32, ptr addrspace(8) %r\n  store i32 %v, ptr %p' "address space 2 or 8"
kernel fptosi_i256 "nv" '  %a = load double, ptr %p\n  %b = fptosi double %a to i256\n  store i256 %b, ptr %p' "wider than 128 bits"
kernel alloca_16GiB "amd" '  %a = alloca [4294967295 x i32], addrspace(5)\n  store volatile i32 1, ptr addrspace(5) %a' "4 GiB"
printf 'define ptx_kernel void @k({i32, [65536 x i8]} %%s, ptr %%p) {\n  %%v = extractvalue {i32, [65536 x i8]} %%s, 0\n  store i32 %%v, ptr %%p\n  ret void\n}\n' > "$D/big_param_nv.ll"
sed 's/ptx_kernel/amdgpu_kernel/' "$D/big_param_nv.ll" > "$D/big_param_amd.ll"
bad "64 KiB struct passed by value (NVPTX aborts)" 1 "passes 65540 bytes by value" -f isa "$D/big_param_nv.ll" -o "$OUT"
bad "64 KiB struct passed by value (AMDGPU crashes)" 1 "passes 65540 bytes by value" -t "$AMDT" -f isa "$D/big_param_amd.ll" -o "$OUT"
printf 'define void @k(ptr %%p) {\n  ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !"kernel", !"one"}\n' > "$D/annotations.ll"
if [ "${T_LLVM_MAJOR:-0}" -lt 20 ]; then
  bad "!nvvm.annotations with a string value (LLVM 19's NVPTX segfaults)" 1 "nvvm.annotations" -f isa "$D/annotations.ll" -o "$OUT"
else # LLVM 20+ segfaults in its IR reader (the annotations' auto-upgrade), before any check of ours
  # (under ASan the child reports the SEGV and exits 1)
  bad "!nvvm.annotations with a string value (LLVM $T_LLVM_MAJOR's IR reader segfaults): --isolate" 1 "compiler process (died with signal 11|exited with status)" \
    --isolate -f isa "$D/annotations.ll" -o "$OUT"
fi
printf '@s = addrspace(3) global i32 5\ndefine ptx_kernel void @k(ptr %%p) {\n  %%v = load i32, ptr addrspace(3) @s\n  store i32 %%v, ptr %%p\n  ret void\n}\n' > "$D/shared_init.ll"
bad "NVPTX shared variable with an initial value" 1 "'s'.*address space 3" -f isa "$D/shared_init.ll" -o "$OUT"
# What stays: intrinsics of a newer chip abort in instruction selection ("Cannot select"), in
# process; --isolate turns that into an error.
printf 'define ptx_kernel void @k(ptr %%p, i32 %%x) {\n  %%r = call i32 @llvm.nvvm.redux.sync.add(i32 %%x, i32 -1)\n  store i32 %%r, ptr %%p\n  ret void\n}\n' > "$D/redux.ll"
bad "--isolate: an sm_80 intrinsic for sm_50 (LLVM aborts in the child)" 1 "isolated compiler died|Cannot select" --isolate -t '#gpu.nvptx<chip = "sm_50">' -f isa "$D/redux.ll" -o "$OUT"

printf 'define void @f() {\n  ret void\n}\n' > "$D/nokernel.ll"
good "module without a kernel: a warning, exit 0" "warning: .*no kernel" -f isa "$D/nokernel.ll" -o "$OUT"

# ---- targets ----
bad "unknown NVPTX chip sm_999" 1 "'sm_999' is not supported" -t '#gpu.nvptx<chip = "sm_999">' -f isa "$NV" -o "$OUT"
bad "unknown AMDGPU chip gfx9999" 1 "'gfx9999' is not supported" -t '#gpu.amdgpu<chip = "gfx9999">' -f isa "$AMD" -o "$OUT"
bad "unknown AMDGPU chip gfx9999, format bin" 1 "'gfx9999' is not supported" -t '#gpu.amdgpu<chip = "gfx9999">' -f bin "$AMD" -o "$OUT"
bad "AMDGPU chip with a bad target-ID feature" 1 "gfx90a:bogus\\+" -t '#gpu.amdgpu<chip = "gfx90a:bogus+">' -f isa "$AMD" -o "$OUT"
bad "chip with shell characters" 1 "not supported" -t '#gpu.nvptx<chip = "sm_90;$(touch pwned)">' -f isa "$NV" -o "$OUT"
bad "O = 7" 1 "optimization level" -t '#gpu.nvptx<O = 7>' -f isa "$NV" -o "$OUT"
bad "O = -1" 1 "O|optimization level" -t '#gpu.amdgpu<O = -1>' -f isa "$AMD" -o "$OUT"
bad "O = 99999999999999999999" 1 "O|optimization level|integer" -t '#gpu.nvptx<O = 99999999999999999999>' -f isa "$NV" -o "$OUT"
bad "target text cut short" 1 "column" -t '#gpu.nvptx<O = ' -f isa "$NV" -o "$OUT"
bad "target text without '>'" 1 "column" -t '#gpu.nvptx<chip = "sm_80"' -f isa "$NV" -o "$OUT"
bad "target text: unquoted chip" 1 "column" -t '#gpu.nvptx<chip = sm_80>' -f isa "$NV" -o "$OUT"
bad "target text: unknown attribute" 1 "column|unknown|expected" -t '#gpu.metal<>' -f isa "$NV" -o "$OUT"
bad "target text: unknown parameter" 1 "column|unknown|expected" -t '#gpu.nvptx<color = "red">' -f isa "$NV" -o "$OUT"
bad "target text: empty" 1 "column|empty|expected" -t '' -f isa "$NV" -o "$OUT"
bad "target text: unterminated string" 1 "column" -t '#gpu.nvptx<chip = "sm_80>' -f isa "$NV" -o "$OUT"
bad "target text: triple of the other target" 1 "triple|amdgcn" -t '#gpu.nvptx<triple = "amdgcn-amd-amdhsa">' -f isa "$NV" -o "$OUT"
bad "impossible PTX version +ptx99" 1 "ptx99" -t '#gpu.nvptx<features = "+ptx99">' -f isa "$NV" -o "$OUT"
# A long target text through argv (a single argument may not exceed 128 KiB on Linux; the
# 1 MiB texts go through the API in tests/test_battery.c).
LONG=$(awk 'BEGIN { s = "aaaaaaaaaaaaaaaa"; while (length(s) < 100000) s = s s; printf "%s", substr(s, 1, 100000) }')
bad "100 KB chip name" 1 "is not supported" -t "#gpu.nvptx<chip = \"$LONG\">" -f isa "$NV" -o "$OUT"
FLAGS=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "f%d, ", i; printf "last" }')
bad "10000 flags" 1 "column.*flag" -t "#gpu.nvptx<flags = {$FLAGS}>" -f isa "$NV" -o "$OUT"
FLAGS=$(awk 'BEGIN { for (i = 0; i < 500; i++) printf "f%d, ", i; printf "last" }')
good "500 flags (unknown flags are allowed, as in MLIR)" "" -t "#gpu.nvptx<flags = {$FLAGS}>" -f isa "$NV" -o "$OUT"
bad "500 flags, one repeated" 1 "repeated" -t "#gpu.nvptx<flags = {$FLAGS, f499}>" -f isa "$NV" -o "$OUT"
NEST=$(awk 'BEGIN { for (i = 0; i < 20000; i++) printf "["; }')
bad "20000 nested brackets" 1 "column" -t "#gpu.nvptx<link = $NEST>" -f isa "$NV" -o "$OUT"
# Unknown features make LLVM 19 print "'+foo' is not a recognized feature" on stderr, outside
# any handler: they must be refused before LLVM sees them.
for tk in "#gpu.nvptx<features = \"+foo\">|$NV" "#gpu.amdgpu<features = \"+foo\">|$AMD"; do
  bad "unknown feature '+foo' (${tk%%<*}) is refused" 1 "foo" -t "${tk%%|*}" -f isa "${tk#*|}" -o "$OUT"
  check "unknown feature '+foo' (${tk%%<*}): LLVM prints nothing" sh -c "! grep -q 'not a recognized feature' '$T_TMP/stderr'"
done

# Known features that make LLVM 19's AMDGPU backend die (measured on gfx900): refused in
# process; with --isolate an error too.
printf 'define amdgpu_kernel void @k(ptr %%p, double %%d) {\n  %%a = load double, ptr %%p\n  %%b = fmul double %%a, %%d\n  store double %%b, ptr %%p\n  ret void\n}\n' > "$D/double_amd.ll"
for f in -flat-address-space -fp64 +requires-cov6; do
  t="#gpu.amdgpu<chip = \"gfx900\", features = \"$f\">"
  bad "AMDGPU feature '$f' is refused" 1 "$f" -t "$t" -f bin "$D/double_amd.ll" -o "$OUT"
  bad "--isolate: AMDGPU feature '$f' becomes an error" 1 "is not supported|died" --isolate -t "$t" -f bin "$D/double_amd.ll" -o "$OUT"
done

# ---- toolkits, libraries, tools ----
bad "--toolkit /nonexistent, NVPTX bin" 1 "/nonexistent" --toolkit /nonexistent -t "$NVBIN" -f bin "$NV" -o "$OUT"
bad "--toolkit /nonexistent, NVPTX libdevice" 1 "/nonexistent" --toolkit /nonexistent -f isa "$K/math_nvptx.ll" -o "$OUT"
bad "--toolkit /nonexistent, AMDGPU device libraries" 1 "/nonexistent" --toolkit /nonexistent -t "$AMDT" -f isa "$K/math_amdgpu.ll" -o "$OUT"
bad "--toolkit with shell characters" 1 "touch pwned" --toolkit "$T_TMP/x y;\$(touch pwned)'" -f isa "$K/math_nvptx.ll" -o "$OUT"
echo "not bitcode" > "$D/file.txt"
bad "-l a text file" 1 "file.txt.*bitcode|bitcode.*file.txt" -l "$D/file.txt" -f isa "$NV" -o "$OUT"
bad "-l a missing file" 1 "missing.bc" -l "$D/missing.bc" -f isa "$NV" -o "$OUT"
bad "-l truncated bitcode" 1 "trunc.bc" -l "$D/trunc.bc" -f isa "$NV" -o "$OUT"
bad "target link = a text file" 1 "file.txt" -t "#gpu.nvptx<link = [\"$D/file.txt\"]>" -f isa "$NV" -o "$OUT"
bad "--tool ld.lld that does not exist" 1 "/nonexistent/ld.lld" --tool ld.lld=/nonexistent/ld.lld -t "$AMDT" -f bin "$AMD" -o "$OUT"
printf '#!/bin/sh\necho "fake tool: broken input" >&2\nexit 3\n' > "$D/fail.sh"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$D/segv.sh"
# answers --version at once (the NVPTX backend asks), hangs otherwise
printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "Cuda compilation tools, release 13.0, V13.0.0"; exit 0; fi\nexec sleep 60\n' > "$D/hang.sh"
chmod +x "$D/fail.sh" "$D/segv.sh" "$D/hang.sh"
bad "ld.lld exits 3: its stderr is shown" 1 "fake tool: broken input" --tool ld.lld="$D/fail.sh" -t "$AMDT" -f bin "$AMD" -o "$OUT"
bad "ptxas dies by SIGSEGV" 1 "ptxas" --bin-method ptxas --tool ptxas="$D/segv.sh" -t "$NVBIN" -f bin "$NV" -o "$OUT"
bad "fatbinary exits 3" 1 "fake tool: broken input" --tool fatbinary="$D/fail.sh" -t "$NVBIN" -f fatbin "$NV" -o "$OUT"
start=$(date +%s)
bad "ld.lld hangs: killed by --tool-timeout 1" 1 "killed after" --tool-timeout 1 --tool ld.lld="$D/hang.sh" -t "$AMDT" -f bin "$AMD" -o "$OUT"
bad "ptxas hangs: killed by --tool-timeout 1" 1 "killed after" --tool-timeout 1 --bin-method ptxas --tool ptxas="$D/hang.sh" -t "$NVBIN" -f bin "$NV" -o "$OUT"
check "both hung tools were killed within 10 s" test $(($(date +%s) - start)) -lt 10
bad "--tool-timeout 0 is a usage error" 2 "tool-timeout" --tool-timeout 0 -f isa "$NV" -o "$OUT"
bad "--tool-timeout abc is a usage error" 2 "tool-timeout" --tool-timeout abc -f isa "$NV" -o "$OUT"
# ld.lld needs temporary files (the in-process hsaco writer does not).
rm -rf "$T_TMP/out"; mkdir -p "$T_TMP/out"
TMPDIR=$T_TMP/no_such_tmp "$GPUCOMPILE" --no-cache --bin-method lld -t "$AMDT" -f bin "$AMD" -o "$OUT" >"$T_TMP/stdout" 2>"$T_TMP/stderr"; rc=$?
if [ $rc -eq 1 ] && grep -q "temporary file.*no_such_tmp" "$T_TMP/stderr" && [ ! -e "$OUT" ]; then ok "\$TMPDIR missing: error naming it"
else fail "\$TMPDIR missing: rc $rc, $(cat "$T_TMP/stderr")"; fi

# ---- outputs ----
bad "output in a missing directory" 1 "no/such/dir" -f isa "$NV" -o "$T_TMP/out/no/such/dir/a.ptx"
bad "output is a directory" 1 "cannot write" -f isa "$NV" -o "$T_TMP"
bad "--object-out in a missing directory" 1 "no/such/dir" --object-out "$T_TMP/out/no/such/dir/o.obj" -f isa "$NV" -o "$OUT"
bad "--emit-text in a missing directory" 1 "no/such/dir" --emit-text "$T_TMP/out/no/such/dir/b.mlir" -f isa "$NV" -o "$OUT"
bad "--host in a missing directory" 1 "no/such/dir" --host "$T_TMP/out/no/such/dir/h.ll" -f isa "$NV" -o "$OUT"

# ---- paths with spaces and shell characters: they work, and no shell ever runs ----
WEIRD="$D/a b;\$(touch pwned)'.ll"
cp "$NV" "$WEIRD"
cd "$T_TMP"
good "input path with spaces and shell characters" "" -f isa "$WEIRD" -o "$OUT"
OUT="$T_TMP/out/o b;\$(touch pwned)'.bin"
good "NVPTX bin (ptxas) from and to such paths" "" --bin-method ptxas -t "$NVBIN" -f bin "$WEIRD" -o "$OUT"
good "NVPTX fatbin to such a path" "" -t "$NVBIN" -f fatbin "$WEIRD" -o "$OUT"
cp "$AMD" "$WEIRD"
good "AMDGPU bin (ld.lld) from and to such paths" "" -t "$AMDT" -f bin "$WEIRD" -o "$OUT"
OUT=$T_TMP/out/o
mkdir -p "$T_TMP/t m;p\$(touch pwned)"
TMPDIR="$T_TMP/t m;p\$(touch pwned)" "$GPUCOMPILE" --no-cache -t "$AMDT" -f bin "$AMD" -o "$T_TMP/out/o2" 2>"$T_TMP/stderr"; rc=$?
check "\$TMPDIR with spaces and shell characters works, and is left empty" \
  sh -c "[ $rc -eq 0 ] && [ -s '$T_TMP/out/o2' ] && [ -z \"\$(ls -A '$T_TMP/t m;p\$(touch pwned)')\" ]"
check "no 'pwned' file anywhere" test -z "$(find "$T_TMP" "$OLDPWD" -maxdepth 3 -name pwned)"
cd "$OLDPWD"

# ---- the command line itself ----
for v in 0 -1 abc 1x ""; do bad "-j '$v' is a usage error" 2 "j" -j "$v" -f isa "$NV" -o "$OUT"; done
run -j 100000 -f isa "$NV" -o "$OUT"
check "-j 100000 exits by return, 0 or 2" sh -c "[ $rc -eq 0 ] || [ $rc -eq 2 ]"
bad "several targets, one bad: no output" 1 "gfx9999" -t "$NVBIN" -t '#gpu.amdgpu<chip = "gfx9999">' -f isa "$NV" -o "$OUT"
bad "unknown option" 2 "unknown option" --frobnicate "$NV"
bad "unknown format" 2 "unknown format" -f exe "$NV" -o "$OUT"
bad "--tool without '='" 2 "NAME=PATH" --tool ptxas "$NV" -o "$OUT"
bad "--print-target of an unknown chip" 1 "gfx9999" --print-target '#gpu.amdgpu<chip = "gfx9999">'

# ---- the same failures in an isolated compile (--isolate): the child's errors come back ----
bad "--isolate: syntax error" 1 "invalid LLVM IR" --isolate -f isa "$D/syntax.ll" -o "$OUT"
bad "--isolate: foreign intrinsic" 1 "belongs to another target" --isolate -f isa "$D/amdgcn_in_nvptx.ll" -o "$OUT"
good "--isolate: a good compile" "" --isolate -t "$AMDT" -f bin "$AMD" -o "$OUT"

tally cli_battery
