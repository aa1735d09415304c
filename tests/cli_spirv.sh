#!/bin/sh
# The SPIR-V backend (gpucompile_spirv.h) against its oracles: mlir-opt's #xevm.target (MLIR 22's)
# (canonical text; gpu-module-to-binary of the same LLVM IR gives the same SPIR-V, once the
# names the MLIR import drops are stripped from both), spirv-val on every module, spirv-as on
# the isa text. Skips with one line on an LLVM without the SPIR-V target.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
G=$GPUCOMPILE
K=tests/run/saxpy_spirv.ll
if ! "$G" --print-target '#gpu.spirv' >/dev/null 2>"$T_TMP/err"; then
  skip "spirv: $(sed 's/^gpucompile: error: //' "$T_TMP/err" | head -1)"; tally cli_spirv; exit 0
fi
# canonical text: ours against mlir-opt's
for a in '#xevm.target' '#xevm.target<O = 3, chip = "pvc", flags = {a}, linkFiles = ["x.bc"]>' \
         '#xevm.target<triple = "spirv64-unknown-unknown", chip = "bmg", O = 2>' '#xevm.target<triple = "spirv32-unknown-unknown">'; do
  ours=$("$G" --print-target "$a")
  printf 'module attributes {gpu.container_module} {\n  gpu.module @k [%s] {\n  }\n}\n' "$a" > "$T_TMP/t.mlir"
  theirs=$(mlir-opt "$T_TMP/t.mlir" 2>&1 | sed -n 's/.*gpu.module @k \[\(.*\)\] {/\1/p')
  check "print $a: as mlir-opt ($theirs)" [ "$ours" = "$theirs" ]
done
check "#gpu.spirv keeps features and link" sh -c "[ \"\$('$G' --print-target '#gpu.spirv<features = \"+x\", link = [\"a.bc\"]>')\" = '#gpu.spirv<features = \"+x\", link = [\"a.bc\"]>' ]"
rc=0; "$G" --print-target '#xevm.target<link = ["a.bc"]>' 2>"$T_TMP/err" || rc=$?
check "#xevm.target: link is linkFiles" sh -c "[ $rc = 1 ] && grep -q \"unknown parameter 'link'\" '$T_TMP/err'"
# #xevm.target has no features (mlir-opt: "duplicate or unknown struct parameter name: features"),
# and an unknown parameter's message lists what the spelling takes
rc=0; "$G" --print-target '#xevm.target<features = "+x">' 2>"$T_TMP/err" || rc=$?
check "#xevm.target: features is unknown, as in mlir-opt" sh -c "[ $rc = 1 ] && grep -q \"unknown parameter 'features' for #xevm.target\" '$T_TMP/err'"
rc=0; "$G" --print-target '#xevm.target<foo = 1>' 2>"$T_TMP/err" || rc=$?
check "#xevm.target: the unknown-parameter message lists its parameters" sh -c "[ $rc = 1 ] && grep -q 'expected one of O, triple, chip, flags, linkFiles\$' '$T_TMP/err'"
rc=0; "$G" --print-target '#gpu.spirv<foo = 1>' 2>"$T_TMP/err" || rc=$?
check "#gpu.spirv: the unknown-parameter message lists its parameters" sh -c "[ $rc = 1 ] && grep -q 'expected one of O, triple, chip, features, flags, link\$' '$T_TMP/err'"
rc=0; "$G" --print-target '#gpu.spirv<triple = "nvptx64-nvidia-cuda">' 2>"$T_TMP/err" || rc=$?
check "a foreign triple is refused" sh -c "[ $rc = 1 ] && grep -q 'not a SPIR-V triple' '$T_TMP/err'"
# formats
check "bin: spirv-val" sh -c "'$G' --no-cache -t '#gpu.spirv' -f bin $K -o '$T_TMP/s.spv' && spirv-val '$T_TMP/s.spv'"
check "isa: spirv-as, then spirv-val" sh -c "'$G' --no-cache -t '#gpu.spirv' -f isa $K -o '$T_TMP/s.s' && spirv-as '$T_TMP/s.s' -o '$T_TMP/s2.spv' && spirv-val '$T_TMP/s2.spv'"
check "llvm: bitcode" sh -c "'$G' --no-cache -t '#gpu.spirv' -f llvm $K -o '$T_TMP/s.bc' && llvm-dis '$T_TMP/s.bc' -o - | grep -q 'spir_kernel void @saxpy'"
check "kernel metadata: name and parameters" sh -c "'$G' --no-cache -t '#gpu.spirv' -f bin $K --emit-text '$T_TMP/s.mlir' && grep -q 'kernel_metadata<\"saxpy\", !llvm.func<void (f32, ptr<1>, ptr<1>, i32)>' '$T_TMP/s.mlir'"
# the same SPIR-V as mlir-opt's gpu-module-to-binary for #xevm.target
if mlir-translate --import-llvm $K > "$T_TMP/l.mlir" 2>"$T_TMP/err"; then
  { echo 'module attributes {gpu.container_module} {'; echo '  gpu.module @sx [#xevm.target] {'
    sed -n '2,$p' "$T_TMP/l.mlir" | sed '$d'; echo '  }'; echo '}'; } > "$T_TMP/gm.mlir"
  check "mlir-opt gpu-module-to-binary #xevm.target" sh -c "mlir-opt --gpu-module-to-binary=format=bin '$T_TMP/gm.mlir' -o '$T_TMP/gb.mlir' && \
    '$G' --merge '$T_TMP/gb.mlir' -o '$T_TMP/gb.gpubin' && \
    clang-offload-packager '$T_TMP/gb.gpubin' --image=file='$T_TMP/m.spv',triple=spirv64-unknown-unknown,arch=bmg && spirv-val '$T_TMP/m.spv'"
  "$G" --no-cache -t '#xevm.target' -f bin $K -o "$T_TMP/o.spv"
  check "the same SPIR-V as mlir-opt's (names stripped, ids compacted)" sh -c "spirv-opt --strip-debug --compact-ids '$T_TMP/m.spv' -o '$T_TMP/m2.spv' && \
    spirv-opt --strip-debug --compact-ids '$T_TMP/o.spv' -o '$T_TMP/o2.spv' && cmp '$T_TMP/m2.spv' '$T_TMP/o2.spv'"
else
  fail "mlir-translate --import-llvm: $(head -1 "$T_TMP/err")"
fi
tally cli_spirv
