// packages:
// The CUDA toolkit's own CUB (CCCL 3, $CUDA/include/cccl): device-wide radix sort, reduce,
// scan and histogram. Its inline PTX uses `bmsk` (PTX ISA 7.6), so the PTX must keep the
// +ptx version that clang puts on every function.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

void run(void *tmp, size_t &bytes, int *k, float *v, int *h, int n, cudaStream_t s) {
    cub::DeviceRadixSort::SortPairs(tmp, bytes, k, k, v, v, n, 0, 32, s);
    cub::DeviceReduce::Sum(tmp, bytes, v, v, n, s);
    cub::DeviceReduce::Max(tmp, bytes, k, k, n, s);
    cub::DeviceScan::ExclusiveSum(tmp, bytes, k, k, n, s);
    cub::DeviceHistogram::HistogramEven(tmp, bytes, v, h, 65, 0.f, 1.f, n, s);
}
