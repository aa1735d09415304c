#!/bin/sh
# gpucompile --print-target: canonical text, exit codes, usage errors; and our canonical print
# against what mlir-opt prints for the same #nvvm.target / #rocdl.target attributes.
. "$(dirname "$0")/lib.sh"
OUT=$T_TMP/out; ERR=$T_TMP/err
# test names without backslashes (shorter to read; lib.sh prints names as they are)
name() { printf '%s' "$1" | tr -d '\\'; }

# (attribute texts go through printf '%s': sh's echo may read backslashes as escapes)
# prints ATTR EXPECTED: exit 0, EXPECTED on stdout, nothing on stderr
prints() {
  "$GPUCOMPILE" --print-target "$1" >"$OUT" 2>"$ERR"; rc=$?
  if [ $rc -eq 0 ] && [ "$(cat "$OUT")" = "$2" ] && [ ! -s "$ERR" ]; then ok "print $(name "$1")"
  else fail "print $(name "$1"): rc $rc, out '$(cat "$OUT")', err '$(cat "$ERR")', want '$2'"; fi
}
# refuses ATTR MESSAGE: exit 1, MESSAGE in stderr, nothing on stdout
refuses() {
  "$GPUCOMPILE" --print-target "$1" >"$OUT" 2>"$ERR"; rc=$?
  if [ $rc -eq 1 ] && [ ! -s "$OUT" ] && grep -qF -- "$2" "$ERR"; then ok "refuse $(name "$1")"
  else fail "refuse $1: rc $rc, out '$(cat "$OUT")', err '$(cat "$ERR")', want '$2'"; fi
}
# exits CODE ARGS...: exit status only
exits() {
  want=$1; shift
  "$GPUCOMPILE" "$@" >"$OUT" 2>"$ERR"; rc=$?
  if [ $rc -eq "$want" ]; then ok "exit $want: $*"; else fail "exit $want: $*: got $rc, err '$(cat "$ERR")'"; fi
}

prints '#gpu.nvptx<O = 3, chip = "sm_90", features = "+ptx80", flags = {fast, ftz}, link = ["libm.bc"]>' \
       '#gpu.nvptx<O = 3, chip = "sm_90", features = "+ptx80", flags = {fast, ftz}, link = ["libm.bc"]>'
prints '#gpu.amdgpu<chip = "gfx90a", abi = "400", flags = {daz, no_wave64}>' '#gpu.amdgpu<chip = "gfx90a", abi = "400", flags = {daz, no_wave64}>'
prints '#gpu.nvptx' '#gpu.nvptx'
prints '#gpu.nvptx<>' '#gpu.nvptx'
prints '  #nvvm.target< flags={ftz,fast} ,O=2, chip="sm_50" >' '#nvvm.target<flags = {fast, ftz}>'
# #rocdl.target's defaults are MLIR's of the same LLVM (abi "600" from 22); #gpu.amdgpu keeps "500"
if [ "${T_LLVM_MAJOR:-0}" -ge 22 ]; then
  prints '#rocdl.target<abi = "500", chip = "gfx942:sramecc-:xnack+", O = 0x1>' '#rocdl.target<O = 1, chip = "gfx942:sramecc-:xnack+", abi = "500">'
  prints '#rocdl.target<abi = "600">' '#rocdl.target'
else
  prints '#rocdl.target<abi = "500", chip = "gfx942:sramecc-:xnack+", O = 0x1>' '#rocdl.target<O = 1, chip = "gfx942:sramecc-:xnack+">'
  prints '#rocdl.target<abi = "600">' '#rocdl.target<abi = "600">'
fi
prints '#gpu.amdgpu<abi = "500">' '#gpu.amdgpu'
prints '#gpu.amdgpu<abi = "600">' '#gpu.amdgpu<abi = "600">'
# flags with values (MLIR's flags are a dictionary): printed as mlir-opt prints them
prints '#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["-v"]}>' '#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["-v"]}>'
prints '#gpu.nvptx<flags = {n = 0x10, u = unit, fast, a = [1, 2 : i32, "x"], b = false}>' '#gpu.nvptx<flags = {a = [1, 2 : i32, "x"], b = false, fast, n = 16 : i64, u}>'
refuses '#gpu.nvptx<flags = {a = 1.5}>' "column 25: expected an integer in a flag's value (floats are not read)"
refuses '#gpu.nvptx<flags = {a = 300 : i8}>' "integer value out of range for i8"
refuses '#gpu.nvptx<flags = {a = @f}>' "expected a flag value"
refuses '#gpu.nvptx<flags = {a = [1}>' "expected ',' or ']' in a flag's value"
prints '#gpu.nvptx<link = ["a\"b\\c\0Ad"]>' '#gpu.nvptx<link = ["a\22b\\c\0Ad"]>'

# a long text (over 8 KiB) comes out whole
long=$(i=0; printf '#gpu.nvptx<link = ["lib0.bc"'; while [ $i -lt 700 ]; do i=$((i+1)); printf ', "/some/dir/lib%d.bc"' $i; done; printf ']>')
prints "$long" "$long"

refuses '#gpu.nvptx<chip = "sm_999">' "The chip 'sm_999' is not supported by LLVM"
refuses '#gpu.amdgpu<chip = "gfx9999">' "The chip 'gfx9999' is not supported by LLVM"
refuses '#gpu.nvptx<O = 4>' 'The optimization level must be a number between 0 and 3.'
refuses '#gpu.nvptx<triple = "">' 'The target triple cannot be empty.'
refuses '#gpu.nvptx<chip = "">' 'The target chip cannot be empty.'
refuses '#gpu.amdgpu<abi = "700">' "Invalid ABI version, it must be \`400\`, \`500\` or '600'."
refuses '#gpu.amdgpu<chip = "gfx11-generic">' 'needs code object version 6: abi = "600"'
prints '#gpu.amdgpu<chip = "gfx11-generic", abi = "600">' '#gpu.amdgpu<chip = "gfx11-generic", abi = "600">'
refuses '#gpu.nvptx<link = [1]>' 'All the elements in the `link` array must be strings.'
refuses '#gpu.nvptx<chip "sm_90">' "column 17: expected '=' after parameter name 'chip'"
refuses '#gpu.nvptx<foo = 1>' "column 12: unknown parameter 'foo' for #gpu.nvptx"
refuses '#gpu.nvptx<O = 99999999999999999999>' "integer value too large for 'O'"
refuses '#gpu.nvptx<chip = "sm_90"' "expected ',' or '>'"
refuses '' "column 1: expected '#'"

exits 2 --print-target
exits 2 --no-such-option
exits 2 -t
exits 0 --help
exits 0 --version
"$GPUCOMPILE" --help 2>/dev/null | grep -q -- '--print-target' && ok "help names --print-target" || fail "help names --print-target"
"$GPUCOMPILE" --version 2>/dev/null | grep -q 'LLVM' && ok "version names LLVM" || fail "version names LLVM"

# Differential: mlir-opt reads each attribute on a gpu.module and prints it back (flags sorted,
# defaults dropped); our canonical print must be the same text. mlir-opt verifies no chip: all
# the chips here are ones we accept. (MLIR prints flags = {} and link = [], we drop them: not
# compared.)
MLIR_OPT=$(command -v mlir-opt || true)
if [ -z "$MLIR_OPT" ]; then skip "differential: mlir-opt not found"; tally cli_target; exit 0; fi
cat > "$T_TMP/attrs" <<'EOF'
#nvvm.target
#nvvm.target<>
#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "+ptx60">
#nvvm.target<chip = "sm_90", O = 3, features = "+ptx80", flags = {ftz, fast}, link = ["libm.bc"]>
#nvvm.target<O = 0, triple = "nvptx-nvidia-cuda", chip = "sm_90a", features = "", link = ["a.bc", "b c.bc", "q\"\\\0A\09\C3\A9"]>
#nvvm.target<flags = {"z-z", fast, "9x", a.b$c, "ftz"}>
#nvvm.target<O = 1>
#nvvm.target<chip = "sm_90", flags = {"ptxas-cmd-options" = ["-v"]}>
#nvvm.target<flags = {ftz, "ptxas-cmd-options" = ["-v", "-O3", "--maxrregcount=32"], fast}>
#nvvm.target<flags = {a = 1 : i32, b = "x\22y", c = true, d, z = 0x10, y = -5, w = [1, [true, "q", 2 : i32, 3 : i64]], u = unit, e = [], f = false}>
#rocdl.target
#rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", features = "", abi = "500">
#rocdl.target<chip = "gfx90a", abi = "400", flags = {no_wave64, daz}>
#rocdl.target<abi = "400", O = 3, chip = "gfx942:sramecc-:xnack+", features = "+wavefrontsize64", link = ["ocml.bc", "ockl.bc"], flags = {unsafe_math, finite_only, daz}>
#rocdl.target<triple = "amdgcn-amd-amdpal", chip = "gfx1100", features = "+wavefrontsize32">
#rocdl.target<abi = "600">
#rocdl.target<chip = "gfx11-generic", abi = "600">
#rocdl.target<abi = "500", chip = "gfx90a">
EOF
# MLIR 22's further parameters: #nvvm.target's verifyTarget (a bool, printed only when false),
# and #xevm.target's (no features, linkFiles for link), every one of them
if "$MLIR_OPT" --version | grep -q 'version 2[2-9]'; then
  cat >> "$T_TMP/attrs" <<'EOF'
#nvvm.target<verifyTarget = false>
#nvvm.target<verifyTarget = true, chip = "sm_90">
#nvvm.target<link = ["a.bc"], verifyTarget = false, O = 3, flags = {fast}, features = "+ptx80", triple = "nvptx64-nvidia-cuda", chip = "sm_80">
#xevm.target<linkFiles = ["a.bc"], flags = {fast}, O = 3, triple = "spirv64-unknown-unknown", chip = "pvc">
EOF
fi
{
  echo 'module attributes {gpu.container_module} {'
  i=0; while IFS= read -r a; do printf 'gpu.module @m%d [%s] {}\n' "$i" "$a"; i=$((i+1)); done < "$T_TMP/attrs"
  echo '}'
} > "$T_TMP/in.mlir"
if ! "$MLIR_OPT" "$T_TMP/in.mlir" > "$T_TMP/mlir.out" 2>"$ERR"; then
  fail "differential: mlir-opt failed: $(cat "$ERR")"
else
  sed -n 's/^ *gpu\.module @m[0-9]* \[\(.*\)\] *{.*$/\1/p' "$T_TMP/mlir.out" > "$T_TMP/mlir.attrs"
  i=0
  while IFS= read -r a; do
    i=$((i+1))
    want=$(sed -n "${i}p" "$T_TMP/mlir.attrs")
    got=$("$GPUCOMPILE" --print-target "$a" 2>&1)
    if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "same as mlir-opt: $(name "$want")"
    else fail "differential: '$(name "$a")': mlir-opt '$(name "$want")', we '$(name "$got")'"; fi
  done < "$T_TMP/attrs"
  [ "$i" -eq "$(wc -l < "$T_TMP/mlir.attrs")" ] && ok "mlir-opt printed every attribute" || fail "mlir-opt printed $(wc -l < "$T_TMP/mlir.attrs") of $i"
fi
# MLIR's lexical rules (one lexer for target and gpu.binary text): a comment, a raw CR, raw
# control and non-ASCII bytes and hex escapes in strings, a quoted flag name with a value, read
# and printed as mlir-opt does; a raw VT in a string is refused by both.
a=$(printf '#nvvm.target<chip = "sm_90", // the chip\n  link = ["a\rb\001\303\251.bc", "q\\"\\\\\\0a\\7F\\c3"], flags = {"x\\22y" = "\\5C", f}>')
printf 'module attributes {gpu.container_module} {\ngpu.module @m [%s] {}\n}\n' "$a" > "$T_TMP/lex.mlir"
want=$("$MLIR_OPT" "$T_TMP/lex.mlir" 2>"$ERR" | sed -n 's/^ *gpu\.module @m \[\(.*\)\] *{.*$/\1/p')
got=$("$GPUCOMPILE" --print-target "$a" 2>&1)
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "lexer: comment, raw bytes and escapes as mlir-opt: $(name "$want")"
else fail "lexer: mlir-opt '$(name "$want")', we '$(name "$got")' $(cat "$ERR")"; fi
a=$(printf '#nvvm.target<chip = "sm\v90">')
printf 'module attributes {gpu.container_module} {\ngpu.module @m [%s] {}\n}\n' "$a" > "$T_TMP/lex.mlir"
"$MLIR_OPT" "$T_TMP/lex.mlir" >/dev/null 2>&1; theirs=$?
"$GPUCOMPILE" --print-target "$a" >/dev/null 2>"$ERR"; ours=$?
if [ "$theirs" -ne 0 ] && [ "$ours" -eq 1 ] && grep -q "column 24: expected '\"' to close the string that starts at column 21 (found byte 0x0B)" "$ERR"; then
  ok "lexer: a raw VT in a string is refused, as mlir-opt refuses it"
else fail "lexer: raw VT: mlir-opt exit $theirs, we exit $ours: $(cat "$ERR")"; fi
# What mlir-opt's --nvvm-attach-target writes for ptxas options (MLIR 22: a flag with a value)
# parses, and prints as mlir-opt prints it.
if "$MLIR_OPT" --help 2>/dev/null | grep -q -- '--ptxas-cmd-options'; then
  echo 'module attributes {gpu.container_module} { gpu.module @m { } }' > "$T_TMP/attach.mlir"
  want=$("$MLIR_OPT" --nvvm-attach-target="chip=sm_90 ptxas-cmd-options=-v O=3 fast" "$T_TMP/attach.mlir" 2>"$ERR" |
         sed -n 's/^ *gpu\.module @m \[\(.*\)\] *{.*$/\1/p')
  got=$("$GPUCOMPILE" --print-target "$want" 2>&1)
  if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "nvvm-attach-target's ptxas-cmd-options: $(name "$want")"
  else fail "nvvm-attach-target: mlir-opt '$(name "$want")', we '$(name "$got")' $(cat "$ERR")"; fi
fi
tally cli_target
