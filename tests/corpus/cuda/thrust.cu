// packages: libthrust-dev libcub-dev
// Thrust 1.17's CUDA back end (Debian's libthrust-dev over libcub-dev): the algorithms a
// program calls from host code, each instantiating its CUB agent kernels. The biggest CUDA
// module of the corpus (about 12 MB of IR, 64 kernels); Thrust's kernels take their
// shared memory as `extern __shared__` (thrust::cuda_cub::core::shmem).
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

struct expsqrt {
    __host__ __device__ float operator()(float x) const { return sqrtf(x) * expf(x) + logf(x); }
};

void run(float *pf, int *pk, double *pd, int n) {
    thrust::device_ptr<float> f(pf);
    thrust::device_ptr<int> k(pk);
    thrust::device_ptr<double> d(pd);
    thrust::sort(thrust::device, f, f + n);
    thrust::sort(thrust::device, d, d + n, thrust::greater<double>());
    thrust::sort_by_key(thrust::device, k, k + n, f);
    thrust::transform(thrust::device, f, f + n, f, expsqrt());
    thrust::inclusive_scan(thrust::device, k, k + n, k);
    thrust::exclusive_scan(thrust::device, d, d + n, d);
    float s = thrust::reduce(thrust::device, f, f + n);
    int u = static_cast<int>(thrust::unique(thrust::device, k, k + n) - k);
    (void)s;
    (void)u;
}
