/* OpenCL C kernels in their ordinary form (pointer and scalar parameters, work-item functions,
   local memory, barriers, push constants of every size, constant and private arrays), compiled
   for Vulkan through gpucompile_lower_kernels (tests/test_vulkan_ptr.c checks their answers on
   the first Vulkan device): the ones only the Vulkan tests run. The kernels that run on OpenCL
   and on Vulkan (a reduction, atomics, math, ...) are tests/run/kernels.cl. */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void saxpy(float a, global const float *x, global float *y, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) y[i] = a * x[i] + y[i];
}

/* a 2D grid: every work-item writes its ids and its group's */
kernel __attribute__((reqd_work_group_size(8, 4, 1))) void grid2d(global int *out, int width) {
    size_t x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;
    out[2 * i] = (int)(x + 1000 * y);
    out[2 * i + 1] = (int)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_local_size(1)) + width;
}

/* push constants of every size: each at its offset in the block's 32-bit words */
kernel __attribute__((reqd_work_group_size(1, 1, 1))) void scalars(global float *out, char c, short s, long l, double d, float4 v, uint u) {
    out[0] = c;
    out[1] = s;
    out[2] = (float)l;
    out[3] = (float)d;
    out[4] = v.x;
    out[5] = v.y;
    out[6] = v.z;
    out[7] = v.w;
    out[8] = (float)u;
}

/* a constant table (private memory in Vulkan); no reqd_work_group_size: its size is the launch's */
constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
kernel void blur(global const float *in, global float *out, int n) {
    int i = (int)get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = -2; k <= 2; k++) s += weights[(i + k + 5) % 5] * in[clamp(i + k, 0, n - 1)]; /* read at a computed index */
        out[i] = s;
    }
}

/* one buffer read as float and as float4 (vload4), one written as int and as long, a local
   array of float2 read as float: each buffer's element the narrowest, wider accesses split */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void mixed(global const float *x, global int *y, int n) {
    local float2 pairs[64];
    int i = (int)get_global_id(0), l = (int)get_local_id(0);
    float4 v = vload4(i, x);
    pairs[l] = (float2)(x[4 * i], v.w);
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = ((local float *)pairs)[2 * l] + ((local float *)pairs)[2 * l + 1] + v.y + v.z;
    if (i < n) {
        y[3 * i] = (int)s;
        *(global long *)(y + 3 * i + 1) = (long)i << 33 | 5;
    }
}

/* a private array indexed at run time */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void private_array(global const int *in, global int *out, int n) {
    int a[8];
    int i = (int)get_global_id(0);
    for (int k = 0; k < 8; k++) a[k] = in[(i + k) % n] * (k + 1);
    out[i] = a[in[i] & 7] + a[(in[i] + 3) & 7];
}

/* a private array filled by memset, counted into at run-time indices */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void private_hist(global const int *in, global int *out, int n) {
    int h[16] = {0};
    int i = (int)get_global_id(0);
    for (int k = 0; k < 32; k++) h[in[(i * 32 + k) % n] & 15]++;
    for (int k = 0; k < 16; k++) out[i * 16 + k] = h[k];
}

/* no reqd_work_group_size: the workgroup size and the local memory are the launch's (set when
   its pipeline is made, one per size) */
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

/* every size in three dimensions, from the launch */
kernel void sizes3d(global int *out) {
    size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
    out[2 * i] = (int)(get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2));
    out[2 * i + 1] = (int)(get_global_size(0) + 100 * get_global_size(1) + 10000 * get_global_size(2));
}
