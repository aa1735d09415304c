// packages: libeigen3-dev
// cuda/eigen_tensor.cu compiled as HIP: Eigen's own HIP code paths (hip_runtime.h, ocml).
#define EIGEN_USE_HIP
#include "../cuda/eigen_tensor.cu"
