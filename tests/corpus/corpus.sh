#!/usr/bin/env bash
# The real-kernel corpus test. OpenCL C kernels from Debian packages (packages.txt, fetched at
# test time, never installed) are compiled by clang to LLVM IR for NVPTX and AMDGPU; so are
# the CUDA C++ (cuda/*.cu, NVPTX) and HIP C++ (hip/*.hip, AMDGPU) driver files of this
# directory, which instantiate the templates of header libraries from Debian packages. Each
# module then goes through gpucompile and through LLVM's own chain on the same IR with the
# same libraries (llvm-link --only-needed, opt -O2, llc, then ptxas / ld.lld). clang and that
# chain are the LLVM's that gpucompile runs on (its --bindir first on PATH). Where the
# reference succeeds, gpucompile must too, its PTX must pass ptxas, its assembly must pass
# llvm-mc, its cubin / hsaco must hold the same kernels (an hsaco of several also at -j 2 and 3,
# in partitions, with the same metadata note), and its hsaco must be byte for byte the
# one that `--bin-method lld` (ld.lld of the same object) gives; where one side refuses and the
# other does not, the module fails unless KNOWN.md documents the difference.
#
#   corpus.sh [--quick] [--only TEXT] [--target T] [-j N] [--results FILE] [--keep DIR]
#     --quick      the few modules of QUICK only (what `make test` runs)
#     --only TEXT  the modules whose package/file name (cuda/FILE, hip/FILE) contains TEXT
#     --target T   nvptx or amdgpu only
#     --results    also write one line per module: STATUS|TARGET|MODULE|DETAIL|MS
#     --keep DIR   keep every intermediate file under DIR
#   corpus.sh --fetch PKG...   only fetch packages into the cache (tests/corpus/piglit.sh's)
# Environment: GPUCOMPILE (default build/gpucompile), GPUCOMPILE_CORPUS_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/gpucompile-corpus), CUDA_PATH (default /usr/local/cuda).
# Exit: 0 no module failed; 1 some failed; 77 nothing to test (no network, no tools).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export GPUCOMPILE=${GPUCOMPILE:-$ROOT/build/gpucompile}
export CACHE=${GPUCOMPILE_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucompile-corpus}
export CUDA=${CUDA_PATH:-/usr/local/cuda}
export KNOWN=$HERE/KNOWN.md
# The LLVM gpucompile runs on: its bin directory first on PATH, so that clang, llvm-link, opt,
# llc, llvm-mc, ld.lld and llvm-readelf by their plain names are that LLVM's (as in `make test`).
LLVM_MAJOR=$("$GPUCOMPILE" --version 2>/dev/null | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
LLVM_BIN=$(llvm-config-"$LLVM_MAJOR" --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null)
[ -n "$LLVM_BIN" ] && PATH=$LLVM_BIN:$PATH && export PATH
export NV_CHIP=sm_80 AMD_CHIP=gfx90a
export NV_TARGET="#gpu.nvptx<chip = \"$NV_CHIP\">" AMD_TARGET="#gpu.amdgpu<chip = \"$AMD_CHIP\">"
# Cheap modules that cover both outcomes: compiled by both sides, refused by both sides.
QUICK="hashcat-data/amp_a3.cl hashcat-data/markov_le.cl darktable/bilateral.cl python3-silx/convolution.cl"
QUICK="$QUICK cuda/cub_block.cu hip/rocprim_block.hip"

# Flags for clang, after the way each application builds its kernels at run time.
pkg_flags() { # PKG TARGET DIR
    case $1 in
    darktable) # darktable's opencl.c: -cl-fast-relaxed-math -D<VENDOR>=1 -I<kernel dir>
        echo "-cl-fast-relaxed-math -I $3 -D$([ "$2" = nvptx ] && echo NVIDIA || echo AMD)=1" ;;
    hashcat-data) # hashcat's backend.c: KERNEL_STATIC, the include path, the device's features;
        # the digest layout is per hash mode (MD5's here: any valid one compiles).
        local common="-D KERNEL_STATIC -D INCLUDE_PATH=. -D XM2S(x)=#x -D M2S(x)=XM2S(x)
            -D LOCAL_MEM_TYPE=1 -D DEVICE_TYPE=4 -D VECT_SIZE=1 -D DGST_R0=0 -D DGST_R1=3
            -D DGST_R2=2 -D DGST_R3=1 -D DGST_ELEM=4 -D KERN_TYPE=0 -D ATTACK_EXEC=11
            -D ATTACK_KERN=0 -D _unroll"
        if [ "$2" = nvptx ]; then # IS_NV: inline PTX (lop3, prmt, bfe); OpenCL C spells asm __asm__
            echo "$common -D VENDOR_ID=32 -D CUDA_ARCH=800 -Dasm=__asm__ -D HAS_PRMT=1 -D HAS_LOP3=1
                -D HAS_BFE=1 -D HAS_MOV64=1 -D HAS_ADD=1 -D HAS_ADDC=1 -D HAS_SUB=1 -D HAS_SUBC=1"
        else # IS_AMD + HAS_VPERM: ROCm code paths (v_perm, v_add3, bitalign)
            echo "$common -D VENDOR_ID=1 -D HAS_VPERM=1 -D HAS_VADD3=1 -D HAS_VBFE=1 -D HAS_BFE=1
                -D HAS_VADD=1 -D HAS_VADD_CO=1 -D HAS_VADDC_CO=1 -D HAS_VSUB=1 -D HAS_VSUB_CO=1
                -D HAS_VSUBB=1 -D HAS_VSUBB_CO=1 -D HAS_VADDC=1"
        fi ;;
    python3-silx) echo "" ;; # silx's own options are per kernel, none for these files
    python3-pyfai) # pyFAI prepends silx's doubleword.cl and its kahan.cl and passes the sizes;
        # for_eclipse.h, an editor's helper it includes, is not shipped: an empty one stands in.
        echo "-I $WORK/shim -include $CACHE/python3-silx/$(pkg_dir python3-silx)/doubleword.cl
            -include $3/kahan.cl -D NBINS=1000 -D NIMAGE=4096 -D WORKGROUP_SIZE=32 -D NLUT=16
            -D ON_CPU=0" ;;
    esac
}

# -cl-no-stdinc + -finclude-default-header: the full opencl-c.h (the driver's default,
# -fdeclare-opencl-builtins, lacks the cl_amd_media_ops functions hashcat calls).
# -fgnu89-inline: darktable's plain `inline` functions get a body at -O0 (C99 rules give none).
# -D__IMAGE_SUPPORT__=1: what a driver defines for a device with images (OpenCL C 1.2, 6.10);
# clang 22's opencl-c.h declares the image functions only then, clang 19's always.
CLANG_FLAGS="-x cl -cl-std=CL1.2 -cl-no-stdinc -Xclang -finclude-default-header -D__IMAGE_SUPPORT__=1
    -emit-llvm -S -O0 -Xclang -disable-O0-optnone -fgnu89-inline -w"
export CLANG_FLAGS
# CUDA: clang 19 takes CUDA 13 for a version it does not know; -target-sdk-version makes it use
# the launch API of CUDA >= 9.2 for <<<>>> in host code (else: undeclared cudaConfigureCall),
# and the shim's empty texture_*_functions.h stand for the headers CUDA 13 removed that
# clang's CUDA wrapper still includes. CUDA 13 keeps its own CUB/Thrust (CCCL) out of the
# default include path: last, after the Debian packages a driver names.
# HIP: the headers of libamdhip64-dev (HIP 5.2), unpacked in the cache, with --hip-path. They
# read __AMDGCN_WAVEFRONT_SIZE and call __llvm_amdgcn_rcp_f16 / _2f16, which clang 19 defines
# (64 on gfx90a; its HIP wrapper's 1 / x) and clang 22 no longer does: the flag and the shim's
# hip_rcp.h (the same 1 / x, under names of its own) stand in for them on every clang.
# Both: -O0 without optnone as for OpenCL, so that each side's optimizer does the work.
CUDA_FLAGS="-x cuda --cuda-device-only -nocudalib --cuda-gpu-arch=$NV_CHIP -Wno-unknown-cuda-version
    -Xclang -target-sdk-version=12.5 -emit-llvm -S -O0 -Xclang -disable-O0-optnone -w"
HIP_FLAGS="-x hip --cuda-device-only -nogpulib --offload-arch=$AMD_CHIP -D__AMDGCN_WAVEFRONT_SIZE=64
    -emit-llvm -S -O0 -Xclang -disable-O0-optnone -w"
export CUDA_FLAGS HIP_FLAGS
driver_packages() { sed -n '1s|^// packages:||p' "$1"; } # FILE: the packages a driver names

# clang's command line for a CUDA or HIP driver, without the output.
driver_flags() { # FILE
    local p inc=""
    for p in $(driver_packages "$1"); do inc="$inc -isystem $CACHE/$p/$(pkg_dir "$p")"; done
    case $1 in
    *.cu) echo "$CUDA_FLAGS --cuda-path=$CUDA -I $WORK/shim $inc -isystem $CUDA/include/cccl" ;;
    *.hip) echo "$HIP_FLAGS -include $WORK/shim/hip_rcp.h --hip-path=$CACHE/libamdhip64-dev/$(pkg_dir libamdhip64-dev) $inc" ;;
    esac
}

# First error line of a log, short and without the work directory.
why() {
    local l
    l=$(grep -m1 -E 'error|fatal|ERROR|Unresolved|Cannot select' "$1" 2>/dev/null || head -n1 "$1" 2>/dev/null)
    l=${l//$2\//}
    l=${l#gpucompile: }
    l=$(printf '%s' "$l" | tr -s ' \t' ' ' | cut -c1-160)
    printf '%s' "${l:-no message}"
}

kernels() { # TARGET FILE: the kernel names in a cubin (STO_CUDA_ENTRY) or hsaco (*.kd)
    if [ "$1" = nvptx ]; then
        llvm-readelf --syms -W "$2" | awk '$4 == "FUNC" && /<other: 0x10>/ { print $NF }' | sort -u
    else
        llvm-readelf --syms -W "$2" | awk '$4 == "OBJECT" && $NF ~ /\.kd$/ { sub(/\.kd$/, "", $NF); print $NF }' | sort -u
    fi
}

# LLVM's own chain: IN.ll -> $D/ref.bin; on failure prints "STAGE: message" and returns 1.
reference() { # TARGET DIR
    local t=$1 d=$2
    if [ "$t" = nvptx ]; then
        # clang's own back end puts the +ptxNN of its functions on the target machine (the PTX
        # ISA its CUDA headers and their inline asm need); llc takes it with -mattr.
        local ptx
        ptx=$(grep -o '+ptx[0-9]*' "$d/in.ll" | sort -u -t x -k2,2n | tail -n1)
        # shellcheck disable=SC2086 # REF_LIBS: a list of paths
        llvm-link --only-needed -suppress-warnings "$d/in.ll" $REF_LIBS -o "$d/ref.bc" 2>"$d/ref.err" || { echo "llvm-link: $(why "$d/ref.err" "$d")"; return 1; }
        opt -O2 -mcpu=$NV_CHIP "$d/ref.bc" -o "$d/ref.opt.bc" 2>"$d/ref.err" || { echo "opt: $(why "$d/ref.err" "$d")"; return 1; }
        llc -O2 -mcpu=$NV_CHIP ${ptx:+-mattr=$ptx} "$d/ref.opt.bc" -o "$d/ref.ptx" 2>"$d/ref.err" || { echo "llc: $(why "$d/ref.err" "$d")"; return 1; }
        "$CUDA/bin/ptxas" -arch=$NV_CHIP "$d/ref.ptx" -o "$d/ref.bin" 2>"$d/ref.err" || { echo "ptxas: $(why "$d/ref.err" "$d")"; return 1; }
    else
        # shellcheck disable=SC2086 # REF_LIBS: a list of paths
        llvm-link --only-needed -suppress-warnings "$d/in.ll" $REF_LIBS -o "$d/ref.bc" 2>"$d/ref.err" || { echo "llvm-link: $(why "$d/ref.err" "$d")"; return 1; }
        opt -O2 -mcpu=$AMD_CHIP "$d/ref.bc" -o "$d/ref.opt.bc" 2>"$d/ref.err" || { echo "opt: $(why "$d/ref.err" "$d")"; return 1; }
        llc -O2 -mcpu=$AMD_CHIP -filetype=obj "$d/ref.opt.bc" -o "$d/ref.o" 2>"$d/ref.err" || { echo "llc: $(why "$d/ref.err" "$d")"; return 1; }
        ld.lld -shared --no-undefined "$d/ref.o" -o "$d/ref.bin" 2>"$d/ref.err" || { echo "ld.lld: $(why "$d/ref.err" "$d")"; return 1; }
    fi
}

# gpucompile IN.ll FORMAT OUT: its exit status; a signal is a failure whatever the reference did.
# --no-cache: a cache hit would test the cache, not the compile.
gpuc() { # TARGET DIR FORMAT OUT
    local tt
    if [ "$1" = nvptx ]; then tt=$NV_TARGET; else tt=$AMD_TARGET; fi
    # shellcheck disable=SC2086 # GC_EXTRA: options
    "$GPUCOMPILE" --no-cache ${GC_EXTRA:-} -t "$tt" -f "$3" "$2/in.ll" ${GC_LIB:+-l "$GC_LIB"} -o "$4" 2>"$2/gc.err"
}

# clang on one module: TARGET PKG FILE OUT.ll (an absolute path; PKG: cuda or hip for the
# driver files).
frontend() {
    local t=$1 pkg=$2 f=$3 dir flags
    case $f in
    *.cl)
        dir=$CACHE/$pkg/$(pkg_dir "$pkg")
        flags="$CLANG_FLAGS $(pkg_flags "$pkg" "$t" "$dir")"
        if [ "$t" = nvptx ]; then flags="$flags -target nvptx64-nvidia-cuda"; else flags="$flags -target amdgcn-amd-amdhsa -mcpu=$AMD_CHIP -nogpulib"; fi ;;
    *) dir=$HERE/$pkg; flags=$(driver_flags "$dir/$f") ;;
    esac
    # shellcheck disable=SC2086
    (cd "$dir" && clang $flags "$f" -o "$4")
}

# The headers that stand in (pkg_flags, CUDA_FLAGS, HIP_FLAGS), in $WORK/shim.
shims() {
    mkdir -p "$WORK/shim" && : > "$WORK/shim/for_eclipse.h" && : > "$WORK/shim/texture_fetch_functions.h" &&
        : > "$WORK/shim/texture_indirect_functions.h" &&
        printf '%s\n' 'typedef _Float16 corpus_2f16 __attribute__((ext_vector_type(2)));' \
            'static __attribute__((device)) inline _Float16 corpus_rcp_f16(_Float16 x) { return ((_Float16)1.0f) / x; }' \
            'static __attribute__((device)) inline corpus_2f16 corpus_rcp_2f16(corpus_2f16 x) { return ((corpus_2f16)1.0f) / x; }' \
            '#define __llvm_amdgcn_rcp_f16 corpus_rcp_f16' '#define __llvm_amdgcn_rcp_2f16 corpus_rcp_2f16' > "$WORK/shim/hip_rcp.h"
}

known() { grep -qF "| $1 | $2 |" "$KNOWN"; }

# One module for one target: prints STATUS|TARGET|MODULE|DETAIL.
one() { # TARGET PKG FILE (PKG: cuda or hip for the driver files)
    local t=$1 pkg=$2 f=$3 mod="$2/$3" d r rc rs a b
    d=$WORK/$t/$pkg/${f%.*}; mkdir -p "$d"
    # The libraries: the language's own (GC_LIB, given to gpucompile with -l), then the vendor's
    # that gpucompile adds itself (libdevice; ocml, ockl, the oclc controls).
    case $t/$f in
    nvptx/*.cl) GC_LIB=$CLC_NV REF_LIBS="$CLC_NV $LIBDEVICE" ;;
    nvptx/*) GC_LIB="" REF_LIBS=$LIBDEVICE ;;
    amdgpu/*.cl) GC_LIB=$ROCM_BC/opencl.bc REF_LIBS="$GC_LIB $AMD_LIBS" ;;
    amdgpu/*) GC_LIB=$ROCM_BC/hip.bc REF_LIBS="$GC_LIB $AMD_LIBS" ;;
    esac
    if ! frontend "$t" "$pkg" "$f" "$d/in.ll" 2>"$d/clang.err"; then
        echo "frontend|$t|$mod|clang: $(why "$d/clang.err" "$d")"; return
    fi
    rs=$(reference "$t" "$d"); r=$?
    if [ $r -ne 0 ]; then # the reference refuses: gpucompile must refuse too, cleanly
        gpuc "$t" "$d" bin "$d/gc.bin"; rc=$?
        if [ $rc -ge 128 ]; then echo "fail|$t|$mod|gpucompile died with signal $((rc - 128)) (reference: $rs)"
        elif [ $rc -eq 0 ]; then
            if known "$t" "$mod"; then echo "known|$t|$mod|gpucompile accepts, reference: $rs"
            else echo "fail|$t|$mod|gpucompile accepts what the reference refuses: $rs"; fi
        else echo "refused|$t|$mod|reference: $rs; gpucompile: $(why "$d/gc.err" "$d")"; fi
        return
    fi
    gpuc "$t" "$d" isa "$d/gc.isa"; rc=$?
    if [ $rc -eq 0 ]; then GC_EXTRA=$([ "$t" = amdgpu ] && echo -v) gpuc "$t" "$d" bin "$d/gc.bin"; rc=$?; fi
    if [ $rc -ne 0 ]; then
        if [ $rc -ge 128 ]; then echo "fail|$t|$mod|gpucompile died with signal $((rc - 128))"
        elif known "$t" "$mod"; then echo "known|$t|$mod|gpucompile refuses: $(why "$d/gc.err" "$d")"
        else echo "fail|$t|$mod|gpucompile refuses what the reference accepts: $(why "$d/gc.err" "$d")"; fi
        return
    fi
    # gpucompile's assembly must be accepted by the assembler of its target.
    if [ "$t" = nvptx ]; then
        "$CUDA/bin/ptxas" -arch=$NV_CHIP "$d/gc.isa" -o "$d/gc.isa.cubin" 2>"$d/as.err" ||
            { echo "fail|$t|$mod|ptxas rejects gpucompile's PTX: $(why "$d/as.err" "$d")"; return; }
    else
        llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=$AMD_CHIP -filetype=obj "$d/gc.isa" -o "$d/gc.isa.o" 2>"$d/as.err" ||
            { echo "fail|$t|$mod|llvm-mc rejects gpucompile's assembly: $(why "$d/as.err" "$d")"; return; }
    fi
    # The in-process hsaco against ld.lld's of the same object (-v said which one was written).
    local how=""
    if [ "$t" = amdgpu ]; then
        how=$(grep -o 'the in-process writer does not handle .*' "$d/gc.err" | head -n1)
        if [ -z "$how" ]; then
            cp "$d/gc.err" "$d/gc.v.err"
            GC_EXTRA="--bin-method lld" gpuc "$t" "$d" bin "$d/gc.lld.bin" ||
                { echo "fail|$t|$mod|--bin-method lld fails: $(why "$d/gc.err" "$d")"; return; }
            cmp -s "$d/gc.bin" "$d/gc.lld.bin" || { echo "fail|$t|$mod|the in-process hsaco differs from ld.lld's"; return; }
            cp "$d/gc.v.err" "$d/gc.err"
            how="hsaco in-process, equal to ld.lld's"
        else how="hsaco by ld.lld: ${how#the in-process writer does not handle }"; fi
    fi
    a=$(kernels "$t" "$d/ref.bin"); b=$(kernels "$t" "$d/gc.bin")
    if [ -z "$a" ]; then echo "fail|$t|$mod|no kernel in the reference's binary"
    elif [ "$a" != "$b" ]; then
        echo "fail|$t|$mod|kernels differ: reference $(echo "$a" | wc -l), gpucompile $(echo "$b" | wc -l): $(diff <(echo "$a") <(echo "$b") | grep '^[<>]' | head -3 | tr '\n' ' ')"
    elif grep -q 'defines no kernel' "$d/gc.err"; then
        echo "fail|$t|$mod|gpucompile warns that the module defines no kernel, but it has kernels"
    elif [ "$t" = amdgpu ] && [ "$(echo "$a" | wc -l)" -gt 1 ] && ! partitions "$d"; then
        echo "fail|$t|$mod|code generation in partitions: $(cat "$d/gc.parts.why")"
    else echo "pass|$t|$mod|$(echo "$a" | wc -l) kernels${how:+; $how}"; fi
}

# -j 2 and -j 3 on a module of several kernels: code generation in partitions, whose hsaco must hold
# one metadata note with the same kernels and per-kernel metadata as -j 1's (in any order; the
# register counts may differ: the partitions are read back from bitcode, see hsaco_notes.awk).
notes() { llvm-readelf --notes "$1" | awk -v loose=1 -f "$ROOT/tests/hsaco_notes.awk" | sort; }
partitions() { # DIR
    local j
    notes "$1/gc.bin" > "$1/gc.notes"
    for j in 2 3; do
        GC_EXTRA="-v -j $j" gpuc amdgpu "$1" bin "$1/gc.j$j.bin" 2>/dev/null || { echo "-j $j: $(why "$1/gc.err" "$1")" > "$1/gc.parts.why"; return 1; }
        grep -q 'code generation in [23] partitions' "$1/gc.err" || { echo "-j $j: not in partitions" > "$1/gc.parts.why"; return 1; }
        notes "$1/gc.j$j.bin" > "$1/gc.j$j.notes"
        cmp -s "$1/gc.notes" "$1/gc.j$j.notes" || { echo "-j $j: the metadata notes differ from -j 1's" > "$1/gc.parts.why"; return 1; }
    done
}

pkg_dir() { awk -v p="$1" '$1 == p { print $2 }' "$HERE/packages.txt"; }

# apt-get download + dpkg -x into the cache, once; a failure (no network) returns 1.
fetch() { # PKG
    local p=$1 tmp
    [ -f "$CACHE/$p/.done" ] && return 0
    tmp=$(mktemp -d "$CACHE/.dl.XXXXXX") || return 1
    if ! (cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1); then
        # A fresh machine may have no package lists yet: refresh them once (root only).
        if [ "$(id -u)" = 0 ] && [ -z "${CORPUS_UPDATED:-}" ]; then
            CORPUS_UPDATED=1; apt-get update -qq >/dev/null 2>&1
            (cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1) || { rm -rf "$tmp"; return 1; }
        else rm -rf "$tmp"; return 1; fi
    fi
    rm -rf "${CACHE:?}/$p" && mkdir -p "$CACHE/$p" && dpkg -x "$tmp"/*.deb "$CACHE/$p" && touch "$CACHE/$p/.done"
    local r=$?; rm -rf "$tmp"; return $r
}


# Libraries that complete the language's builtins: libclc for OpenCL on NVPTX (Debian's
# libclc-19, else that package unpacked in the cache), ROCm's opencl.bc / hip.bc for OpenCL /
# HIP on AMDGPU, nothing for CUDA. gpucompile gets those with -l and adds libdevice, ocml, ockl
# and the oclc controls itself; the reference links the same set, for the same chip.
libraries() {
    local c
    CLC_NV=/usr/lib/clc/nvptx64--nvidiacl.bc
    [ -f $CLC_NV ] || CLC_NV=$CACHE/libclc-19/usr/lib/clc/nvptx64--nvidiacl.bc
    LIBDEVICE=$CUDA/nvvm/libdevice/libdevice.10.bc
    ROCM_BC=$(ls -d /usr/lib/*/amdgcn/bitcode 2>/dev/null | head -n1)
    AMD_LIBS="$ROCM_BC/ocml.bc $ROCM_BC/ockl.bc"
    for c in isa_version_${AMD_CHIP#gfx} abi_version_500 wavefrontsize64_on daz_opt_off unsafe_math_off finite_only_off correctly_rounded_sqrt_on; do
        AMD_LIBS="$AMD_LIBS $ROCM_BC/oclc_$c.bc"
    done
}

# The whole run, in a function: bash then reads it all before running it, so an edit of this
# file during a run cannot change the run.
main() {
    local tool t tt pkg pdir globs g path f start
    JOBS=2 QUICK_ONLY=0 RESULTS="" KEEPDIR="" ONLY="" ONLY_TARGET=""
    while [ $# -gt 0 ]; do
        case $1 in
        --quick) QUICK_ONLY=1 ;;
        -j) JOBS=$2; shift ;;
        --results) RESULTS=$2; shift ;;
        --keep) KEEPDIR=$2; shift ;;
        --only) ONLY=$2; shift ;;
        --target) ONLY_TARGET=$2; shift ;;
        *) echo "usage: corpus.sh [--quick] [--only TEXT] [--target T] [-j N] [--results FILE] [--keep DIR]" >&2; exit 2 ;;
        esac
        shift
    done

    for tool in clang llvm-link opt llc llvm-mc ld.lld llvm-readelf dpkg apt-get "$CUDA/bin/ptxas" "$GPUCOMPILE"; do
        command -v "$tool" >/dev/null 2>&1 || { echo "SKIP corpus: $tool not found"; exit 77; }
    done
    mkdir -p "$CACHE" || { echo "SKIP corpus: cannot create $CACHE"; exit 77; }
    libraries
    if [ ! -f "$CLC_NV" ]; then
        fetch libclc-19 || { echo "SKIP corpus: libclc-19 is not installed and cannot be downloaded"; exit 77; }
    fi
    for f in opencl hip; do
        [ -f "$ROCM_BC/$f.bc" ] || { echo "SKIP corpus: rocm-device-libs is not installed"; exit 77; }
    done
    [ -f "$LIBDEVICE" ] || { echo "SKIP corpus: no libdevice in $CUDA"; exit 77; }

    if [ -n "$KEEPDIR" ]; then mkdir -p "$KEEPDIR" && WORK=$(cd "$KEEPDIR" && pwd); else WORK=$(mktemp -d); fi
    export WORK
    trap '[ -n "$KEEPDIR" ] || rm -rf "$WORK"' EXIT
    shims

    # A target that gpucompile cannot compile for at all (no backend yet) is skipped, loudly.
    printf '%s\n' 'target triple = "nvptx64-nvidia-cuda"' 'define void @k(ptr addrspace(1) %p) {' \
        '  store i32 1, ptr addrspace(1) %p' '  ret void' '}' '!nvvm.annotations = !{!0}' \
        '!0 = !{ptr @k, !"kernel", i32 1}' > "$WORK/probe.nvptx.ll"
    printf '%s\n' 'target triple = "amdgcn-amd-amdhsa"' 'define amdgpu_kernel void @k(ptr addrspace(1) %p) {' \
        '  store i32 1, ptr addrspace(1) %p' '  ret void' '}' > "$WORK/probe.amdgpu.ll"
    TARGETS=""
    for t in nvptx amdgpu; do
        case ${ONLY_TARGET:-$t} in "$t") ;; *) continue ;; esac
        if [ $t = nvptx ]; then tt=$NV_TARGET; else tt=$AMD_TARGET; fi
        if "$GPUCOMPILE" --no-cache -t "$tt" -f bin "$WORK/probe.$t.ll" -o "$WORK/probe.$t" 2>"$WORK/probe.err"; then TARGETS="$TARGETS $t"
        else echo "SKIP corpus $t: gpucompile cannot make a binary for $tt: $(why "$WORK/probe.err" "$WORK")"; fi
    done
    [ -n "$TARGETS" ] || exit 77

    # The module list, TARGET PKG FILE a line, then the modules in parallel.
    while read -r pkg pdir globs; do
        case $pkg in ''|\#*) continue ;; esac
        [ -n "$globs" ] || continue # a header library, fetched for the drivers that name it
        if [ $QUICK_ONLY = 1 ]; then case " $QUICK " in *" $pkg/"*) ;; *) continue ;; esac; fi
        if ! fetch "$pkg"; then echo "SKIP corpus: cannot download $pkg (no network or no package lists?)" >&2; exit 77; fi
        for g in $globs; do
            for path in "$CACHE/$pkg/$pdir"/$g; do
                [ -f "$path" ] || continue
                f=${path#"$CACHE/$pkg/$pdir/"}
                if [ $QUICK_ONLY = 1 ]; then case " $QUICK " in *" $pkg/$f "*) ;; *) continue ;; esac; fi
                case $pkg/$f in *"$ONLY"*) ;; *) continue ;; esac
                for t in $TARGETS; do echo "$t $pkg $f"; done
            done
        done
    done < "$HERE/packages.txt" > "$WORK/list"
    # The CUDA and HIP drivers, each with the packages its first line names.
    for path in "$HERE"/cuda/*.cu "$HERE"/hip/*.hip; do
        f=${path#"$HERE/"}
        case $f in *.cu) t=nvptx ;; *) t=amdgpu ;; esac
        case " $TARGETS " in *" $t "*) ;; *) continue ;; esac
        if [ $QUICK_ONLY = 1 ]; then case " $QUICK " in *" $f "*) ;; *) continue ;; esac; fi
        case $f in *"$ONLY"*) ;; *) continue ;; esac
        for pkg in $(driver_packages "$path") $([ $t = amdgpu ] && echo libamdhip64-dev); do
            fetch "$pkg" || { echo "SKIP corpus: cannot download $pkg (no network or no package lists?)" >&2; exit 77; }
        done
        echo "$t ${f%%/*} ${f#*/}"
    done >> "$WORK/list"
    export HERE
    start=$(date +%s)
    xargs -P "$JOBS" -L 1 bash "$HERE/corpus.sh" --one < "$WORK/list" | tee "$WORK/results" |
        awk -F'|' '{ printf "%-8s %-6s %-38s %5.1f s  %s\n", $1, $2, $3, $5 / 1000, $4; fflush() }'
    [ -z "$RESULTS" ] || cp "$WORK/results" "$RESULTS"

    # Counts per target and language, then the reasons of the refusals, grouped (quoted names
    # left out).
    echo "corpus: $(awk '{ print $2 }' "$WORK/list" | sort -u | tr '\n' ' ')- $(wc -l < "$WORK/list") compiles in $(( $(date +%s) - start )) s with $JOBS jobs"
    for t in $TARGETS; do
        for lang in opencl cuda hip; do
            awk -F'|' -v t="$t" -v l="$lang" '$2 == t && lang($3) == l { n++; c[$1]++; ms += $5 }
                function lang(m) { return m ~ /\.cu$/ ? "cuda" : m ~ /\.hip$/ ? "hip" : "opencl" }
                END { if (n) printf "%s %s: %d modules, %d succeeded, %d failed, %d refused by both, %d documented differences, %d not compiled by clang (%.0f s)\n",
                      t, l, n, c["pass"], c["fail"], c["refused"], c["known"], c["frontend"], ms / 1000 }' "$WORK/results"
        done
        [ "$t" = amdgpu ] && awk -F'|' '$2 == "amdgpu" && $1 == "pass" { if ($4 ~ /in-process/) i++; else { l++; w[$4]++ } }
            END { printf "amdgpu hsaco: %d in-process (equal to ld.lld), %d by ld.lld\n", i, l }' "$WORK/results"
        awk -F'|' -v t="$t" -v q="['\"\`]" '$2 == t && $1 != "pass" {
                r = $4; gsub(q "[^'"'"'\"\`]*" q, "...", r); n[$1 ": " r]++ }
            END { for (r in n) printf "  %3d %s\n", n[r], r }' "$WORK/results" | sort -k1,1nr
    done
    ! grep -q '^fail|' "$WORK/results"
}

if [ "${1:-}" = --ir ]; then # TARGET PKG FILE OUT.ll: one module's IR as the corpus makes it (bench/)
    t=$2 pkg=$3 f=$4 out=$(cd "$(dirname "$5")" && pwd)/$(basename "$5")
    WORK=$(mktemp -d) || exit 1
    export WORK; trap 'rm -rf "$WORK"' EXIT
    mkdir -p "$CACHE" && shims || exit 1
    case $pkg in
    cuda|hip) pkgs="$(driver_packages "$HERE/$pkg/$f") $([ "$pkg" = hip ] && echo libamdhip64-dev)" ;;
    python3-pyfai) pkgs="$pkg python3-silx" ;;
    *) pkgs=$pkg ;;
    esac
    for p in $pkgs; do fetch "$p" || { echo "cannot download $p (no network or no package lists?)"; exit 77; }; done
    frontend "$t" "$pkg" "$f" "$out"; exit $?
fi
if [ "${1:-}" = --kernels ]; then kernels "$2" "$3"; exit $?; fi # TARGET BINARY (bench/)
if [ "${1:-}" = --fetch ]; then # PKG...: into the cache, once (piglit.sh); 77 when one cannot be
    shift; mkdir -p "$CACHE" || exit 77
    for p in "$@"; do fetch "$p" || exit 77; done; exit 0
fi
if [ "${1:-}" = --one ]; then # one module, with its time in ms
    shift; libraries; start=$(date +%s%N); line=$(one "$@")
    echo "$line|$(( ($(date +%s%N) - start) / 1000000 ))"; exit 0
fi

main "$@"; exit $?
