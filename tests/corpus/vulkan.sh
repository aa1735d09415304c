#!/usr/bin/env bash
# The corpus' OpenCL kernels for Vulkan (docs/vulkan-pointer-kernels.md has the counts): each
# file of darktable, silx and the hashcat modules of packages.txt, fetched by corpus.sh into its
# cache, compiled by clang (the LLVM's of BUILD's gpucompile, first on PATH) for spirv64 at -O0 with the flags their applications use, then the
# Vulkan backend's way (build/tests/test_vulkan_ptr --compile-optimize: helpers inlined, -O2 for
# the Vulkan target, the pointer-kernel rewrite, LLVM's SPIR-V code generator), and each module
# written is checked with spirv-val --target-env vulkan1.3. One line per module:
# OK|INVALID|REFUSED|CRASH|CLANG, the module, the first error; the counts at the end.
# Usage: vulkan.sh [BUILD]. Exit 0, or 77 when the cache or the tools are missing.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../../build}
CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
T=$(cd "$BUILD" 2>/dev/null && pwd)/tests/test_vulkan_ptr
# the LLVM of BUILD's gpucompile: its bin directory first on PATH (clang by its plain name)
LLVM_MAJOR=$("$BUILD/gpucompile" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
LLVM_BIN=$(llvm-config-"$LLVM_MAJOR" --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null)
[ -n "$LLVM_BIN" ] && PATH=$LLVM_BIN:$PATH && export PATH
for tool in clang spirv-val; do command -v $tool >/dev/null || { echo "vulkan corpus: no $tool"; exit 77; }; done
[ -x "$T" ] || { echo "vulkan corpus: no $T (make $T)"; exit 77; }
[ -d "$CACHE/darktable" ] || { echo "vulkan corpus: no cache at $CACHE (tests/corpus/corpus.sh fetches it)"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
one() { # NAME FILE FLAGS...
  n=$1 f=$2; shift 2
  ll=$W/$(echo "$n" | tr / _).ll
  if ! clang -cl-std=CL2.0 -target spirv64 -O0 -Xclang -disable-O0-optnone -Xclang -finclude-default-header -emit-llvm -S "$@" "$f" -o "$ll" >"$W/err" 2>&1; then
    echo "CLANG|$n|$(grep -m1 error: "$W/err")"; return
  fi
  timeout 300 "$T" --compile-optimize "$ll" "$W/o.spv" >"$W/log" 2>&1; rc=$?
  if [ $rc -gt 1 ]; then echo "CRASH|$n|status $rc"
  elif [ $rc = 1 ]; then echo "REFUSED|$n|$(grep -m1 error "$W/log" | cut -c1-400)"
  elif spirv-val --target-env vulkan1.3 "$W/o.spv" >"$W/val" 2>&1; then echo "OK|$n|"
  else echo "INVALID|$n|$(head -1 "$W/val")"; fi
  rm -f "$W/o.spv"
}
{
  D=$CACHE/darktable/usr/share/darktable/kernels
  for f in "$D"/*.cl; do one "darktable/$(basename "$f" .cl)" "$f" -cl-fast-relaxed-math -I "$D" -DAMD=1; done
  S=$(dirname "$(find "$CACHE/python3-silx" -name convolution.cl | head -1)")
  for f in $(find "$S" -name '*.cl' | sort); do one "silx/$(basename "$f" .cl)" "$f"; done
  H=$CACHE/hashcat-data/usr/share/hashcat/OpenCL
  for m in shared amp_a3 markov_le markov_be m00000_a3-pure m00100_a0-optimized m01000_a3-optimized m22000-pure; do
    (cd "$H" && one "hashcat/$m" "$H/$m.cl" -D KERNEL_STATIC -D INCLUDE_PATH=. '-D XM2S(x)=#x' '-D M2S(x)=XM2S(x)' -D LOCAL_MEM_TYPE=1 \
      -D DEVICE_TYPE=4 -D VECT_SIZE=1 -D DGST_R0=0 -D DGST_R1=3 -D DGST_R2=2 -D DGST_R3=1 -D DGST_ELEM=4 -D KERN_TYPE=0 \
      -D ATTACK_EXEC=11 -D ATTACK_KERN=0 -D _unroll -D VENDOR_ID=1 -I "$H")
  done
} | tee "$W/results"
cut -d'|' -f1 "$W/results" | sort | uniq -c
