// pyFAI's ocl_azim_LUT.cl (LUTxVec4), reduced: a condition of several && (each a branch), every
// way out to one block. LLVM 22's code generator optimizations merged blocks after its
// structurizer and left an OpSelectionMerge that is not before its branch.
kernel void lut(global const float4 *a, global float *o) {
    size_t g = get_global_id(0);
    float r = 0.0f;
    if (g != 0 && isfinite(a[g].x) && isfinite(a[g].y) && a[g].y > 0.0f) r = 1.0f;
    o[g] = r;
}
