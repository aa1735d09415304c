# The fast subset of the real-kernel corpus (tests/corpus/): a few OpenCL, CUDA and HIP modules
# per target, gpucompile against the chain of the LLVM it runs on (clang, llvm-link, opt, llc,
# ld.lld by their plain names). `make test-corpus` runs the whole corpus. Each quick module
# compiles with that clang: where it does not, that is a failure, not a skip.
. "$(dirname "$0")/lib.sh"
out=$T_TMP/corpus.out
bash "$(dirname "$0")/corpus/corpus.sh" --quick --results "$T_TMP/results" > "$out" 2>&1
rc=$?
# No network, no tools or a target gpucompile cannot compile for: SKIP with corpus.sh's reason.
while read -r _ msg; do [ -z "$msg" ] || skip "$msg"; done <<EOT
$(grep '^SKIP' "$out")
EOT
if [ $rc != 77 ]; then
    [ -s "$T_TMP/results" ] || { cat "$out"; fail "corpus: no result (exit $rc)"; }
    # pass: same kernels in both binaries; refused: both sides refuse (corpus.sh prints why).
    while IFS='|' read -r st t mod detail ms; do
        case $st in
        pass|refused|known) ok "$t $mod: $st: $detail" ;;
        frontend) fail "$t $mod: clang cannot compile a module of the quick set: $detail" ;;
        *) fail "$t $mod: $detail" ;;
        esac
    done < "$T_TMP/results"
    grep -E '^(nvptx|amdgpu) [a-z]+:' "$out"
fi
tally corpus
