#!/bin/sh
# The documentation stays true: every relative link of README.md, docs/*.md and bench/README.md
# resolves (the file, and a #anchor to one of its headings, as GitHub names them); the README's
# C example compiles and its command-line example runs as written; gpucompile.h's first screen
# names every header of the family and the examples there are; and README, docs, tests,
# the Makefile and bench/ point at nothing outside the repository (no issue numbers or notes kept
# elsewhere: a fact is in the repository or is not cited); and tests/ names LLVM's tools without a
# version number (the LLVM in use's are first on PATH).
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
DOCS="README.md bench/README.md $(ls docs/*.md)"

# anchors FILE: the GitHub anchor of each heading of FILE (fenced code left out), one a line
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
    tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
# links FILE: its relative link targets (outside code), one a line
links() {
  awk '/^```/ { code = !code; next } !code' "$1" | sed 's/`[^`]*`//g' |
    grep -oE '\]\([^)]+\)' | sed 's/^](//; s/)$//' | grep -vE '^(https?|mailto):'
}
n=0
for f in $DOCS; do
  for l in $(links "$f"); do
    n=$((n+1))
    path=${l%%#*}; frag=; case "$l" in *'#'*) frag=${l#*#} ;; esac
    if [ -n "$path" ]; then target=$(dirname "$f")/$path; else target=$f; fi
    if [ ! -e "$target" ]; then fail "$f: the link '$l' names no file ($target)"; continue; fi
    if [ -n "$frag" ] && ! anchors "$target" | grep -qxF -- "$frag"; then
      fail "$f: the link '$l': $target has no heading with that anchor"; continue
    fi
  done
done
check "README and docs have relative links ($n, each checked above: a broken one is named)" test "$n" -gt 10

# every docs/ page is linked from the README
for f in docs/*.md; do
  check "README links $f" grep -qF "($f)" README.md
done

# the README's C example (the first ```c block) compiles as it is
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' README.md > "$T_TMP/readme.c"
LLVM_CFLAGS=$(llvm-config-"$T_LLVM_MAJOR" --cflags 2>/dev/null || llvm-config --cflags 2>/dev/null)
check "the README's C example compiles" cc -std=c11 -Wall -Wextra -pedantic -Werror $LLVM_CFLAGS -I. -c "$T_TMP/readme.c" -o "$T_TMP/readme.o"

# the README's command-line example (the ```sh block that sets G=) runs as written
awk '/^```sh$/ { on = 1; b = ""; next } /^```$/ && on { on = 0; if (b ~ /\nG=|^G=/) { printf "%s", b; exit } } on { b = b $0 "\n" }' README.md > "$T_TMP/readme.sh"
check "the README has a command-line example" grep -q '^G=' "$T_TMP/readme.sh"
if [ -z "$HAVE_CUDA" ]; then
  skip "the README's command-line example makes cubins: no CUDA toolkit at $T_CUDA"
else
  mkdir -p "$T_TMP/ex/build"
  ln -s "$PWD/examples" "$T_TMP/ex/examples"
  case "$GPUCOMPILE" in /*) G_ABS=$GPUCOMPILE ;; *) G_ABS=$PWD/$GPUCOMPILE ;; esac
  ln -s "$G_ABS" "$T_TMP/ex/build/gpucompile"
  check "the README's command-line example runs" sh -ec "cd '$T_TMP/ex' && . ./../readme.sh"
  for o in saxpy.ptx saxpy.cubin saxpy.hsaco saxpy.gpubin saxpy.mlir saxpy_host.ll; do
    check "... and writes $o" test -s "$T_TMP/ex/$o"
  done
  check "... whose host module defines saxpy_saxpy_launch, as it says" grep -q 'define.*@saxpy_saxpy_launch' "$T_TMP/ex/saxpy_host.ll"
fi

# gpucompile.h's first screen (its opening comment) knows the family: it names every
# gpucompile_*.h in the tree, and the example range it names ("examples/01_*.c ... NN_*.c") ends
# at the number of numbered examples (examples/[0-9][0-9]_*.c)
first_screen() { awk '{ print } /\*\// { exit }' "$1"; }
unnamed_headers() { # HEADER DIR: the gpucompile_*.h of DIR that HEADER's first screen does not name
    first_screen "$1" >"$T_TMP/first"
    for h in $(cd "$2" && ls gpucompile_*.h); do grep -qF "$h" "$T_TMP/first" || echo "$h"; done
}
examples_named() { # HEADER: the NN of the first screen's "examples/01_*.c ... NN_*.c"
    first_screen "$1" | tr -s ' \n' '  ' | sed -n 's|.*examples/01_\*\.c \.\.\. \([0-9][0-9]\)_\*\.c.*|\1|p'
}
examples_wrong() { # HEADER DIR: "named NN, DIR has M" when they differ (or none is named)
    named=$(examples_named "$1"); have=$(cd "$2" && ls examples/[0-9][0-9]_*.c | wc -l)
    [ -n "$named" ] && [ "$((10#$named))" -eq "$have" ] || echo "the first screen names examples up to ${named:-none}; there are $have"
}
unnamed_headers gpucompile.h . >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "gpucompile.h's first screen does not name: $(echo $(cat "$T_TMP/hits"))"
else ok "gpucompile.h's first screen names every gpucompile_*.h ($(echo $(ls gpucompile_*.h)))"; fi
wrong=$(examples_wrong gpucompile.h .)
check "gpucompile.h's first screen names the examples there are (${wrong:-$(ls examples/[0-9][0-9]_*.c | wc -l)})" test -z "$wrong"
readme_wrong() { # README DIR: "names NN, DIR has M" when the README's "(01 to NN)" differs
    named=$(sed -n 's/.*numbered programs (01 to \([0-9][0-9]\)).*/\1/p' "$1"); have=$(cd "$2" && ls examples/[0-9][0-9]_*.c | wc -l)
    [ -n "$named" ] && [ "$((10#$named))" -eq "$have" ] || echo "the README names examples up to ${named:-none}; there are $have"
}
wrong=$(readme_wrong README.md .)
check "the README names the examples there are${wrong:+ ($wrong)}" test -z "$wrong"
# ... and each can fail: a header and an example added to a copy of the tree, and a header a
# copy of gpucompile.h no longer names
mkdir -p "$T_TMP/tree/examples"
for f in gpucompile_*.h examples/[0-9][0-9]_*.c; do : >"$T_TMP/tree/$f"; done
: >"$T_TMP/tree/gpucompile_planted.h"; : >"$T_TMP/tree/examples/99_planted.c"
check "a header the first screen does not name is found" test "$(unnamed_headers gpucompile.h "$T_TMP/tree")" = gpucompile_planted.h
check "an example beyond the range the first screen names is found" test -n "$(examples_wrong gpucompile.h "$T_TMP/tree")"
check "an example beyond the range the README names is found" test -n "$(readme_wrong README.md "$T_TMP/tree")"
awk '{ if (!done) gsub(/gpucompile_lower\.h/, "gpucompile_lowering.h"); print } /\*\// { done = 1 }' gpucompile.h >"$T_TMP/planted.h"
check "a header dropped from a copy of the first screen is found" test "$(unnamed_headers "$T_TMP/planted.h" .)" = gpucompile_lower.h

# nothing points outside the repository (this script names the patterns, so it is left out)
grep -rnE 'issue [0-9]|\(issue|[Tt]he seed|seed'"'"'s|seed spelling|\.\./shared|shared/(REVIEW|FACTS|DESIGN|STYLE)|FACTS' \
  README.md docs Makefile bench tests examples tools ./*.h 2>/dev/null | grep -v '^tests/cli_docs.sh:' > "$T_TMP/outside"
if [ -s "$T_TMP/outside" ]; then fail "references outside the repository in the headers, CLI, examples, README, docs, tests, Makefile, bench" "$T_TMP/outside"
else ok "no references outside the repository in the headers, CLI, examples, README, docs, tests, Makefile, bench"; fi
# tests/ names LLVM's tools by their plain names (llc, clang, mlir-opt, ld.lld, llvm-readelf, ...):
# make test, lib.sh and corpus.sh put the bin directory of the LLVM in use first on PATH, so a
# test's oracle follows that LLVM on any machine with it alone. Refused anywhere in tests/ (code,
# comments, data): a tool with a version number (`llc-<N>`, `clang-<N>`, `llvm-config-<N>`).
# Allowed: a version built from the variable that names the LLVM in use (`llvm-config-"$T_LLVM_MAJOR"`,
# `clang-$LLVM_MAJOR`), a version in words (`clang 19`, `MLIR 22's mlir-opt`), and package names
# (`libclc-19`, `llvm-22-dev`, `mlir-22-tools`).
TOOLS='llc|opt|lli|clang|clang\+\+|clang-(cpp|cl|offload-packager|offload-bundler|linker-wrapper|nvlink-wrapper)'
TOOLS="$TOOLS|mlir-[a-z][a-z-]*|llvm-[a-z][a-z-]*|ld\.lld|ld64\.lld|lld|lld-link|FileCheck|amdgpu-arch|nvptx-arch"
versioned() { # DIR: each line of DIR's text files with a versioned tool name
  grep -rInE "(^|[^A-Za-z0-9_.+-])($TOOLS)-[0-9]+([^A-Za-z0-9_]|\$)" "$1"
}
mkdir -p "$T_TMP/plant/tests"
v=$(printf '%s' 19)   # the planted names are put together here, so this file holds none
printf 'llc-%s -O2 k.ll\n# made with clang++-%s\n' "$v" "$v" > "$T_TMP/plant/tests/bad.sh"
printf '%s\n' 'llvm-config-"$T_LLVM_MAJOR" --bindir' 'clang-$LLVM_MAJOR' "# clang $v, MLIR 22's mlir-opt" "libclc-$v llvm-$v-dev mlir-$v-tools" \
  > "$T_TMP/plant/tests/good.sh"
versioned "$T_TMP/plant/tests" > "$T_TMP/planted"
check "a versioned tool name is found where planted (llc-N, clang++-N), nothing else" \
  sh -c "[ \$(wc -l < '$T_TMP/planted') = 2 ] && grep -q 'bad.sh:1:llc-' '$T_TMP/planted' && grep -q 'bad.sh:2:.*clang++-' '$T_TMP/planted'"
versioned tests > "$T_TMP/versioned"
if [ -s "$T_TMP/versioned" ]; then fail "versioned LLVM tool names in tests/ (use the plain name: the LLVM in use's is first on PATH)" "$T_TMP/versioned"
else ok "no versioned LLVM tool name in tests/ (the LLVM in use's tools by their plain names)"; fi
tally cli_docs
