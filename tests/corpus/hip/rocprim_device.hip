// packages: librocprim-dev
// rocPRIM 5.3's device-wide algorithms (Debian's librocprim-dev), called from host code as a
// program does: radix sort, reduce, scan, histogram, segmented reduce; each instantiates its
// lookback-scan and sort kernels for gfx90a.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

void run(void *tmp, size_t &bytes, int *k, float *v, unsigned *h, int *offsets, size_t n, hipStream_t s) {
    rocprim::radix_sort_pairs(tmp, bytes, k, k, v, v, n, 0, 32, s);
    rocprim::reduce(tmp, bytes, v, v, n, rocprim::plus<float>(), s);
    rocprim::inclusive_scan(tmp, bytes, k, k, n, rocprim::plus<int>(), s);
    rocprim::histogram_even(tmp, bytes, v, static_cast<unsigned>(n), h, 65u, 0.f, 1.f, s);
    rocprim::segmented_reduce(tmp, bytes, v, v, 16u, offsets, offsets + 1, rocprim::maximum<float>(), 0.f, s);
}
