// packages: librocrand-dev
// rocRAND 5.3's device API (Debian's librocrand-dev): the Philox, XORWOW, MRG32k3a and
// Sobol generators with their uniform, normal, log-normal and Poisson distributions (ocml
// log, sqrt, sincos) and the generators' precomputed jump tables in constant memory.
#include <hip/hip_runtime.h>
#include <rocrand/rocrand_kernel.h>

template <class State>
__global__ void generate(float *f, double *d, unsigned *u, unsigned long long seed) {
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    State s;
    rocrand_init(seed, id, 0, &s);
    f[id] = rocrand_uniform(&s) + rocrand_normal(&s) + rocrand_log_normal(&s, 0.f, 1.f);
    d[id] = rocrand_normal_double(&s) + rocrand_uniform_double(&s);
    u[id] = rocrand_poisson(&s, 4.0);
}
template __global__ void generate<rocrand_state_philox4x32_10>(float *, double *, unsigned *, unsigned long long);
template __global__ void generate<rocrand_state_xorwow>(float *, double *, unsigned *, unsigned long long);
template __global__ void generate<rocrand_state_mrg32k3a>(float *, double *, unsigned *, unsigned long long);

__global__ void sobol(float *f, const unsigned *directions) {
    rocrand_state_sobol32 s;
    rocrand_init(directions, blockIdx.x * blockDim.x + threadIdx.x, &s);
    f[blockIdx.x * blockDim.x + threadIdx.x] = rocrand_normal(&s);
}
