#!/usr/bin/env bash
# Byte-identical outputs of two gpucompile binaries: a refactor's proof of "no behaviour change".
# Compiles a fixed set of inputs (examples/kernels, tests/data, and any .ll given after the two
# binaries, e.g. corpus modules kept by tests/corpus/corpus.sh --keep) for several targets and
# formats with each binary and compares every output, exit status and error message.
#
#   bench/same_outputs.sh NEW_GPUCOMPILE OLD_GPUCOMPILE [EXTRA.ll...]
# Exit: 0 all identical, 1 some differ (each named), 2 usage.
set -u
[ $# -ge 2 ] || { echo "usage: $0 NEW_GPUCOMPILE OLD_GPUCOMPILE [EXTRA.ll...]" >&2; exit 2; }
NEW=$1 OLD=$2; shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
SAME=0 DIFF=0

# run TAG ARGS...: both binaries, same arguments (OUT in an argument is each one's output path)
run() {
    local tag=$1 side bin rc; shift
    for side in new old; do
        bin=$NEW; [ $side = old ] && bin=$OLD
        mkdir -p "$WORK/$side"
        "$bin" --no-cache "${@//OUT/$WORK/$side/out}" >"$WORK/$side/stdout" 2>"$WORK/$side/stderr"
        rc=$?
        echo "rc=$rc" >>"$WORK/$side/stdout"
        # messages name each side's paths, and -v prints times: compare without them
        sed -i -e "s#$WORK/$side/##g" -e '/stages (ms)/d' -e 's/[0-9.]* ms$/N ms/' \
            "$WORK/$side/stderr" "$WORK/$side/stdout"
    done
    local f bad=
    for f in stdout stderr out out.mlir out.host.ll; do
        if [ -e "$WORK/new/$f" ] || [ -e "$WORK/old/$f" ]; then
            cmp -s "$WORK/new/$f" "$WORK/old/$f" || bad="$bad $f"
        fi
    done
    if [ -z "$bad" ]; then SAME=$((SAME+1)); else DIFF=$((DIFF+1)); echo "DIFF $tag:$bad"; fi
    rm -rf "$WORK/new" "$WORK/old"
}

NV='#gpu.nvptx<chip = "sm_80">' NVU='#nvvm.target<chip = "sm_90", features = "+ptx80">'
AMD='#gpu.amdgpu<chip = "gfx90a">' AMDU='#rocdl.target<chip = "gfx1100", O = 3>'
AMDG='#gpu.amdgpu<chip = "gfx9-generic", abi = "600">'
for ll in "$ROOT"/examples/kernels/*.ll "$ROOT"/tests/data/*.ll "$@"; do
    name=$(basename "$ll")
    case $name in
    *amdgpu*) set -- "$AMD" "$AMDU" "$AMDG"; fmts="llvm isa bin" ;;
    *nvptx*) set -- "$NV" "$NVU"; fmts="llvm isa bin fatbin" ;;
    *) set -- "$NV" "$AMD"; fmts="llvm isa bin" ;;
    esac
    for t in "$@"; do
        for f in $fmts; do run "$name $t $f" -t "$t" -f "$f" "$ll" -o OUT; done
        run "$name $t meta" -t "$t" -f isa -v "$ll" -o /dev/null
    done
    # several targets: the offload binary, its MLIR text and host code (both spellings)
    run "$name multi" -t "$NV" -t "$AMD" -t "$NVU" -f bin "$ll" -o OUT --emit-text OUT.mlir --host OUT.host.ll
done
# Vulkan (an LLVM with the SPIR-V target): the Vulkan-shaped inputs, and OpenCL C pointer kernels
# as clang writes them (both spellings of the target; the flags the lowering takes)
VK='#gpu.vulkan' VKE='#spirv.target_env<#spirv.vce<v1.5, [Shader, Int64], []>, api=Vulkan, #spirv.resource_limits<>>'
VKF='#gpu.vulkan<flags = {workgroup_size = "32,2,1", local_memory = "1024"}>'
CL=$(command -v clang-22 || command -v clang)
vk_inputs=$(ls "$ROOT"/examples/kernels/*vulkan*.ll "$ROOT"/tests/data/vulkan_*.ll)
if [ -n "$CL" ]; then
    for cl in "$ROOT"/tests/run/vulkan/pointer_kernels.cl "$ROOT"/tests/run/kernels.cl; do
        for o in O0 O2; do
            "$CL" -cl-std=CL2.0 -target spirv64 -$o -Xclang -disable-O0-optnone -emit-llvm -S "$cl" \
                -o "$WORK/$(basename "$cl" .cl)_$o.ll" 2>/dev/null && vk_inputs="$vk_inputs $WORK/$(basename "$cl" .cl)_$o.ll"
        done
    done
fi
for ll in $vk_inputs; do
    name=$(basename "$ll")
    for t in "$VK" "$VKE" "$VKF"; do
        for f in llvm isa bin; do run "$name $t $f" -t "$t" -f "$f" "$ll" -o OUT; done
        run "$name $t meta" -t "$t" -f isa -v "$ll" -o /dev/null
    done
    run "$name multi vulkan" -t "$VK" -t "$NV" -f bin "$ll" -o OUT --emit-text OUT.mlir --host OUT.host.ll
done
for a in "$NV" "$NVU" "$AMD" "$AMDU" "$AMDG" '#gpu.nvptx' '#nvvm.target' '#gpu.amdgpu' '#rocdl.target' \
    '#gpu.nvptx<O = 3, chip = "sm_90a", flags = {fast, ftz}>' '#gpu.amdgpu<chip = "gfx942:xnack+", flags = {wave64}>' \
    '#gpu.nvptx<chip = "sm_9">' '#gpu.amdgpu<chip = "gfx1">' '#rocdl.target<abi = "700">' '#gpu.foo<>' \
    '#gpu.nvptx<triple = "amdgcn-amd-amdhsa">' '#gpu.amdgpu<chip = "gfx10-3-generic", abi = "500">'; do
    run "print $a" --print-target "$a"
done
# reading and run-time selection: one binary (both forms), every kind of device
ll=$ROOT/examples/kernels/saxpy_nvptx.ll
"$OLD" --no-cache -t "$NV" -t "$NVU" -t '#gpu.nvptx<chip = "sm_90a">' -f fatbin "$ll" -o "$WORK/nv.bin" 2>/dev/null
"$OLD" --no-cache -t "$AMD" -t "$AMDG" -t '#gpu.amdgpu<chip = "gfx942:xnack+">' "$ROOT/examples/kernels/saxpy_amdgpu.ll" \
    -o "$WORK/amd.bin" --emit-text "$WORK/amd.mlir" 2>/dev/null
"$OLD" --merge "$WORK/nv.bin" "$WORK/amd.mlir" -o "$WORK/all.bin" --emit-text "$WORK/all.mlir" 2>/dev/null
for bin in "$WORK/all.bin" "$WORK/all.mlir"; do
    run "list $(basename "$bin")" --list "$bin"
    for d in sm_80 sm_86 sm_90 sm_90a sm_100 75 gfx90a gfx90a:xnack- gfx906 gfx942:xnack+ gfx942:xnack- gfx1100 foo; do
        run "select $(basename "$bin") $d" --list "$bin" --select "$d"
    done
done
echo "same_outputs: $SAME identical, $DIFF differ"
[ $DIFF -eq 0 ]
