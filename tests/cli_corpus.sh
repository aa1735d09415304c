# The fast subset of the real-kernel corpus (tests/corpus/): a few OpenCL, CUDA and HIP modules
# per target, gpucompile against LLVM's own chain. `make test-corpus` runs the whole corpus.
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
        frontend) skip "$t $mod: clang cannot compile it: $detail" ;;
        *) fail "$t $mod: $detail" ;;
        esac
    done < "$T_TMP/results"
    grep -E '^(nvptx|amdgpu) [a-z]+:' "$out"
fi
tally corpus
