// darktable's dwt.cl (dwt_hat_transform_col), reduced: a return from inside nested selections.
// LLVM 22's SPIR-V structurizer left the inner selection by a branch that is not its merge.
kernel void early_return(global float *o, int n, int c) {
    int i = get_global_id(0);
    if (c == 0) {
        if (n > 0) i = 0;
        else if (n < i) i += 1;
        else return;
    }
    o[i] = 1.0f;
}
