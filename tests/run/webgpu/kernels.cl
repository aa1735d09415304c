/* OpenCL C kernels for WebGPU (compiled with clang -target spirv32: 32-bit size_t, as WGSL's
   indices are), through #gpu.webgpu and run by run_webgpu.c on wgpu-native and Dawn. The same
   kernels and answers as tests/run/vulkan/pointer_kernels.cl's, without its 8-, 16- and 64-bit
   parameters and accesses (WGSL has none: refused.cl), plus a 3D grid. */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void saxpy(float a, global const float *x, global float *y, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) y[i] = a * x[i] + y[i];
}

/* local memory sized by the launch (up to what it was compiled with) and barriers */
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

/* a local array declared in the kernel */
kernel __attribute__((reqd_work_group_size(128, 1, 1))) void reduce_static(global const int *in, global int *out, int n) {
    local int scratch[128];
    size_t l = get_local_id(0), g = get_global_id(0);
    scratch[l] = g < (size_t)n ? in[g] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = 64; s > 0; s /= 2) {
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
        atomic_max(&bins[16], in[g]);
    }
}

/* a 2D grid: every work-item writes its ids and its group's */
kernel __attribute__((reqd_work_group_size(8, 4, 1))) void grid2d(global int *out, int width) {
    size_t x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;
    out[2 * i] = (int)(x + 1000 * y);
    out[2 * i + 1] = (int)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_local_size(1)) + width;
}

/* a 3D grid: out[(z * h + y) * w + x] = x + 100 y + 10000 z inside w x h x d */
kernel __attribute__((reqd_work_group_size(4, 4, 4))) void grid3d(global uint *out, uint w, uint h, uint d) {
    uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x < w && y < h && z < d) out[(z * h + y) * w + x] = x + 100 * y + 10000 * z;
}

/* math through GLSL.std.450; no reqd_work_group_size: the default (64) */
kernel void math(global const float *x, global float *out, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n) {
        float v = x[i];
        out[4 * i] = sin(v);
        out[4 * i + 1] = exp(v);
        out[4 * i + 2] = sqrt(v);
        out[4 * i + 3] = fmax(v, 2.0f);
    }
}

/* infinities and NaNs, which WGSL has no literal for: log(0), pow's and OpenCL's own constants,
   isinf and isnan (the backend makes each such constant at run time) */
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void nonfinite(global const float *x, global float *out, global int *flags) {
    size_t i = get_global_id(0);
    float v = x[i];
    out[4 * i] = log(v);
    out[4 * i + 1] = pow(v, -1.5f);
    out[4 * i + 2] = v > 100.0f ? INFINITY : v < -100.0f ? NAN : v;
    out[4 * i + 3] = (float4)(v, -INFINITY, 1.0f, INFINITY).y;
    flags[i] = isinf(v) | isnan(v) << 1 | isfinite(v) << 2 | isunordered(v, 1.0f) << 3 | (v != v) << 4 | !(v < 1.0f) << 5;
}

/* signed division, remainder, shift and conversions, scalar and vector (naga reads LLVM's
   unsigned types' signed operations as unsigned: the backend writes them on magnitudes) */
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void signed_ops(global const int *x, global int *out, global float *f) {
    size_t i = get_global_id(0);
    int v = x[i];
    int4 w = (int4)(v, -v, v - 7, 3 - v);
    out[6 * i] = v / 3;
    out[6 * i + 1] = v % -5;
    out[6 * i + 2] = v >> 2;
    out[6 * i + 3] = (int)((float)v * 0.5f);
    out[6 * i + 4] = (w / (int4)(2, -3, 4, -5)).z + (w >> 1).w;
    out[6 * i + 5] = convert_int4(convert_float4(w) * 0.25f).y;
    f[i] = (float)v;
}

/* a private array of 3-element vectors read at a run-time index, stored as one (LLVM widens it
   with a shuffle of an undefined vector, a constant Dawn's reader cannot read) */
kernel __attribute__((reqd_work_group_size(1, 1, 1))) void vec3_stack(global const int *in, global int3 *out, global int *sum) {
    int3 stack[2];
    stack[0].s0 = 0; stack[0].s1 = 1; stack[0].s2 = 2;
    stack[1].s0 = 3; stack[1].s1 = 4; stack[1].s2 = 5;
    out[0] = stack[in[0]];
    sum[0] = in[0];
}

/* elements of 8 bytes: a binding smaller than one is refused by the runtime, not the device */
kernel __attribute__((reqd_work_group_size(1, 1, 1))) void copy2(global int2 *out, global const int2 *in) {
    out[get_global_id(0)] = in[get_global_id(0)];
}

/* a constant table (private memory) */
constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void blur(global const float *in, global float *out, int n) {
    int i = (int)get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = -2; k <= 2; k++) s += weights[(i + k + 5) % 5] * in[clamp(i + k, 0, n - 1)];
        out[i] = s;
    }
}

/* a private array indexed at run time */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void private_array(global const int *in, global int *out, int n) {
    int a[8];
    int i = (int)get_global_id(0);
    for (int k = 0; k < 8; k++) a[k] = in[(i + k) % n] * (k + 1);
    out[i] = a[in[i] & 7] + a[(in[i] + 3) & 7];
}
