// packages: libcub-dev libthrust-dev
// CUB 1.17's block- and warp-level collectives (Debian's libcub-dev; its headers include
// Thrust's), instantiated for a few types and block shapes: inline PTX (bfe, shfl.sync,
// %laneid), warp shuffles and ballots, static and dynamic shared memory, atomics, printf.
#include <cub/cub.cuh>
#include <cstdio>

template <typename T, int BLOCK, int ITEMS>
__global__ void block_sort(T *d) {
    using Sort = cub::BlockRadixSort<T, BLOCK, ITEMS>;
    __shared__ typename Sort::TempStorage tmp;
    T k[ITEMS];
    T *p = d + blockIdx.x * BLOCK * ITEMS;
    cub::LoadDirectBlocked(threadIdx.x, p, k);
    Sort(tmp).Sort(k);
    cub::StoreDirectBlocked(threadIdx.x, p, k);
}
template __global__ void block_sort<int, 128, 4>(int *);
template __global__ void block_sort<float, 256, 2>(float *);

// Block reduce and scan; the per-warp totals go through dynamic shared memory, sized at launch.
template <typename T, int BLOCK>
__global__ void block_reduce_scan(const T *in, T *out, T *total) {
    using Reduce = cub::BlockReduce<T, BLOCK>;
    using Scan = cub::BlockScan<T, BLOCK>;
    using Warp = cub::WarpReduce<T>;
    __shared__ union { typename Reduce::TempStorage r; typename Scan::TempStorage s; } tmp;
    __shared__ typename Warp::TempStorage wtmp[BLOCK / 32];
    extern __shared__ unsigned char dyn[];
    T *warp_sums = reinterpret_cast<T *>(dyn);
    T v = in[blockIdx.x * BLOCK + threadIdx.x], x;
    T sum = Reduce(tmp.r).Sum(v);
    __syncthreads();
    Scan(tmp.s).ExclusiveSum(v, x);
    out[blockIdx.x * BLOCK + threadIdx.x] = x;
    T w = Warp(wtmp[threadIdx.x / 32]).Sum(v);
    if (cub::LaneId() == 0) warp_sums[threadIdx.x / 32] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(total, sum);
        if (warp_sums[0] != w) printf("block %d: warp 0 sums to %d\n", (int)blockIdx.x, (int)warp_sums[0]);
    }
}
template __global__ void block_reduce_scan<int, 128>(const int *, int *, int *);
template __global__ void block_reduce_scan<float, 256>(const float *, float *, float *);
