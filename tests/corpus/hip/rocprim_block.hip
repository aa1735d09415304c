// packages: librocprim-dev
// rocPRIM 5.3's block- and warp-level primitives (Debian's librocprim-dev) on HIP 5.2's
// headers: radix sort, reduce and scan over wave64 (DPP and ds_bpermute shuffles, ballots),
// static and dynamic shared memory (HIP_DYNAMIC_SHARED), atomics, printf, ocml math, and
// inline GCN asm (rocPRIM's own, in thread_load.hpp, does not compile with clang 19; rocRAND's
// is disabled for gfx90a).
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

template <typename T, unsigned BLOCK, unsigned ITEMS>
__global__ void block_sort(T *d) {
    using Sort = rocprim::block_radix_sort<T, BLOCK, ITEMS>;
    __shared__ typename Sort::storage_type tmp;
    T k[ITEMS];
    T *p = d + blockIdx.x * BLOCK * ITEMS;
    rocprim::block_load_direct_blocked(threadIdx.x, p, k);
    Sort().sort(k, tmp);
    rocprim::block_store_direct_blocked(threadIdx.x, p, k);
}
template __global__ void block_sort<int, 256, 4>(int *);
template __global__ void block_sort<float, 128, 2>(float *);

// Block reduce and scan, a wave reduction, and the per-wave totals in dynamic shared memory.
template <typename T, unsigned BLOCK>
__global__ void block_reduce_scan(T *in, T *out, T *total) {
    using Reduce = rocprim::block_reduce<T, BLOCK>;
    using Scan = rocprim::block_scan<T, BLOCK>;
    using Wave = rocprim::warp_reduce<T, 64>;
    __shared__ typename Reduce::storage_type rtmp;
    __shared__ typename Scan::storage_type stmp;
    __shared__ typename Wave::storage_type wtmp[BLOCK / 64];
    HIP_DYNAMIC_SHARED(unsigned char, dyn)
    T *wave_sums = reinterpret_cast<T *>(dyn);
    T v = in[blockIdx.x * BLOCK + threadIdx.x], sum, x, w;
    Reduce().reduce(v, sum, rtmp);
    Scan().exclusive_scan(v, x, T(0), stmp);
    out[blockIdx.x * BLOCK + threadIdx.x] = x;
    Wave().reduce(v, w, wtmp[threadIdx.x / 64]);
    if (rocprim::lane_id() == 0) wave_sums[threadIdx.x / 64] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(total, sum);
        if (wave_sums[0] != w) printf("block %d: wave 0 sums to %f\n", (int)blockIdx.x, (double)wave_sums[0]);
    }
}
template __global__ void block_reduce_scan<int, 256>(int *, int *, int *);
template __global__ void block_reduce_scan<float, 128>(float *, float *, float *);

// A ballot, ocml math through HIP's device functions, and the hardware id read by inline asm.
__global__ void ballot_math(const float *in, float *out, unsigned long long *mask, unsigned *hw) {
    float v = in[threadIdx.x];
    unsigned id;
    asm volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID)" : "=s"(id));
    if (threadIdx.x == 0) hw[blockIdx.x] = id;
    unsigned long long b = __ballot(v > 0.f);
    if (threadIdx.x == 0) atomicOr(mask, b);
    out[threadIdx.x] = sinf(v) * expf(v) + __shfl_xor(logf(fabsf(v) + 1.f), 1) + erff(v) + powf(v, 1.5f);
}
