// A search that leaves both of two nested loops at once. LLVM 22's SPIR-V structurizer wrote the
// outer loop's exits as an OpSwitch without an OpSelectionMerge (spirv-val rejects it).
kernel void nested_break(global const int *a, global int *out, int n) {
    int g = get_global_id(0), i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (a[i * n + j] == g) goto found;
    i = j = -1;
found:
    out[g] = i * 1000 + j;
}
