// packages: libeigen3-dev
// Eigen 3.4's tensor module on a GPU device (Debian's libeigen3-dev): element-wise
// expressions (libdevice / ocml math), full and partial reductions (warp shuffles, atomics),
// a contraction and a convolution (its kernels take `extern __shared__` memory), each
// instantiating Eigen's GPU kernels. Compiled as CUDA here and as HIP by hip/eigen_tensor.hip:
// over 5 MB of IR with tens of kernels on both targets.
#define EIGEN_USE_GPU
#include <unsupported/Eigen/CXX11/Tensor>

using Eigen::GpuDevice;
using Eigen::Tensor;
using Eigen::TensorMap;

template <typename T>
void ops(const GpuDevice &dev, T *a, T *b, T *c, int n) {
    TensorMap<Tensor<T, 2>> A(a, n, n), B(b, n, n), C(c, n, n);
    TensorMap<Tensor<T, 1>> v(c, n);
    TensorMap<Tensor<T, 0>> s(c);
    C.device(dev) = A.exp() + B.log() * A.sqrt();
    C.device(dev) = A.tanh().cwiseMax(B.sigmoid());
    Eigen::array<int, 1> rows{{1}};
    v.device(dev) = A.sum(rows);
    v.device(dev) = A.maximum(rows);
    s.device(dev) = A.sum();
    Eigen::array<Eigen::IndexPair<int>, 1> dims{{Eigen::IndexPair<int>(1, 0)}};
    C.device(dev) = A.contract(B, dims);
    Eigen::array<int, 1> first{{0}};
    TensorMap<Tensor<T, 1>> kernel(b, 3);
    TensorMap<Tensor<T, 2>> out(c, n - 2, n);
    out.device(dev) = A.convolve(kernel, first);
}

template void ops<float>(const GpuDevice &, float *, float *, float *, int);
