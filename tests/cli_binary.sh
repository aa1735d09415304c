# Binaries from the command line: several targets, -j, the offload binary (clang-offload-packager
# as the reference), the text form (mlir-opt as the reference), --merge, --list, --select.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
G() { "$GPUCOMPILE" --no-cache "$@"; }
NV=examples/kernels/saxpy_nvptx.ll
AMD=examples/kernels/saxpy_amdgpu.ll
D=$T_TMP
T80='#gpu.nvptx<chip = "sm_80">'
T90='#nvvm.target<chip = "sm_90">'
T75='#gpu.nvptx<chip = "sm_75", O = 3>'

# Parallel = serial, byte for byte (PTX: the same on every machine)
G -f isa -t "$T80" -t "$T90" -t "$T75" "$NV" -o "$D/s.gpubin" --emit-text "$D/s.mlir" -j 1
check "three targets, -j 1: exit 0" test $? -eq 0
G -f isa -t "$T80" -t "$T90" -t "$T75" "$NV" -o "$D/p.gpubin" --emit-text "$D/p.mlir" -j 3
check "three targets, -j 3: exit 0" test $? -eq 0
check "-j 3 offload binary = -j 1, byte for byte" cmp -s "$D/s.gpubin" "$D/p.gpubin"
check "-j 3 text = -j 1" cmp -s "$D/s.mlir" "$D/p.mlir"
check "offload binary magic 10 FF 10 AD" sh -c "od -An -tx1 -N4 '$D/s.gpubin' | grep -q '10 ff 10 ad'"
check "default name: the input's stem" grep -q '^gpu.binary @saxpy_nvptx \[#gpu.object<#gpu.nvptx<chip = "sm_80">, properties = {kernels = \["saxpy"\]}, assembly = "' "$D/s.mlir"
check "upstream spelling keeps its own keyword" grep -q '#gpu.object<#nvvm.target<chip = "sm_90">, properties = {kernels = \["saxpy"\]}, assembly = ' "$D/s.mlir"

G --list "$D/s.gpubin" > "$D/list" 2>&1
check "--list exit 0" test $? -eq 0
check "--list: three objects" grep -q "gpu.binary @saxpy_nvptx: 3 objects" "$D/list"
check "--list: target, format, size" grep -q '\[2\] #gpu.nvptx<O = 3, chip = "sm_75">: isa, [0-9]* bytes' "$D/list"
check "--list: kernels" test "$(grep -c 'kernels: saxpy' "$D/list")" -eq 3
G --list "$D/s.mlir" > "$D/list2" 2>&1
check "--list reads the text form the same" cmp -s "$D/list" "$D/list2"

# Every image that clang-offload-packager extracts is the single-target output
G -f isa -t "$T80" "$NV" -o "$D/one80.ptx"
G -f isa -t "$T75" "$NV" -o "$D/one75.ptx"
(cd "$D" && clang-offload-packager s.gpubin --image=file=x80.ptx,triple=nvptx64-nvidia-cuda,arch=sm_80 \
   --image=file=x75.ptx,triple=nvptx64-nvidia-cuda,arch=sm_75) 2>/dev/null
check "packager extracts sm_80 PTX byte-identical" cmp -s "$D/one80.ptx" "$D/x80.ptx"
check "packager extracts sm_75 PTX byte-identical" cmp -s "$D/one75.ptx" "$D/x75.ptx"
check "llvm-objdump --offloading sees PTX images" sh -c "llvm-objdump --offloading '$D/s.gpubin' | grep -c 'kind *ptx' | grep -q 3"

# Cubins and hsaco, when the backends make them here; merged from per-vendor inputs
if G -t "$T80" "$NV" -o "$D/one80.cubin" 2>/dev/null && G -t "$T90" "$NV" -o "$D/one90.cubin" 2>/dev/null; then
  G -t "$T80" -t "$T90" "$NV" -o "$D/nv.gpubin" --emit-text "$D/nv.mlir" -j 2
  (cd "$D" && clang-offload-packager nv.gpubin --image=file=y80.cubin,triple=nvptx64-nvidia-cuda,arch=sm_80 \
     --image=file=y90.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90) 2>/dev/null
  check "packager extracts the sm_80 cubin byte-identical" cmp -s "$D/one80.cubin" "$D/y80.cubin"
  check "packager extracts the sm_90 cubin byte-identical" cmp -s "$D/one90.cubin" "$D/y90.cubin"
  check "llvm-objdump --offloading: cubin, producer cuda" sh -c "llvm-objdump --offloading '$D/nv.gpubin' | grep -A3 'kind *cubin' | grep -q 'producer *cuda'"
  if G -t '#rocdl.target<chip = "gfx90a">' "$AMD" -o "$D/one.hsaco" --emit-text "$D/amd.mlir" 2>/dev/null; then
    check "one target + --emit-text: -o is still the object's bytes" sh -c "llvm-readelf -h '$D/one.hsaco' | grep -q EM_AMDGPU"
    if command -v mlir-opt >/dev/null; then
      mlir-opt "$D/amd.mlir" 2>/dev/null | grep 'gpu.binary' | sed 's/^ *//; s/  / /' > "$D/amd.norm"
      check "mlir-opt parses #rocdl.target hsaco and prints the same bytes" cmp -s "$D/amd.mlir" "$D/amd.norm"
    fi
    G --merge "$D/nv.gpubin" "$D/amd.mlir" --name all -o "$D/all.gpubin" --emit-text "$D/all.mlir"
    check "--merge offload + text: exit 0" test $? -eq 0
    check "--merge: three objects, named" sh -c "'$GPUCOMPILE' --list '$D/all.gpubin' | grep -q 'gpu.binary @all: 3 objects'"
    (cd "$D" && clang-offload-packager all.gpubin --image=file=z.hsaco,triple=amdgcn-amd-amdhsa,arch=gfx90a) 2>/dev/null
    check "packager extracts the hsaco byte-identical" cmp -s "$D/one.hsaco" "$D/z.hsaco"
    check "llvm-objdump --offloading: producer hip" sh -c "llvm-objdump --offloading '$D/all.gpubin' | grep -q 'producer *hip'"
    check "--select gfx90a:xnack+ takes the hsaco" sh -c "'$GPUCOMPILE' --list '$D/all.gpubin' --select gfx90a:xnack+ | grep -q 'device gfx90a:xnack+: \[2\] #rocdl.target<chip = \"gfx90a\"> bin'"
    check "--select sm_86 takes the sm_80 cubin" sh -c "'$GPUCOMPILE' --list '$D/all.mlir' --select sm_86 | grep -q 'device sm_86: \[0\]'"
    "$GPUCOMPILE" --list "$D/all.gpubin" --select sm_100 > /dev/null 2>"$D/err"
    check "--select sm_100 without PTX: exit 1" test $? -eq 1
    check "--select sm_100: the message lists the objects" grep -q 'no object for device sm_100 in binary @all; it holds: \[0\]' "$D/err"
  else
    skip "AMDGPU hsaco: the backend does not make hsaco here yet"
  fi
  # mlir-opt parses the upstream form (#nvvm.target), and prints the same bytes
  if command -v mlir-opt >/dev/null; then
    G -t '#nvvm.target<chip = "sm_80">' -t "$T90" "$NV" -o "$D/up.gpubin" --emit-text "$D/up.mlir"
    mlir-opt "$D/up.mlir" > "$D/up.opt.mlir" 2>"$D/err"
    check "mlir-opt parses the cubin binary" test $? -eq 0
    grep 'gpu.binary' "$D/up.opt.mlir" | sed 's/^ *//; s/  / /' > "$D/up.norm"
    check "mlir-opt prints the same text (the same bytes)" cmp -s "$D/up.mlir" "$D/up.norm"
    G --merge "$D/up.opt.mlir" -o "$D/up2.gpubin"
    check "mlir-opt's output read back gives the same offload binary" cmp -s "$D/up.gpubin" "$D/up2.gpubin"
  else
    skip "mlir-opt missing"
  fi
else
  skip "NVPTX cubins: the backend does not make cubins here"
fi

# mlir-opt on every format keyword, with a handler
if command -v mlir-opt >/dev/null; then
  G -f llvm -t "$T90" -t '#nvvm.target<chip = "sm_80">' "$NV" -o "$D/bc.gpubin" --emit-text "$D/bc.mlir"
  mlir-opt "$D/bc.mlir" > "$D/bc.opt" 2>"$D/err"
  check "mlir-opt parses offload = (bitcode)" test $? -eq 0
  check "bitcode objects keep MLIR's keyword" grep -q 'offload = "BC' "$D/bc.mlir"
  sed 's/@saxpy_nvptx /@h <#gpu.select_object<1 : i64>> /' "$D/s.mlir" | sed 's/#gpu.nvptx/#nvvm.target/g' > "$D/h.mlir"
  mlir-opt "$D/h.mlir" > "$D/h.opt" 2>"$D/err"
  check "mlir-opt parses a handler and assembly =" test $? -eq 0
  G --merge "$D/h.opt" --emit-text "$D/h2.mlir"
  check "handler survives mlir-opt and our reader" cmp -s "$D/h.mlir" "$D/h2.mlir"
  check "--list shows the handler" sh -c "'$GPUCOMPILE' --list '$D/h.opt' | grep -q 'gpu.binary @h: 3 objects, handler #gpu.select_object<1>'"
fi

# What clang-offload-packager writes, we read
printf 'PTXTEXT' > "$D/k.s"
(cd "$D" && clang-offload-packager -o k.bin --image=file=k.s,triple=nvptx64-nvidia-cuda,arch=sm_70,kind=cuda)
G --list "$D/k.bin" > "$D/klist" 2>&1
check "packager's file: --list exit 0" test $? -eq 0
check "packager's file: target from triple and arch, kind from the extension" grep -q '\[0\] #gpu.nvptx<chip = "sm_70">: isa, 7 bytes' "$D/klist"

# Failures: exit 1, nothing written
G -f isa -t "$T80" -t '#gpu.nvptx<O = 9>' "$NV" -o "$D/bad.gpubin" --emit-text "$D/bad.mlir" -j 2 2>"$D/err"
check "a bad target: exit 1" test $? -eq 1
check "a bad target: no outputs" test ! -e "$D/bad.gpubin" -a ! -e "$D/bad.mlir"
check "a bad target: named in the message" grep -q "target 2 of 2" "$D/err"
head -c 100 /dev/urandom > "$D/junk.gpubin"
G --list "$D/junk.gpubin" >/dev/null 2>"$D/err"
check "junk: --list exit 1" test $? -eq 1
check "junk: 'not a valid binary'" grep -q "not a valid binary" "$D/err"
head -c 300 "$D/s.gpubin" > "$D/cut.gpubin"
G --merge "$D/cut.gpubin" -o "$D/cut2.gpubin" 2>"$D/err"
check "truncated offload binary: exit 1" test $? -eq 1
check "truncated: says what is wrong" grep -q "does not fit" "$D/err"
check "truncated: no output" test ! -e "$D/cut2.gpubin"
echo 'gpu.binary @e []' > "$D/empty.mlir"
G --list "$D/empty.mlir" >/dev/null 2>"$D/err"
check "empty object list: MLIR's message" grep -q "an array of GPU object attributes with at least 1 elements" "$D/err"
G -f isa -t "$T80" "$NV" -j 0 2>/dev/null
check "-j 0 is a usage error" test $? -eq 2
G -f isa "$NV" "$NV" 2>/dev/null
check "the same input twice in a batch (same stem): usage error" test $? -eq 2
check "no temporary files left" test -z "$(ls "$D/tmp")"
check "no temporary output next to the outputs" test -z "$(ls "$D" | grep '\.tmp')"

tally binary
