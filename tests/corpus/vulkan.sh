#!/usr/bin/env bash
# The corpus' OpenCL kernels for Vulkan (docs/vulkan-pointer-kernels.md has the counts): each
# file of darktable and silx, pyFAI's files of packages.txt and its hashcat modules, fetched by
# corpus.sh into its cache, compiled with the flags their applications use, two ways:
#   O0: clang (the LLVM's of BUILD's gpucompile, first on PATH) for spirv64 at -O0, then the
#       Vulkan backend's way (build/tests/test_vulkan_ptr --compile-optimize: helpers inlined,
#       -O2 for the Vulkan target, the pointer-kernel rewrite, LLVM's SPIR-V code generator);
#   O2: as a user runs it: clang -target spirv64 -O2, then gpucompile -t '#gpu.vulkan' -f bin.
# Each module written is checked with spirv-val --target-env vulkan1.3. One line per module and
# recipe: OK|INVALID|REFUSED|CRASH|LIBRARY|CLANG, the recipe, the module, the first error
# (LIBRARY: no kernel, helpers that the application prepends to other files), a module whose
# kernels take images or samplers named "NAME (images)";
# then per package and recipe the counts, and the refusals counted by reason.
# Usage: vulkan.sh [--recipe O0|O2] [--only TEXT] [--keep DIR] [BUILD]. --keep: each valid
# module into DIR as PACKAGE_MODULE.RECIPE.ll (clang's output) and .RECIPE.vk.spv (tests/run/corpus.sh
# runs their kernels). Exit 0, or 77 when the cache or the tools are missing.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RECIPES="O0 O2" ONLY="" KEEP=""
while [ $# -gt 0 ]; do
  case $1 in
  --recipe) RECIPES=$2; shift 2 ;;
  --only) ONLY=$2; shift 2 ;;
  --keep) KEEP=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
  *) break ;;
  esac
done
BUILD=${1:-$HERE/../../build}
CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd)
T=$BUILD/tests/test_vulkan_ptr G=$BUILD/gpucompile
# the LLVM of BUILD's gpucompile: its bin directory first on PATH (clang by its plain name)
LLVM_MAJOR=$("$G" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
LLVM_BIN=$(llvm-config-"$LLVM_MAJOR" --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null)
[ -n "$LLVM_BIN" ] && PATH=$LLVM_BIN:$PATH && export PATH
for tool in clang spirv-val; do command -v $tool >/dev/null || { echo "vulkan corpus: no $tool"; exit 77; }; done
[ -x "$G" ] || { echo "vulkan corpus: no $G"; exit 77; }
case $RECIPES in *O0*) [ -x "$T" ] || { echo "vulkan corpus: no $T (make $T)"; exit 77; } ;; esac
[ -d "$CACHE/darktable" ] || { echo "vulkan corpus: no cache at $CACHE (tests/corpus/corpus.sh fetches it)"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir "$W/shim" && : > "$W/shim/for_eclipse.h" # pyFAI's editor helper, not shipped (corpus.sh's shim)
# spirv-val's verdict on $W/o.spv, or the refusal or crash of the command that wrote it
verdict() { # RC LOG RECIPE NAME
  if [ "$1" -gt 1 ]; then echo "CRASH|$3|$4|status $1"
  elif grep -q 'compiler process died' "$2"; then echo "CRASH|$3|$4|$(grep -m1 error "$2")" # the CLI's worker
  elif [ "$1" = 1 ]; then echo "REFUSED|$3|$4|$(grep -m1 error "$2" | sed 's/^gpucompile: //' | cut -c1-400)"
  elif spirv-val --target-env vulkan1.3 "$W/o.spv" >"$W/val" 2>&1; then echo "OK|$3|$4|"
  else echo "INVALID|$3|$4|$(head -1 "$W/val")"; fi
}
one() { # NAME FILE FLAGS...
  n=$1 f=$2; shift 2
  case $n in *$ONLY*) ;; *) return ;; esac
  for r in $RECIPES; do
    ll=$W/$(echo "$n" | tr / _).$r.ll
    rm -f "$W/o.spv"
    if [ $r = O0 ]; then opt="-O0 -Xclang -disable-O0-optnone"; else opt=-O2; fi
    # shellcheck disable=SC2086
    if ! clang -cl-std=CL2.0 -target spirv64 $opt -Xclang -finclude-default-header -emit-llvm -S "$@" "$f" -o "$ll" >"$W/err" 2>&1; then
      echo "CLANG|$r|$n|$(grep -m1 error: "$W/err")"; continue
    fi
    # a file of helpers that its application prepends to others (silx's kahan.cl, doubleword.cl)
    if ! grep -q '^define spir_kernel' "$ll"; then echo "LIBRARY|$r|$n|"; continue; fi
    img=; grep -q '^define spir_kernel .*target("spirv\.\(Image\|Sampler\)' "$ll" && img=" (images)"
    if [ $r = O0 ]; then timeout 300 "$T" --compile-optimize "$ll" "$W/o.spv" >"$W/log" 2>&1
    else timeout 300 "$G" --no-cache -t '#gpu.vulkan' -f bin "$ll" -o "$W/o.spv" >"$W/log" 2>&1; fi
    v=$(verdict $? "$W/log" $r "$n$img")
    echo "$v"
    case $KEEP/$v in ?*/OK*) b=$KEEP/$(echo "$n" | tr / _).$r; cp "$ll" "$b.ll" && cp "$W/o.spv" "$b.vk.spv" ;; esac
  done
}
{
  D=$CACHE/darktable/usr/share/darktable/kernels
  for f in "$D"/*.cl; do one "darktable/$(basename "$f" .cl)" "$f" -cl-fast-relaxed-math -I "$D" -DAMD=1; done
  S=$(dirname "$(find "$CACHE/python3-silx" -name convolution.cl | head -1)")
  for f in $(find "$S" -name '*.cl' | sort); do one "silx/$(basename "$f" .cl)" "$f" -I "$W/shim"; done
  # pyFAI prepends silx's doubleword.cl and its own kahan.cl and passes the sizes (corpus.sh's pkg_flags)
  P=$CACHE/python3-pyfai/$(awk '$1 == "python3-pyfai" { print $2 }' "$HERE/packages.txt")
  for b in $(awk '$1 == "python3-pyfai" { $1 = $2 = ""; print }' "$HERE/packages.txt"); do
    one "pyfai/$(basename "$b" .cl)" "$P/$b" -I "$W/shim" -include "$S/doubleword.cl" -include "$P/kahan.cl" \
      -D NBINS=1000 -D NIMAGE=4096 -D WORKGROUP_SIZE=32 -D NLUT=16 -D ON_CPU=0
  done
  H=$CACHE/hashcat-data/usr/share/hashcat/OpenCL
  for m in shared amp_a3 markov_le markov_be m00000_a3-pure m00100_a0-optimized m01000_a3-optimized m22000-pure; do
    (cd "$H" && one "hashcat/$m" "$H/$m.cl" -D KERNEL_STATIC -D INCLUDE_PATH=. '-D XM2S(x)=#x' '-D M2S(x)=XM2S(x)' -D LOCAL_MEM_TYPE=1 \
      -D DEVICE_TYPE=4 -D VECT_SIZE=1 -D DGST_R0=0 -D DGST_R1=3 -D DGST_R2=2 -D DGST_R3=1 -D DGST_ELEM=4 -D KERN_TYPE=0 \
      -D ATTACK_EXEC=11 -D ATTACK_KERN=0 -D _unroll -D VENDOR_ID=1 -I "$H")
  done
} | tee "$W/results"
# per package and recipe: the counts; then the refusals by reason (names of functions and
# values, the text in quotes, taken out)
echo "package recipe: counts"
awk -F'|' '{ split($3, p, "/"); k = p[1] " " $2; c[k, $1]++; keys[k] = 1 }
  END { for (k in keys) { s = k ":"; n = split("OK INVALID REFUSED CRASH LIBRARY CLANG", st, " ")
        for (i = 1; i <= n; i++) if (c[k, st[i]]) s = s " " st[i] " " c[k, st[i]]; print s } }' "$W/results" | sort
echo "refusals by reason:"
awk -F'|' '$1 == "REFUSED" { r = $4; gsub(/'"'"'[^'"'"']*'"'"'|"[^"]*"|@[A-Za-z0-9_.]+|%[A-Za-z0-9_.]+|[0-9]+/, "_", r); print $2 ": " substr(r, 1, 140) }' "$W/results" | sort | uniq -c | sort -rn
