#!/bin/sh
# gpucompile --host: a host LLVM module that embeds the binary, compiled by llc for x86-64,
# linked with the mgpu* test double (tests/data/embed_double.c) and run: the object's exact bytes
# load once, the kernel launches as called. Failures exit 1 and leave no file.
. "$(dirname "$0")/lib.sh"
K=examples/kernels/saxpy_nvptx.ll
if ! command -v llc >/dev/null || ! command -v cc >/dev/null; then
  skip "llc or cc missing"; tally cli_embed; exit 0
fi

# build NAME: llc + the double + the driver calling NAME_saxpy_launch; runs it with loads dumped
run_host() {
  llc -filetype=obj -relocation-model=pic "$T_TMP/$1.ll" -o "$T_TMP/$1.o" &&
  cc -std=c11 -w -DLAUNCH="$2" -o "$T_TMP/$1.prog" "$T_TMP/$1.o" tests/data/embed_double.c tests/data/embed_main.c -lpthread &&
  mkdir -p "$T_TMP/$1.d" && EMBED_DUMP="$T_TMP/$1.d" "$T_TMP/$1.prog" > "$T_TMP/$1.trace"
}

# cubin (where nvJitLink or ptxas can make one), else PTX
if "$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -f bin "$K" -o "$T_TMP/sx.obj" --host "$T_TMP/sx.ll" --name sx 2>"$T_TMP/err"; then
  load="mgpuModuleLoad size=$(wc -c < "$T_TMP/sx.obj")"
else
  "$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -f isa "$K" -o "$T_TMP/sx.obj" --host "$T_TMP/sx.ll" --name sx
  load="mgpuModuleLoadJIT strlen=$(wc -c < "$T_TMP/sx.obj") opt=2"
fi
check "host module written" test -s "$T_TMP/sx.ll"
check "host module has the host's triple" grep -q "^target triple = \"$(llc --version | sed -n 's/.*Default target: //p')\"" "$T_TMP/sx.ll"
check "host module verifies (opt)" opt -passes=verify -disable-output "$T_TMP/sx.ll"
check "one launch function per kernel" grep -q '^define void @sx_saxpy_launch(i64 %gridX, i64 %gridY, i64 %gridZ, i64 %blockX, i64 %blockY, i64 %blockZ, i32 %sharedMemBytes, ptr %stream, ptr %args)' "$T_TMP/sx.ll"
if run_host sx sx_saxpy_launch; then
  ok "llc compiles it, cc links it with the double, it runs"
  check "loaded once, the object's exact bytes" cmp -s "$T_TMP/sx.d/load1.bin" "$T_TMP/sx.obj"
  check "trace: load, lookup, two launches, one unload at exit" test "$(cat "$T_TMP/sx.trace")" = "$load -> M1
mgpuModuleGetFunction M1 saxpy -> F1
mgpuLaunchKernel F1 grid=3,2,1 block=64,1,1 smem=16 stream=STREAM args=ARGS extra=null count=4 values=[2.5,X,Y,100]
mgpuStreamCreate -> S1
mgpuLaunchKernel F1 grid=5,1,1 block=128,1,1 smem=0 stream=S1 args=ARGS extra=null count=4 values=[2.5,X,Y,100]
mgpuStreamSynchronize S1
mgpuStreamDestroy S1
main returns
mgpuModuleUnload M1"
else
  fail "llc compiles it, cc links it with the double, it runs"
fi

# several targets: the default handler embeds the first object (here PTX: NUL-terminated, JIT)
"$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -t '#nvvm.target<chip = "sm_90">' -f isa "$K" -o "$T_TMP/two.gpubin" --host "$T_TMP/two.ll" 2>"$T_TMP/err"
check "two targets: host module written" test -s "$T_TMP/two.ll"
check "two targets: binary named after the input" grep -q '^@saxpy_nvptx_bin_cst = internal constant .*\\00", align 8$' "$T_TMP/two.ll"
check "two targets: the first object (sm_80 PTX)" grep -q '^@saxpy_nvptx_bin_cst = .*\.target sm_80' "$T_TMP/two.ll"

# failures: exit 1, no host module
rc=0; "$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -f isa tests/data/embed_launch.mlir --host "$T_TMP/bad.ll" 2>/dev/null || rc=$?
check "invalid input: exit 1" test "$rc" = 1
check "invalid input: no host module" test ! -e "$T_TMP/bad.ll"
rc=0; "$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -f isa "$K" --host "$T_TMP/no/such/dir/h.ll" 2>"$T_TMP/err" || rc=$?
check "unwritable path: exit 1 with a message" sh -c "test $rc = 1 && grep -q 'host module' '$T_TMP/err'"
rc=0; "$GPUCOMPILE" "$K" --host 2>/dev/null || rc=$?
check "--host without a path: usage error (2)" test "$rc" = 2

# examples/04_embed_and_launch.c, built with its own cc line (its "Build:" line, with the LLVM in
# use's llvm-config for the one it names); without a GPU it builds everything, says "no GPU" (the
# runtime says why on stderr) and exits 0
cc04=$(sed -n 's/^ *Build: //p' examples/04_embed_and_launch.c | sed 's/llvm-config-[0-9][0-9]*/llvm-config/; s/ -o ex04$//')
case $cc04 in 'cc '*' examples/04_embed_and_launch.c '*'$(llvm-config --cflags'*) ok "example 04 has its cc line" ;;
  *) fail "example 04 has its cc line (a 'Build: cc ...' line with llvm-config): '$cc04'" ;; esac
if sh -c "$cc04 -o '$T_TMP/ex04'" 2>"$T_TMP/err"; then
  ok "example 04 builds with its cc line"
  if [ -e /usr/local/cuda/lib64/stubs/libcuda.so ]; then
    rc=0; GPUCOMPILE_LIBCUDA=/usr/local/cuda/lib64/stubs/libcuda.so "$T_TMP/ex04" "$K" "$T_TMP/ex04.ll" >"$T_TMP/out" 2>"$T_TMP/err" || rc=$?
    check "example 04 without a GPU: exit 0, 'no GPU'" sh -c "test $rc = 0 && grep -q '^no GPU' '$T_TMP/out'"
    check "example 04 without a GPU: the runtime names the stub" grep -q CUDA_ERROR_STUB_LIBRARY "$T_TMP/err"
    check "example 04 writes a host module that verifies" opt -passes=verify -disable-output "$T_TMP/ex04.ll"
  else
    skip "example 04 run: no stub libcuda"
  fi
else
  fail "example 04 builds with its cc line: $cc04" "$T_TMP/err"
fi
# --handler: MLIR's select_object by index or target, or run-time selection.
"$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -t '#nvvm.target<chip = "sm_90">' -f isa "$K" --handler '#gpu.select_object<1>' \
  --host "$T_TMP/h1.ll" --emit-text "$T_TMP/h1.mlir" -o "$T_TMP/h1.gpubin"
check "--handler select_object<1>: printed as MLIR does" grep -q '<#gpu.select_object<1 : i64>>' "$T_TMP/h1.mlir"
check "--handler select_object<1>: the host embeds the sm_90 PTX" grep -q 'target sm_90' "$T_TMP/h1.ll"
"$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -t '#nvvm.target<chip = "sm_90">' -f isa "$K" \
  --handler '#gpu.select_object<#nvvm.target<chip = "sm_80">>' --host "$T_TMP/h2.ll" -o "$T_TMP/h2.gpubin"
check "--handler select_object<TARGET>: the host embeds that object" sh -c "grep -q 'target sm_80' '$T_TMP/h2.ll' && ! grep -q 'target sm_90' '$T_TMP/h2.ll'"
"$GPUCOMPILE" -t '#nvvm.target<chip = "sm_80">' -t '#nvvm.target<chip = "sm_90">' -f isa "$K" --handler runtime \
  --host "$T_TMP/h3.ll" -o "$T_TMP/h3.gpubin"
check "--handler runtime: the host loads through gpucompile_runtime_load_offload_binary" grep -q gpucompile_runtime_load_offload_binary "$T_TMP/h3.ll"
rc=0; "$GPUCOMPILE" -f isa "$K" --handler '#gpu.select_object<7>' --host "$T_TMP/h4.ll" 2>"$T_TMP/err" || rc=$?
check "--handler index out of range: exit 1, no host module" sh -c "test $rc = 1 && test ! -e '$T_TMP/h4.ll'"
rc=0; "$GPUCOMPILE" -f isa "$K" --handler 'select_object' 2>/dev/null || rc=$?
check "--handler with bad text: usage error" test $rc = 2
tally cli_embed
