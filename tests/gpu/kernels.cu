/* The kernels of tests/run/kernels.cl for NVIDIA and AMD GPUs, in CUDA/HIP as clang compiles it
   without the vendors' headers (tests/gpu/gpu.sh: clang -x cuda for nvptx64-nvidia-cuda, -x hip
   for amdgcn-amd-amdhsa, then LLVM IR to gpucompile). The same parameters and answers as the
   OpenCL C kernels, so tests/run/run.c checks both; math from libdevice (__nv_*) or ocml
   (__ocml_*), which gpucompile links; mylib_scale from a bitcode library (-l). */
#define KERNEL extern "C" __attribute__((global)) void
#define DEVICE __attribute__((device))
#define SHARED __attribute__((shared))
typedef unsigned long size_t;

#ifdef __NVPTX__
static DEVICE unsigned tid(int d) { return d == 0 ? __nvvm_read_ptx_sreg_tid_x() : d == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z(); }
static DEVICE unsigned bid(int d) { return d == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : d == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z(); }
static DEVICE unsigned bdim(int d) { return d == 0 ? __nvvm_read_ptx_sreg_ntid_x() : d == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z(); }
static DEVICE unsigned gdim(int d) { return d == 0 ? __nvvm_read_ptx_sreg_nctaid_x() : d == 1 ? __nvvm_read_ptx_sreg_nctaid_y() : __nvvm_read_ptx_sreg_nctaid_z(); }
static DEVICE void sync(void) { __nvvm_bar_sync(0); }
#define M(f, nv, oc) extern "C" DEVICE float nv(float); static DEVICE float f(float x) { return nv(x); }
#define POW __nv_powf
#else
static DEVICE unsigned tid(int d) { return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z(); }
static DEVICE unsigned bid(int d) { return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z(); }
static DEVICE unsigned bdim(int d) { return d == 0 ? __builtin_amdgcn_workgroup_size_x() : d == 1 ? __builtin_amdgcn_workgroup_size_y() : __builtin_amdgcn_workgroup_size_z(); }
static DEVICE unsigned gdim(int d) { return (d == 0 ? __builtin_amdgcn_grid_size_x() : d == 1 ? __builtin_amdgcn_grid_size_y() : __builtin_amdgcn_grid_size_z()) / bdim(d); }
static DEVICE void sync(void) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#define M(f, nv, oc) extern "C" DEVICE float oc(float); static DEVICE float f(float x) { return oc(x); }
#define POW __ocml_pow_f32
#endif
M(sin_, __nv_sinf, __ocml_sin_f32)
M(cos_, __nv_cosf, __ocml_cos_f32)
M(exp_, __nv_expf, __ocml_exp_f32)
M(log_, __nv_logf, __ocml_log_f32)
M(sqrt_, __nv_sqrtf, __ocml_sqrt_f32)
extern "C" DEVICE float POW(float, float);
extern "C" DEVICE float mylib_scale(float);
static DEVICE size_t gid(int d) { return (size_t)bid(d) * bdim(d) + tid(d); }

extern SHARED float dynamic_smem[]; /* sized by the launch's sharedMemBytes */

/* The same tree as kernels.cl's reduce, in static or dynamic shared memory. */
static DEVICE void reduce_in(float *scratch, const float *in, float *out, int n) {
    size_t l = tid(0), g = gid(0);
    scratch[l] = g < (size_t)n ? in[g] : 0.0f;
    sync();
    for (size_t s = bdim(0) / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        sync();
    }
    if (l == 0) out[bid(0)] = scratch[0];
}

/* scratch: kernels.cl's local-memory parameter, unused here (CUDA and HIP have none). */
KERNEL reduce(const float *in, float *out, float *scratch, int n) {
    (void)scratch;
    reduce_in(dynamic_smem, in, out, n);
}

KERNEL reduce_static(const float *in, float *out, float *scratch, int n) { /* blocks of 128 at most */
    SHARED static float buf[128];
    (void)scratch;
    reduce_in(buf, in, out, n);
}

KERNEL histogram(const unsigned *in, unsigned *bins, unsigned *total, int n) {
    size_t g = gid(0);
    if (g < (size_t)n) {
        __atomic_fetch_add(&bins[in[g] % 16], 1u, __ATOMIC_RELAXED);
        __atomic_fetch_add(total, in[g], __ATOMIC_RELAXED);
        __atomic_fetch_max(&bins[16], in[g], __ATOMIC_RELAXED);
    }
}

KERNEL grid(int *out) {
    size_t gx = (size_t)gdim(0) * bdim(0), gy = (size_t)gdim(1) * bdim(1);
    size_t i = (gid(2) * gy + gid(1)) * gx + gid(0);
    out[2 * i] = (int)(gid(0) + 100 * gid(1) + 10000 * gid(2));
    out[2 * i + 1] = (int)(bid(0) + 100 * bid(1) + 10000 * bid(2) + 1000000 * bdim(0));
}

KERNEL math(const float *x, float *out, int n) {
    size_t i = gid(0);
    if (i < (size_t)n) {
        float v = x[i];
        out[7 * i] = sin_(v);
        out[7 * i + 1] = cos_(v);
        out[7 * i + 2] = exp_(v);
        out[7 * i + 3] = log_(v);
        out[7 * i + 4] = sqrt_(v);
        out[7 * i + 5] = POW(v, 1.5f);
        out[7 * i + 6] = __builtin_fmaxf(v, 2.0f);
    }
}

KERNEL uses_lib(float *x, int n) {
    size_t i = gid(0);
    if (i < (size_t)n) x[i] = mylib_scale(x[i]);
}
