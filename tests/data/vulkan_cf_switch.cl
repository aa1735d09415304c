// A switch in a loop: LLVM 22's SPIR-V structurizer crashed on it, and so did LLVM's
// unify-loop-exits until the switch became branches (lower-switch).
kernel void switch_loop(global const int *a, global int *out, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        switch (a[i] & 3) {
        case 0: s += 1; break;
        case 1: s *= 2; break;
        case 2: s -= a[i]; break;
        default: s ^= a[i];
        }
    }
    out[get_global_id(0)] = s;
}
