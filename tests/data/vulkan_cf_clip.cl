// pyFAI's sigma_clip.cl (sigma_clip_horizontal), reduced: a return, then an if / else if. LLVM
// 22's SPIR-V structurizer left a selection by a branch that is not its merge.
kernel void clip(global const float *a, global int *o, int n) {
    size_t g = get_global_id(0);
    if (n > 0) return;
    if (a[g] > 1.0f) atomic_inc(o);
    else if (a[g] < -1.0f) o[g + 1] = 2;
}
