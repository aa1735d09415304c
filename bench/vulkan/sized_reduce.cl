/* bench/vulkan.sh's sizes rows: a workgroup reduction without reqd_work_group_size (the
   workgroup size and the local memory are the launch's, or compiled in with the target's
   workgroup_size and local_memory flags). */
kernel void sized_reduce(global const float *in, global float *out, local float *scratch, int n) {
    size_t l = get_local_id(0), g = get_global_id(0);
    scratch[l] = g < (size_t)n ? in[g] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}
