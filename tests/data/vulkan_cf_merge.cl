// silx's linalg.cl (kern_gradient2D), reduced: a value set in one branch of a selection, then a
// vector store. LLVM 22's code generator optimizations merged blocks after its structurizer and
// left an OpSelectionMerge that is not before its branch.
kernel void merge(global const float *a, global float2 *o, int c) {
    int g = get_global_id(0);
    float v = 0.0f;
    if (c == 0) v = a[g];
    o[g] = (float2)(v, 0.0f);
}
