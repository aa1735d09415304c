/* The OpenCL C kernels that run on OpenCL and on Vulkan unchanged, with known answers computed on
   the host: tests/run/run.c runs them on OpenCL (Intel's CPU runtime) and, from the same binary,
   on Vulkan (tests/run/run.sh); tests/test_vulkan_ptr.c runs them through the Vulkan lowering at
   -O2 and from -O0. Compiled by clang for spirv64; mylib_scale comes from a bitcode library (-l).
   Each kernel names the workgroup size its launches use (Vulkan compiles it in); grid, launched
   with two, takes the Vulkan target's. The kernels only the Vulkan tests run are in
   tests/run/vulkan/pointer_kernels.cl; tests/gpu/kernels.cu holds these in CUDA/HIP. */
float mylib_scale(float x);

kernel __attribute__((reqd_work_group_size(128, 1, 1))) void reduce(global const float *in, global float *out, local float *scratch, int n) {
    size_t l = get_local_id(0), g = get_global_id(0);
    scratch[l] = g < (size_t)n ? in[g] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}

kernel __attribute__((reqd_work_group_size(128, 1, 1))) void reduce_static(global const float *in, global float *out, local float *unused, int n) {
    local float scratch[128]; /* groups of 128 at most */
    size_t l = get_local_id(0), g = get_global_id(0);
    scratch[l] = g < (size_t)n ? in[g] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}

kernel __attribute__((reqd_work_group_size(64, 1, 1))) void histogram(global const uint *in, volatile global uint *bins, volatile global uint *total, int n) {
    size_t g = get_global_id(0);
    if (g < (size_t)n) {
        atomic_inc(&bins[in[g] % 16]);
        atomic_add(total, in[g]);
        atomic_max(&bins[16], in[g]); /* bins[16]: the largest input */
    }
}

/* Each work-item writes where it is: ids, sizes and groups of all three dimensions. */
kernel void grid(global int *out) {
    size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
    out[2 * i] = (int)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2));
    out[2 * i + 1] = (int)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2) + 1000000 * get_local_size(0));
}

kernel __attribute__((reqd_work_group_size(256, 1, 1))) void math(global const float *x, global float *out, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) {
        float v = x[i];
        out[7 * i] = sin(v);
        out[7 * i + 1] = cos(v);
        out[7 * i + 2] = exp(v);
        out[7 * i + 3] = log(v);
        out[7 * i + 4] = sqrt(v);
        out[7 * i + 5] = pow(v, 1.5f);
        out[7 * i + 6] = fmax(v, 2.0f);
    }
}

kernel __attribute__((reqd_work_group_size(64, 1, 1))) void uses_lib(global float *x, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) x[i] = mylib_scale(x[i]);
}
