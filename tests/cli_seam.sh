#!/bin/sh
# The seam between the core and its backends: the core's implementation (the block under
# GPUCOMPILE_IMPLEMENTATION in gpucompile.h) names no vendor, target or toolkit outside its
# one built-in-backends section; vendor knowledge lives in the backend headers. And the backends
# use no core private, so each compiles in a translation unit of its own (tests/split, built by
# make test and make check-headers).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# the implementation block, without the built-in-backends section, as "LINE: text"
impl() {
    awk '/^#if defined\(GPUCOMPILE_IMPLEMENTATION\) && !defined\(GPUCOMPILE_IMPLEMENTED\)/ { on = 1 }
         /\[section: built-in backends\]/ { skip = 1 }
         on && !skip { print NR ": " $0 }
         /\[section: end of built-in backends\]/ { skip = 0 }
         /^#endif \/\* GPUCOMPILE_IMPLEMENTATION \*\// { on = 0 }' "$1"
}
# vendors, targets, toolkits, and the vendors' formats: cubin, hsaco, NVIDIA's image kinds and
# fatbin magic (the core's own format names, fatbin among them, are not a vendor's)
NAMES='(^|[^A-Za-z0-9])(nvptx|amdgpu|cuda|rocm|hip|nvvm|amdgcn|ptx|rocdl|gfx[0-9]|sm_[0-9]|cubin|hsaco|nvidia|amd|spir|opencl|xevm|vulkan|ftz|wave64)|IMG_(CUBIN|FATBIN|PTX)|x50.?xED'
impl "$ROOT/gpucompile.h" >"$T_TMP/impl"
n=$(wc -l <"$T_TMP/impl")
check "the implementation block is found ($n lines)" test "$n" -gt 1000
grep -i -E "$NAMES" "$T_TMP/impl" >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "vendor names in the core's implementation:"; sed 's/^/    /' "$T_TMP/hits"
else ok "no vendor name in the core's implementation outside the built-in-backends section"; fi
# gpucompile_runtime.h's shared section is compiled into the core too: the same rule there
awk '/^\/\* ==== \[section: shared\]/ { on = 1 } /^#endif \/\* shared \*\// { on = 0 } on { print NR ": " $0 }' "$ROOT/gpucompile_runtime.h" >"$T_TMP/shared"
n=$(wc -l <"$T_TMP/shared")
check "gpucompile_runtime.h's shared section is found ($n lines)" test "$n" -gt 100
grep -i -E "$NAMES" "$T_TMP/shared" >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "vendor names in gpucompile_runtime.h's shared section:"; sed 's/^/    /' "$T_TMP/hits"
else ok "no vendor name or vendor format in gpucompile_runtime.h's shared section"; fi
# the command line knows its backends through its includes only (--help, extensions and the
# default target come from the backend table)
cli_names() { grep -v '^#include "gpucompile_' "$1" | grep -n -i -E "$NAMES"; }
cli_names "$ROOT/tools/gpucompile.c" >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "vendor names in tools/gpucompile.c outside its includes:"; sed 's/^/    /' "$T_TMP/hits"
else ok "no vendor name in tools/gpucompile.c outside its includes"; fi
{ cat "$ROOT/tools/gpucompile.c"; echo '/* .hsaco */'; } >"$T_TMP/planted.c"
check "a vendor name planted in tools/gpucompile.c is found" test -n "$(cli_names "$T_TMP/planted.c")"
# the test itself can fail: a vendor name put into a copy of the core is found
for name in NVPTX SPIR-V OpenCL xevm Vulkan ftz wave64; do
    sed "s|^/\* ==== \[section: pipeline\]|/* $name */ &|" "$ROOT/gpucompile.h" >"$T_TMP/planted.h"
    impl "$T_TMP/planted.h" | grep -q -i -E "$NAMES"
    check "a vendor name planted in the pipeline section is found: $name" test $? -eq 0
done
# Platform code: every _WIN32 of gpucompile.h is in a platform section ([section: platform
# headers], [section: platform]); the other sections are portable C calling its functions.
outside_platform() {
    awk '/^\/\* ==== \[section: / { platform = /\[section: platform/ }
         !platform && /_WIN32/ { print NR ": " $0 }' "$1"
}
check "the platform sections hold _WIN32 code" grep -q _WIN32 "$ROOT/gpucompile.h"
outside_platform "$ROOT/gpucompile.h" >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "_WIN32 outside the platform sections of gpucompile.h:"; sed 's/^/    /' "$T_TMP/hits"
else ok "no _WIN32 outside the platform sections of gpucompile.h"; fi
# ... and can fail: a _WIN32 block planted into the jobs section is found
sed 's|^/\* ==== \[section: jobs\].*|&\n#if defined(_WIN32)\n#endif|' "$ROOT/gpucompile.h" >"$T_TMP/planted.h"
outside_platform "$T_TMP/planted.h" | grep -q _WIN32
check "a _WIN32 block planted in the jobs section is found" test $? -eq 0
for planted in 'return GPUCOMPILE__IMG_CUBIN;' 'if (memcmp(img, "\x50\xED\x55\xBA", 4) == 0) return 1;' '/* an hsaco */'; do
    printf '%s\n' "$planted" >"$T_TMP/line"
    sed "/^\/\* ==== \[section: pipeline\]/r $T_TMP/line" "$ROOT/gpucompile.h" >"$T_TMP/planted.h"
    impl "$T_TMP/planted.h" | grep -q -i -E "$NAMES"
    check "a vendor format planted in the pipeline section is found: $planted" test $? -eq 0
done
# the backends reach the core through its public API only (gpucompile.h [section: backend
# helpers]): no core private, gpucompile__name or GPUCOMPILE__NAME, in the backend headers or the
# example's backend (their own privates, gpucompile_nvptx__name and GPUCOMPILE_NVPTX__NAME, are
# theirs); tests/split builds each alone
privates() { grep -n -o -E '(^|[^A-Za-z0-9_])(gpucompile__[a-z][a-z0-9_]*|GPUCOMPILE__[A-Z][A-Z0-9_]*)' "$1" | sed 's/:[^gG]*\(gpucompile\|GPUCOMPILE\)/: \1/'; }
# The family's headers besides the core and its runtime companion (backends, the lowering), from
# the tree, so that a new header is held to these rules without editing this list
FAMILY=$(cd "$ROOT" && ls gpucompile_*.h | grep -v '^gpucompile_runtime\.h$')
check "the family's headers are found: $(echo $FAMILY)" test "$(echo "$FAMILY" | wc -l)" -ge 5
for h in $FAMILY examples/05_host_backend.h tests/toy_backend.h; do
    privates "$ROOT/$h" >"$T_TMP/priv"
    if [ -s "$T_TMP/priv" ]; then fail "$h uses core privates:"; sed 's/^/    /' "$T_TMP/priv" | head -20
    else ok "$h uses no core private"; fi
done
for planted in 'static void planted(void) { (void)gpucompile__which; }' '#define PLANTED GPUCOMPILE__OB_HEADER'; do
    { cat "$ROOT/gpucompile_amdgpu.h"; printf '%s\n' "$planted"; } >"$T_TMP/planted_amdgpu.h"
    check "a core private planted in a backend is found: $planted" test -n "$(privates "$T_TMP/planted_amdgpu.h")"
done
# One vendor runtime per program: two in one file stop at gpucompile_runtime.h's #error (each
# alone compiles); a header's implementation asked for without gpucompile.h stops too. The
# runtimes: the headers that define GPUCOMPILE_<NAME>_RUNTIME; the pairs go round them, so that
# each is once the first and once the second.
runtime_file() { # the runtime of each backend named, its header included after the #define
    for b in "$@"; do printf '#define GPUCOMPILE_%s_RUNTIME\n#include "gpucompile_%s.h"\n' "$b" "$(echo "$b" | tr A-Z a-z)"; done
}
RUNTIMES=
for h in $FAMILY; do
    b=${h#gpucompile_}; B=$(echo "${b%.h}" | tr a-z A-Z)
    grep -q "GPUCOMPILE_${B}_RUNTIME" "$ROOT/$h" && RUNTIMES="$RUNTIMES $B"
done
check "the vendor runtimes are found:$RUNTIMES" test "$(echo $RUNTIMES | wc -w)" -ge 4
set -- $RUNTIMES
PAIRS=; prev=$1; first=$1; shift
for b in "$@" "$first"; do PAIRS="$PAIRS $prev:$b"; prev=$b; done
for pair in $PAIRS; do
    set -- $(echo "$pair" | tr : ' ')
    runtime_file $1 >"$T_TMP/rt1.c"
    runtime_file $1 $2 >"$T_TMP/rt2.c"
    ${CC:-cc} -std=c11 -fsyntax-only -I"$ROOT" "$T_TMP/rt1.c" >"$T_TMP/err1" 2>&1; rc1=$?
    ${CC:-cc} -std=c11 -fsyntax-only -I"$ROOT" "$T_TMP/rt2.c" >"$T_TMP/err2" 2>&1; rc2=$?
    check "GPUCOMPILE_${1}_RUNTIME alone compiles, with GPUCOMPILE_${2}_RUNTIME it stops: one vendor runtime" \
        sh -c "[ $rc1 = 0 ] && [ $rc2 != 0 ] && grep -q 'a vendor runtime is already defined in this program' '$T_TMP/err2'"
done
for h in $FAMILY; do
    b=${h#gpucompile_}; B=$(echo "${b%.h}" | tr a-z A-Z)
    printf '#define GPUCOMPILE_%s_IMPLEMENTATION\n#include "%s"\n' "$B" "$h" >"$T_TMP/alone.c"
    ${CC:-cc} -std=c11 -fsyntax-only -I"$ROOT" "$T_TMP/alone.c" >"$T_TMP/err" 2>&1
    check "$h's implementation without gpucompile.h stops with #error" grep -q -E "#error.*gpucompile\.h (included )?first" "$T_TMP/err"
done
# Sections: every [section: X] that a comment names exists (a marker line in one of the
# headers), and gpucompile.h's table of contents lists the sections of its implementation in
# file order (as "       NAME" in a field of 18, then what it holds).
HEADERS=$(cd "$ROOT" && ls gpucompile*.h)
markers() { sed -n 's|^/\* ==== \[section: \([^]]*\)\].*|\1|p' "$@"; }
unknown_sections() { # the section names the files' comments name that no marker defines
    markers "$@" | sort -u >"$T_TMP/defined"
    grep -h -o '\[section: [^]]*\]' "$@" | sed 's/^\[section: \(.*\)\]$/\1/' | grep -v '^NAME$' | sort -u |
        comm -23 - "$T_TMP/defined"
}
toc_out_of_order() { # the implementation's sections missing from the TOC or listed out of order
    awk '/^#if defined\(GPUCOMPILE_IMPLEMENTATION\) && !defined\(GPUCOMPILE_IMPLEMENTED\)/ { on = 1 } on' "$1" |
        markers /dev/stdin | grep -v '^end of ' >"$T_TMP/impl_sections"
    awk '/^   Sections \(search for/ { on = 1; next } on && /^   [^ ]/ && /^   The shared helpers/ { exit } on' "$1" >"$T_TMP/toc"
    # a TOC entry: 7 spaces, the name in a field of 18
    awk 'substr($0, 1, 7) == "       " && substr($0, 8, 1) != " " { k = substr($0, 8, 18); sub(/ +$/, "", k); print k }' \
        "$T_TMP/toc" >"$T_TMP/toc_names"
    awk 'NR == FNR { at[$0] = FNR; next } { if (!($0 in at) || at[$0] <= last) print; else last = at[$0] }' \
        "$T_TMP/toc_names" "$T_TMP/impl_sections"
}
(cd "$ROOT" && unknown_sections $HEADERS) >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "comments name sections that do not exist:"; sed 's/^/    /' "$T_TMP/hits"
else ok "every [section: X] a comment names exists"; fi
toc_out_of_order "$ROOT/gpucompile.h" >"$T_TMP/hits"
ns=$(wc -l <"$T_TMP/impl_sections")
check "gpucompile.h's implementation has sections ($ns)" test "$ns" -gt 15
if [ -s "$T_TMP/hits" ]; then fail "gpucompile.h's table of contents lacks or misplaces:"; sed 's/^/    /' "$T_TMP/hits"
else ok "gpucompile.h's table of contents lists its $ns sections in file order"; fi
# ... and both can fail: a comment naming a section that does not exist, and two sections swapped
for h in $HEADERS; do cp "$ROOT/$h" "$T_TMP/"; done
sed -i 's|^/\* ==== \[section: jobs\].*|&\n/* see [section: no such place] */|' "$T_TMP/gpucompile.h"
check "a comment naming a missing section is found" test -n "$(cd "$T_TMP" && unknown_sections $HEADERS)"
sed 's|^/\* ==== \[section: jobs\]|/* ==== [section: objects]|; t; s|^/\* ==== \[section: objects\]|/* ==== [section: jobs]|' \
    "$ROOT/gpucompile.h" >"$T_TMP/swapped.h"
check "two sections out of the table of contents' order are found" test -n "$(toc_out_of_order "$T_TMP/swapped.h")"
# The pointer-kernel lowering is target-neutral: gpucompile_lower.h names no target's IR (Vulkan's
# intrinsics, handle types and attributes come from the target table gpucompile_vulkan.h fills)
target_names() { grep -n -i -E 'vulkan|hlsl|llvm\.spv|spirv\.|\bVk[A-Z]' "$1"; }
target_names "$ROOT/gpucompile_lower.h" >"$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then fail "gpucompile_lower.h names a target's IR outside its target table:"; sed 's/^/    /' "$T_TMP/hits"
else ok "gpucompile_lower.h names no target's IR (its emit points are the target table's)"; fi
check "gpucompile_vulkan.h fills the lowering's table with its names" grep -q '"llvm.spv.resource.getpointer"' "$ROOT/gpucompile_vulkan.h"
for planted in 's|w->t->barrier, NULL, 0)|"llvm.spv.group.memory.barrier.with.group.sync", NULL, 0)|' \
               's|w->t->entry_attribute, (unsigned)strlen(w->t->entry_attribute),|"hlsl.shader", 11,|' \
               's|LLVMPointerTypeInContext(w->ctx, w->t->buffer_space)|LLVMPointerTypeInContext(w->ctx, 11) /* Vulkan StorageBuffer */|'; do
    sed "$planted" "$ROOT/gpucompile_lower.h" >"$T_TMP/planted_lower.h"
    cmp -s "$ROOT/gpucompile_lower.h" "$T_TMP/planted_lower.h" && fail "the plant did not apply: $planted"
    check "a target's name planted in the lowering is found: $planted" test -n "$(target_names "$T_TMP/planted_lower.h")"
done
tally cli_seam
[ "$T_FAIL" -eq 0 ]
