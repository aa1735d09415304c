# Binaries from the command line: several targets, -j, the offload binary (clang-offload-packager
# as the reference), the text form (mlir-opt's gpu-module-to-binary output as the reference; both
# are the LLVM in use's, by their plain names; MLIR 19's and 22's forms, as committed in
# tests/data, are read by every build), --merge, --list, --select.
. tests/lib.sh
mkdir -p "$T_TMP/tmp"; export TMPDIR="$T_TMP/tmp"   # a private $TMPDIR: leftovers are ours
G() { "$GPUCOMPILE" --no-cache "$@"; }
NV=examples/kernels/saxpy_nvptx.ll
AMD=examples/kernels/saxpy_amdgpu.ll
D=$T_TMP
T80='#gpu.nvptx<chip = "sm_80">'
T90='#nvvm.target<chip = "sm_90">'
T75='#gpu.nvptx<chip = "sm_75", O = 3>'
LLVM_MAJOR=$("$GPUCOMPILE" --version | sed -n 's/.*(LLVM \([0-9]*\)\..*/\1/p')
MO=mlir-opt   # the LLVM in use's (lib.sh): our text follows the MLIR of the LLVM we are built with
# Text for MLIR speaks its spelling: #gpu.nvptx<...> is written #nvvm.target<...> with #gpu.nvptx's
# "+ptx60" spelled out where #nvvm.target's default differs (MLIR 22: "")
P60=; [ "$LLVM_MAJOR" -ge 22 ] && P60=', features = "+ptx60"'

# Parallel = serial, byte for byte (PTX: the same on every machine)
G -f isa -t "$T80" -t "$T90" -t "$T75" "$NV" -o "$D/s.gpubin" --emit-text "$D/s.mlir" -j 1
check "three targets, -j 1: exit 0" test $? -eq 0
G -f isa -t "$T80" -t "$T90" -t "$T75" "$NV" -o "$D/p.gpubin" --emit-text "$D/p.mlir" -j 3
check "three targets, -j 3: exit 0" test $? -eq 0
check "-j 3 offload binary = -j 1, byte for byte" cmp -s "$D/s.gpubin" "$D/p.gpubin"
check "-j 3 text = -j 1" cmp -s "$D/s.mlir" "$D/p.mlir"
check "offload binary magic 10 FF 10 AD" sh -c "od -An -tx1 -N4 '$D/s.gpubin' | grep -q '10 ff 10 ad'"
# MLIR 20+ has the kernel table; LLVM 19's MLIR has none: the names go in the properties there
if [ "$LLVM_MAJOR" -ge 20 ]; then
  KT='properties = {O = 2 : i32}, kernels = <\[#gpu.kernel_metadata<"saxpy", !llvm.func<void (f32, ptr<1>, ptr<1>, i32)>>\]>'
else
  KT='properties = {O = 2 : i32, kernels = \["saxpy"\]}'
fi
check "default name: the input's stem" grep -q "^gpu.binary @saxpy_nvptx  \[#gpu.object<#nvvm.target<chip = \"sm_80\"$P60>, $KT, assembly = \"" "$D/s.mlir"
check "upstream spelling keeps its own keyword" grep -q "#gpu.object<#nvvm.target<chip = \"sm_90\">, $KT, assembly = " "$D/s.mlir"

G --list "$D/s.gpubin" > "$D/list" 2>&1
check "--list exit 0" test $? -eq 0
check "--list: three objects" grep -q "gpu.binary @saxpy_nvptx: 3 objects" "$D/list"
check "--list: target, format, size (MLIR's spelling, as the binary holds it)" grep -q "\[2\] #nvvm.target<O = 3, chip = \"sm_75\"$P60>: isa, [0-9]* bytes" "$D/list"
check "--list: kernels, one a line" test "$(grep -c '^      kernel: saxpy$' "$D/list")" -eq 3
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

# Cubins and hsaco (where their tools are); merged from per-vendor inputs
if [ -n "$HAVE_CUDA" ]; then
  check "sm_80 cubin" G -t "$T80" "$NV" -o "$D/one80.cubin"
  check "sm_90 cubin" G -t "$T90" "$NV" -o "$D/one90.cubin"
  G -t "$T80" -t "$T90" "$NV" -o "$D/nv.gpubin" --emit-text "$D/nv.mlir" -j 2
  (cd "$D" && clang-offload-packager nv.gpubin --image=file=y80.cubin,triple=nvptx64-nvidia-cuda,arch=sm_80 \
     --image=file=y90.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90) 2>/dev/null
  check "packager extracts the sm_80 cubin byte-identical" cmp -s "$D/one80.cubin" "$D/y80.cubin"
  check "packager extracts the sm_90 cubin byte-identical" cmp -s "$D/one90.cubin" "$D/y90.cubin"
  check "llvm-objdump --offloading: cubin, producer cuda" sh -c "llvm-objdump --offloading '$D/nv.gpubin' | grep -A3 'kind *cubin' | grep -q 'producer *cuda'"
  if [ -n "$HAVE_LLD" ]; then
    check "gfx90a hsaco with --emit-text" G -t '#rocdl.target<chip = "gfx90a">' "$AMD" -o "$D/one.hsaco" --emit-text "$D/amd.mlir"
    check "one target + --emit-text: -o is still the object's bytes" sh -c "llvm-readelf -h '$D/one.hsaco' | grep -q EM_AMDGPU"
    if command -v $MO >/dev/null; then
      $MO "$D/amd.mlir" 2>/dev/null | grep 'gpu.binary' | sed 's/^ *//' > "$D/amd.norm"
      check "$MO parses #rocdl.target hsaco and prints the same bytes" cmp -s "$D/amd.mlir" "$D/amd.norm"
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
    # SPIR-V objects (named like an NVIDIA and an AMD chip) first: each device kind takes its own
    if "$GPUCOMPILE" --print-target '#gpu.spirv' >/dev/null 2>&1; then
      G -t '#gpu.spirv<chip = "sm_80">' -t '#gpu.spirv<chip = "gfx90a">' tests/run/saxpy_spirv.ll -o "$D/spv.gpubin"
      G --merge "$D/spv.gpubin" "$D/all.gpubin" --name mix -o "$D/mix.gpubin"
      check "--select sm_80 on NVPTX, AMDGPU and SPIR-V objects: the cubin" sh -c "'$GPUCOMPILE' --list '$D/mix.gpubin' --select sm_80 | grep -q 'device sm_80: \[2\] #nvvm.target<chip = \"sm_80\"$P60> bin'"
      check "--select gfx90a: the hsaco" sh -c "'$GPUCOMPILE' --list '$D/mix.gpubin' --select gfx90a | grep -q 'device gfx90a: \[4\] #rocdl.target<chip = \"gfx90a\"> bin'"
      check "--select spirv: the first SPIR-V module" sh -c "'$GPUCOMPILE' --list '$D/mix.gpubin' --select spirv | grep -q 'device spirv: \[0\] #xevm.target<chip = \"sm_80\"> bin'"
    else
      skip "--select on SPIR-V objects: this LLVM has no SPIR-V target"
    fi
  else
    skip "AMDGPU hsaco: no ld.lld"
  fi
  # mlir-opt parses the upstream form (#nvvm.target), and prints the same bytes
  if command -v $MO >/dev/null; then
    G -t '#nvvm.target<chip = "sm_80">' -t "$T90" "$NV" -o "$D/up.gpubin" --emit-text "$D/up.mlir"
    $MO "$D/up.mlir" > "$D/up.opt.mlir" 2>"$D/err"
    check "$MO parses the cubin binary" test $? -eq 0
    grep 'gpu.binary' "$D/up.opt.mlir" | sed 's/^ *//' > "$D/up.norm"
    check "$MO prints the same text (the same bytes)" cmp -s "$D/up.mlir" "$D/up.norm"
    G --merge "$D/up.opt.mlir" -o "$D/up2.gpubin"
    if [ "$LLVM_MAJOR" -ge 20 ]; then
      check "$MO's output read back gives the same offload binary" cmp -s "$D/up.gpubin" "$D/up2.gpubin"
    else # MLIR 19's text has kernel names only: the metadata stays in the offload binary
      G --list "$D/up.gpubin" > "$D/up.list"; G --list "$D/up2.gpubin" > "$D/up2.list"
      check "$MO's output read back gives the same objects, properties and kernels" cmp -s "$D/up.list" "$D/up2.list"
    fi
  else
    skip "$MO missing"
  fi
else
  skip "NVPTX cubins: no CUDA toolkit at $T_CUDA"
fi

# mlir-opt on every format keyword, with a handler
if command -v $MO >/dev/null; then
  G -f llvm -t "$T90" -t '#nvvm.target<chip = "sm_80">' "$NV" -o "$D/bc.gpubin" --emit-text "$D/bc.mlir"
  $MO "$D/bc.mlir" > "$D/bc.opt" 2>"$D/err"
  check "$MO parses offload = (bitcode)" test $? -eq 0
  check "bitcode objects keep MLIR's keyword" grep -q 'offload = "BC' "$D/bc.mlir"
  sed 's/@saxpy_nvptx  /@h <#gpu.select_object<1 : i64>> /' "$D/s.mlir" | sed 's/#gpu.nvptx/#nvvm.target/g' > "$D/h.mlir"
  $MO "$D/h.mlir" > "$D/h.opt" 2>"$D/err"
  check "$MO parses a handler and assembly =" test $? -eq 0
  G --merge "$D/h.opt" --emit-text "$D/h2.mlir"
  check "handler survives $MO and our reader" cmp -s "$D/h.mlir" "$D/h2.mlir"
else
  skip "$MO missing"
  check "--list shows the handler" sh -c "'$GPUCOMPILE' --list '$D/h.opt' | grep -q 'gpu.binary @h: 3 objects, handler #gpu.select_object<1>'"
fi

# MLIR's lexical rules in gpu.binary text (one lexer with the target text): comments, quoted
# names, escapes, raw CR and control bytes in strings, nested dictionaries: we read mlir-opt's
# input and print what it prints; a raw VT in a string both refuse, at the same place.
if command -v $MO >/dev/null; then
  printf '%s\n' 'module attributes {gpu.container_module} { // a comment' \
    '  gpu.binary @"b-in\22ary" [#gpu.object<#nvvm.target<chip = "sm_90", link = ["q\"\\\0a>"]>, // the target' \
    '    properties = {a = {b = {c = "x\"y"}}, "k\\" = 1 : i32}, "\00\01\7f\C3\A9 \"\\ // no comment">,' > "$D/lex.mlir"
  printf '    #gpu.object<#nvvm.target, "a\rb\001\303\251">]\n}\n' >> "$D/lex.mlir"
  $MO "$D/lex.mlir" 2>"$D/err" | grep 'gpu.binary' | sed 's/^ *//' > "$D/lex.want"
  G --merge "$D/lex.mlir" --emit-text "$D/lex.ours" -o "$D/lex.gpubin" 2>"$D/err"
  check "lexer: $MO's reading of comments, escapes, raw bytes and nested dictionaries is ours" \
    sh -c "test -s '$D/lex.want' && cmp -s '$D/lex.want' '$D/lex.ours'"
  printf 'gpu.binary @b [#gpu.object<#nvvm.target, "a\vb">]\n' > "$D/vt.mlir"
  $MO "$D/vt.mlir" 2>&1 >/dev/null | grep -o '^[^ ]*:1:44: error' > "$D/vt.theirs"
  G --merge "$D/vt.mlir" --emit-text "$D/vt.ours" 2>"$D/err"
  rc=$?
  check "lexer: a raw VT in a string: exit 1 at 1:44, as $MO" \
    sh -c "test $rc -eq 1 && test -s '$D/vt.theirs' && grep -q ' 1:44: expected' '$D/err' && test ! -e '$D/vt.ours'"
else
  skip "$MO missing"
fi

# What clang-offload-packager writes, we read
printf 'PTXTEXT' > "$D/k.s"
(cd "$D" && clang-offload-packager -o k.bin --image=file=k.s,triple=nvptx64-nvidia-cuda,arch=sm_70,kind=cuda)
G --list "$D/k.bin" > "$D/klist" 2>&1
check "packager's file: --list exit 0" test $? -eq 0
check "packager's file: target from triple and arch (MLIR's spelling), kind from the extension" grep -q '\[0\] #nvvm.target<chip = "sm_70">: isa, 7 bytes' "$D/klist"
# ... and the text of it is mlir-opt's: the upstream spelling, the format keyword it needs
if command -v $MO >/dev/null; then
  G --merge "$D/k.bin" --emit-text "$D/k.mlir"
  check "packager's file as text: #nvvm.target, assembly =" grep -q '^gpu.binary @k  \[#gpu.object<#nvvm.target<chip = "sm_70">, assembly = "PTXTEXT">\]$' "$D/k.mlir"
  $MO "$D/k.mlir" 2>"$D/err" | grep 'gpu.binary' | sed 's/^ *//' > "$D/k.back"
  check "packager's file as text: $MO reads it and prints it unchanged" cmp -s "$D/k.mlir" "$D/k.back"
  # the default target (#gpu.nvptx, gpucompile's own spelling) and #gpu.amdgpu: MLIR's spelling, the meaning kept
  G -f isa "$NV" --emit-text "$D/own.mlir" -o /dev/null
  check "the default target as text: #nvvm.target, #gpu.nvptx's features spelled out" grep -q "^gpu.binary @saxpy_nvptx  \[#gpu.object<#nvvm.target<features = \"+ptx60\">\|^gpu.binary @saxpy_nvptx  \[#gpu.object<#nvvm.target," "$D/own.mlir"
  $MO "$D/own.mlir" 2>"$D/err" | grep 'gpu.binary' | sed 's/^ *//' > "$D/own.back"
  check "the default target as text: $MO reads it and prints it unchanged" cmp -s "$D/own.mlir" "$D/own.back"
  G --print-target '#gpu.nvptx<chip = "sm_80">' > "$D/pt"
  check "--print-target keeps gpucompile's own spelling as written" grep -qx '#gpu.nvptx<chip = "sm_80">' "$D/pt"
  if [ -n "$HAVE_LLD" ]; then
    G -t '#gpu.amdgpu<chip = "gfx90a">' "$AMD" --emit-text "$D/ownamd.mlir" -o /dev/null
    A500=; [ "$LLVM_MAJOR" -ge 22 ] && A500=', abi = "500"'
    check "#gpu.amdgpu as text: #rocdl.target, #gpu.amdgpu's abi spelled out, bin =" grep -q "^gpu.binary @saxpy_amdgpu  \[#gpu.object<#rocdl.target<chip = \"gfx90a\"$A500>, .*bin = " "$D/ownamd.mlir"
    $MO "$D/ownamd.mlir" 2>"$D/err" | grep 'gpu.binary' | sed 's/^ *//' > "$D/ownamd.back"
    check "#gpu.amdgpu as text: $MO reads it and prints it unchanged" cmp -s "$D/ownamd.mlir" "$D/ownamd.back"
  fi
fi

# mlir-opt's gpu-module-to-binary output (every format, both targets, a section, host code beside
# it): read as it is, kernels recovered from the objects, printed again without losing anything,
# and what we print mlir-opt prints back unchanged. MLIR 20 on (the section= option); MLIR 19's
# output is read by the $MO block below and from tests/data/mlir19_nvvm_isa.mlir.
mlir_in() { # NAME TARGET KERNEL-ATTR: a gpu.module with one kernel, and a host function
  cat > "$D/$1.in.mlir" <<EOM
module attributes {gpu.container_module} {
  gpu.module @kern [$2] {
    llvm.func @saxpy(%a: f32, %p: !llvm.ptr<1>) attributes {gpu.kernel, $3} {
      %c = llvm.mlir.constant(0 : i64) : i64
      %g = llvm.getelementptr %p[%c] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      llvm.store %a, %g : f32, !llvm.ptr<1>
      llvm.return
    }
  }
  // a host function with braces in a "string {"
  func.func @host() attributes {note = "}"} {
    return
  }
}
EOM
}
if [ "$LLVM_MAJOR" -lt 20 ]; then
  skip "mlir-opt with section=: MLIR $LLVM_MAJOR has no such option (20 on)"
elif command -v $MO >/dev/null && command -v ld.lld >/dev/null; then
  mkdir -p "$D/rocm/llvm/bin" && ln -sf "$(command -v ld.lld)" "$D/rocm/llvm/bin/ld.lld"
  mlir_in nv '#nvvm.target<O = 3, chip = "sm_80">' nvvm.kernel
  mlir_in amd '#rocdl.target<chip = "gfx90a">' rocdl.kernel
  for t in nv amd; do
    for f in offloading assembly binary fatbinary; do
      nm="$t-$f"
      ROCM_PATH="$D/rocm" $MO --gpu-module-to-binary="format=$f section=__gpu_$t" "$D/$t.in.mlir" > "$D/$nm.mlir" 2>/dev/null
      G --merge "$D/$nm.mlir" --emit-text "$D/$nm.ours" > /dev/null 2>"$D/err"
      check "$MO $nm: read (host function skipped)" test $? -eq 0
      # each property (with LLVM 19 the kernel names join them), and the kernel table where MLIR has one
      for kept in $(grep -o 'properties = {[^}]*}' "$D/$nm.mlir" | sed 's/^properties = {//; s/}$//; s/ //g; s/,/ /g'); do
        check "$MO $nm: property $kept kept" sh -c "grep -o 'properties = {[^}]*}' '$D/$nm.ours' | sed 's/ //g' | grep -qF '$kept'"
      done
      table=$(grep -o 'kernels = <\[.*\]>' "$D/$nm.mlir")
      if [ -n "$table" ] && [ "$LLVM_MAJOR" -ge 20 ]; then
        check "$MO $nm: kernel table kept" grep -qF "$table" "$D/$nm.ours"
      elif [ -n "$table" ]; then
        check "$MO $nm: kernel names kept (LLVM 19's form)" grep -qF 'kernels = ["saxpy"]' "$D/$nm.ours"
      fi
      check "$MO $nm: the same bytes" test "$(grep -o '"[^"]*">]$' "$D/$nm.mlir")" = "$(grep -o '"[^"]*">]$' "$D/$nm.ours")"
      if [ "$f" != offloading ]; then
        check "$MO $nm: the kernel, from the object itself" sh -c "'$GPUCOMPILE' --list '$D/$nm.mlir' | grep -q 'kernel: saxpy$'"
      fi
      $MO "$D/$nm.ours" 2>"$D/err" | grep 'gpu.binary' | sed 's/^ *//' > "$D/$nm.back"
      check "$MO $nm: prints ours back unchanged" cmp -s "$D/$nm.ours" "$D/$nm.back"
    done
  done
  # the metadata we read from $MO's hsaco is what $MO read from it (we add kernarg_segment_size)
  if [ "$LLVM_MAJOR" -ge 20 ]; then
    G --merge "$D/amd-binary.mlir" -o "$D/amd-binary.gpubin" # the table found in the bytes goes into the offload binary
    check "hsaco metadata found in the object = $MO's kernel metadata" test \
      "$(strings "$D/amd-binary.gpubin" | grep -o 'metadata = {[^}]*}' | sed 's/kernarg_segment_size = [0-9]* : i64, //')" = \
      "$(grep -o 'metadata = {[^}]*}' "$D/amd-fatbinary.mlir")"
  fi
  # the O of the PTX object reaches the JIT, the section reaches the host module
  G --merge "$D/nv-assembly.mlir" --host "$D/nvjit.ll"
  check "$MO PTX: --host passes the object's O to mgpuModuleLoadJIT" grep -q 'call ptr @mgpuModuleLoadJIT(ptr @kern_bin_cst, i32 3)' "$D/nvjit.ll"
  check "$MO PTX: the binary sits in its section" grep -q '^@kern_bin_cst = internal constant .* section "__gpu_nv", align 8$' "$D/nvjit.ll"
  check "$MO PTX: a launch function for the kernel found in the PTX" grep -q '^define void @kern_saxpy_launch(' "$D/nvjit.ll"
  G --merge "$D/amd-binary.mlir" --host "$D/amdh.ll"
  check "$MO hsaco: a launch function for the kernel of the metadata note" grep -q '^define void @kern_saxpy_launch(' "$D/amdh.ll"
  # several binaries in one text: listed each, --name picks one, merged otherwise
  ROCM_PATH="$D/rocm" $MO --gpu-module-to-binary="format=isa" "$D/nv.in.mlir" | sed 's/@kern /@other /' > "$D/two.part"
  { echo 'module attributes {gpu.container_module} {'; grep 'gpu.binary' "$D/nv-binary.mlir"; echo '  func.func @f() { return }'
    grep 'gpu.binary' "$D/two.part"; echo '}'; } > "$D/two.mlir"
  G --list "$D/two.mlir" > "$D/two.list" 2>&1
  check "two gpu.binary ops: --list shows both" sh -c "grep -q 'gpu.binary @kern: 1 object' '$D/two.list' && grep -q 'gpu.binary @other: 1 object' '$D/two.list'"
  G --merge "$D/two.mlir" --name other --emit-text "$D/other.mlir"
  check "--name picks one binary" grep -q '^gpu.binary @other  \[#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {[^}]*O = 3 : i32' "$D/other.mlir"
  G --merge "$D/two.mlir" -o "$D/two.gpubin"
  check "without --name they are merged" sh -c "'$GPUCOMPILE' --list '$D/two.gpubin' | grep -q 'gpu.binary @kern: 2 objects'"
  G --merge "$D/two.mlir" --name none -o "$D/none.gpubin" 2>"$D/err"
  check "--name of no binary: exit 1, the names listed" sh -c "test ! -e '$D/none.gpubin' && grep -q 'has no gpu.binary @none; it holds @kern @other' '$D/err'"
  # our own text: accepted by $MO as it is, for both vendors
  cp "$NV" "$D/saxpy-v2.ll"
  G -t '#nvvm.target<chip = "sm_90", O = 3>' -f isa "$D/saxpy-v2.ll" --emit-text "$D/v2.mlir" --section __nv_fatbin -o "$D/v2.ptx"
  check "a name MLIR cannot read bare is quoted" grep -q '^gpu.binary @"saxpy-v2"  \[#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {O = 3 : i32, ' "$D/v2.mlir"
  $MO "$D/v2.mlir" | grep 'gpu.binary' | sed 's/^ *//' > "$D/v2.back"
  check "$MO prints our PTX binary back unchanged" cmp -s "$D/v2.mlir" "$D/v2.back"
  if [ -n "$HAVE_LLD" ]; then
    check "gfx90a hsaco with --emit-text" G -t '#rocdl.target<chip = "gfx90a">' "$AMD" --emit-text "$D/ours-amd.mlir" -o "$D/ours.hsaco"
    $MO "$D/ours-amd.mlir" | grep 'gpu.binary' | sed 's/^ *//' > "$D/ours-amd.back"
    check "$MO prints our hsaco binary (kernel metadata) back unchanged" cmp -s "$D/ours-amd.mlir" "$D/ours-amd.back"
  fi
  G --merge "$D/v2.mlir" --host "$D/v2.ll"
  check "host symbols of @\"saxpy-v2\" are C identifiers" grep -q '^define void @saxpy_v2_saxpy_launch(' "$D/v2.ll"
  check "host module: the object's O and section" sh -c "grep -q 'mgpuModuleLoadJIT(ptr @saxpy_v2_bin_cst, i32 3)' '$D/v2.ll' && grep -q 'section \"__nv_fatbin\"' '$D/v2.ll'"
else
  fail "$MO or ld.lld missing (mlir-$LLVM_MAJOR-tools, lld-$LLVM_MAJOR: make test installs them)"
fi

# Another MLIR's output, as committed (each file says which mlir-opt wrote it): every build reads
# MLIR 19's form (no kernel table) and MLIR 22's (the kernel table with the hsaco's metadata).
M19=tests/data/mlir19_nvvm_isa.mlir M22=tests/data/mlir22_rocdl_fatbinary.mlir
G --merge "$M19" --host "$D/nv19.ll" --emit-text "$D/nv19.ours"
check "MLIR 19's PTX object: read, its O kept" sh -c "grep -q 'properties = {O = 1 : i32}' '$M19' && grep -q 'properties = {O = 1 : i32' '$D/nv19.ours'"
check "MLIR 19's PTX object: the kernel found, launched at the object's O" sh -c "grep -q '^define void @kern_saxpy_launch(' '$D/nv19.ll' && grep -q 'mgpuModuleLoadJIT(ptr @kern_bin_cst, i32 1)' '$D/nv19.ll'"
G --merge "$M22" --host "$D/amd22.ll" --emit-text "$D/amd22.ours"
check "MLIR 22's hsaco object: read, the kernel launched" grep -q '^define void @kern_saxpy_launch(' "$D/amd22.ll"
if [ "$LLVM_MAJOR" -ge 20 ]; then
  check "MLIR 22's hsaco object: its kernel table kept" grep -qF "$(grep -o 'kernels = <\[.*\]>' "$M22")" "$D/amd22.ours"
else
  check "MLIR 22's hsaco object: its kernel names kept (MLIR $LLVM_MAJOR's form)" grep -qF 'kernels = ["saxpy"]' "$D/amd22.ours"
fi
check "MLIR 22's hsaco object: the same bytes" test "$(grep -o '"[^"]*">]$' "$M22")" = "$(grep -o '"[^"]*">]$' "$D/amd22.ours")"

# What clang-offload-packager writes (no gpucompile strings): the kernels come from the images.
# The LLVM in use's (LLVM 19's and 22's write the same version 1 format).
if command -v clang-offload-packager >/dev/null; then
  G -f isa -t "$T80" "$NV" -o "$D/pk.ptx"
  if [ -n "$HAVE_LLD" ]; then G -t '#gpu.amdgpu<chip = "gfx90a">' "$AMD" -o "$D/pk.hsaco"; else G -f isa -t '#gpu.amdgpu<chip = "gfx90a">' "$AMD" -o "$D/pk.hsaco"; fi
  (cd "$D" && clang-offload-packager -o pk.bin --image=file=pk.ptx,triple=nvptx64-nvidia-cuda,arch=sm_80,kind=cuda \
     --image=file=pk.hsaco,triple=amdgcn-amd-amdhsa,arch=gfx90a,kind=hip)
  check "clang-offload-packager's file: kernels found in each image" test "$(G --list "$D/pk.bin" | grep -c 'kernel: saxpy$')" -eq 2
  G --merge "$D/pk.bin" --host "$D/pk.ll"
  check "clang-offload-packager's file: --host has the launch function" grep -q '^define void @pk_saxpy_launch(' "$D/pk.ll"
else
  fail "clang-offload-packager missing (clang-$LLVM_MAJOR has it; make test installs it)"
fi

# --opts (MLIR's opts): passed to the binary step's tool, and part of the cache key
if [ -n "$HAVE_CUDA" ]; then
  check "a cubin by ptxas" G -t "$T80" --bin-method ptxas "$NV" -o "$D/o.cubin"
  "$GPUCOMPILE" --cache-dir "$D/oc" -v -t "$T80" --bin-method ptxas --opts '--maxrregcount=32 -O1' "$NV" -o "$D/o.cubin" 2>"$D/err"
  check "--opts reach ptxas" grep -q 'running: .*ptxas -arch=sm_80 -O2 -v --maxrregcount=32 -O1 ' "$D/err"
  "$GPUCOMPILE" --cache-dir "$D/oc" -v -t "$T80" --bin-method ptxas --opts '--maxrregcount=32 -O1' "$NV" -o "$D/o.cubin" 2>"$D/err"
  check "the same --opts: from the cache" grep -q '(from the cache)' "$D/err"
  "$GPUCOMPILE" --cache-dir "$D/oc" -v -t "$T80" --bin-method ptxas --opts '--maxrregcount=40' "$NV" -o "$D/o.cubin" 2>"$D/err"
  check "other --opts: compiled again" sh -c "! grep -q '(from the cache)' '$D/err'"
  G -t "$T80" --bin-method ptxas --opts '--no-such-option' "$NV" -o "$D/bad.cubin" 2>"$D/err"
  check "a bad --opts: exit 1, ptxas's message, no output" sh -c "test ! -e '$D/bad.cubin' && grep -q 'no-such-option' '$D/err'"
else
  skip "--opts to ptxas: no CUDA toolkit at $T_CUDA"
fi
if [ -n "$HAVE_LLD" ]; then
  G -v -t '#rocdl.target<chip = "gfx90a">' --opts '--no-such-option' "$AMD" -o "$D/bad.hsaco" 2>"$D/err"
  check "--opts reach ld.lld (a bad one: exit 1, its message)" sh -c "test ! -e '$D/bad.hsaco' && grep -q \"unknown argument '--no-such-option'\" '$D/err'"
fi

# An output path that is no regular file (a pipe, a link: /dev/stdout, /dev/null) is written
# through, never replaced by a renamed file
mkfifo "$D/out.fifo" && { cat "$D/out.fifo" > "$D/from.fifo" & }
G -f isa -t "$T80" "$NV" --emit-text "$D/out.fifo" -o "$D/fifo.ptx"
wait
check "--emit-text into a pipe: the text came through, the pipe is still one" sh -c "test -p '$D/out.fifo' && grep -q '^gpu.binary @saxpy_nvptx ' '$D/from.fifo'"
: > "$D/real.ptx"; ln -s real.ptx "$D/link.ptx"
G -f isa -t "$T80" "$NV" -o "$D/link.ptx"
check "-o through a symbolic link: the link stays, its target gets the bytes" sh -c "test -L '$D/link.ptx' && cmp -s '$D/real.ptx' '$D/fifo.ptx'"

# mlir-opt of our LLVM (19 or 22): its gpu-module-to-binary output for every format and
# both vendors, printed by us, is byte for byte what it prints (its own text, and ours read
# back); a module without kernels gives MLIR 22's empty kernel table (`kernels = <>`), and the
# long #gpu.kernel_table<[...]> form of MLIR's tests is read and printed in the short form.
if command -v $MO >/dev/null && command -v ld.lld >/dev/null; then
  mkdir -p "$D/rocm$LLVM_MAJOR/llvm/bin" && ln -sf "$(command -v ld.lld)" "$D/rocm$LLVM_MAJOR/llvm/bin/ld.lld"
  mlir_in eq-nv '#nvvm.target<chip = "sm_80">' nvvm.kernel
  mlir_in eq-amd '#rocdl.target<chip = "gfx90a">' rocdl.kernel
  cat > "$D/eq-none.in.mlir" <<EOM
module attributes {gpu.container_module} {
  gpu.module @none [#rocdl.target<chip = "gfx90a">, #nvvm.target<chip = "sm_80">] {
    llvm.func @helper(%a: f32) -> f32 {
      llvm.return %a : f32
    }
  }
}
EOM
  for t in eq-nv eq-amd eq-none; do
    for f in offloading assembly binary fatbinary; do
      nm="$t-$f"
      ROCM_PATH="$D/rocm$LLVM_MAJOR" $MO --gpu-module-to-binary="format=$f" "$D/$t.in.mlir" 2>/dev/null | grep 'gpu.binary' | sed 's/^ *//' > "$D/$nm.want"
      if [ ! -s "$D/$nm.want" ]; then skip "$MO $nm: no output (toolkit missing)"; continue; fi
      G --merge "$D/$nm.want" --emit-text "$D/$nm.ours" > /dev/null 2>"$D/err"
      check "$MO $nm: our print of its text is its print, byte for byte" cmp -s "$D/$nm.want" "$D/$nm.ours"
      $MO "$D/$nm.ours" 2>/dev/null | grep 'gpu.binary' | sed 's/^ *//' > "$D/$nm.back"
      check "$MO $nm: it prints ours back unchanged" cmp -s "$D/$nm.ours" "$D/$nm.back"
    done
  done
  if [ "$LLVM_MAJOR" -ge 20 ]; then
    check "$MO: a module without kernels, ROCDL fatbinary: the empty kernel table <>" grep -q 'kernels = <>, bin = ' "$D/eq-none-fatbinary.ours"
    check "$MO: the empty kernel table read, no kernel searched for" sh -c "'$GPUCOMPILE' --list '$D/eq-none-fatbinary.want' | grep -q '\[0\] #rocdl.target<chip = \"gfx90a\">: bin'"
  fi
  printf '%s\n' 'gpu.binary @long [#gpu.object<#rocdl.target<chip = "gfx90a">, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"kernel0", (i32, f32) -> (), metadata = {sgpr_count = 255}>, <"kernel1", (i32) -> (), arg_attrs = [{llvm.read_only}]>]>, bin = "\7FELF">]' > "$D/long.mlir"
  G --list "$D/long.mlir" > "$D/long.list" 2>"$D/err"
  check "the long kernel table form: --list shows both kernels" sh -c "grep -q 'kernel: kernel0' '$D/long.list' && grep -q 'kernel: kernel1' '$D/long.list'"
  if [ "$LLVM_MAJOR" -ge 20 ]; then
    $MO "$D/long.mlir" 2>/dev/null | grep 'gpu.binary' | sed 's/^ *//' > "$D/long.want"
    G --merge "$D/long.mlir" --emit-text "$D/long.ours" 2>"$D/err"
    check "the long kernel table form: printed as $MO prints it (short form, typed metadata)" cmp -s "$D/long.want" "$D/long.ours"
  fi
else
  fail "$MO or ld.lld missing (mlir-$LLVM_MAJOR-tools, lld-$LLVM_MAJOR: make test installs them)"
fi

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
