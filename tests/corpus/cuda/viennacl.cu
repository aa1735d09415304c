// packages: libviennacl-dev
// ViennaCL 1.7's CUDA back end (Debian's libviennacl-dev): vector, dense and sparse
// matrix kernels with their shared-memory reductions, for float and double.
#define VIENNACL_WITH_CUDA
#include <viennacl/compressed_matrix.hpp>
#include <viennacl/linalg/inner_prod.hpp>
#include <viennacl/linalg/norm_2.hpp>
#include <viennacl/linalg/prod.hpp>
#include <viennacl/matrix.hpp>
#include <viennacl/vector.hpp>

template <typename T>
void run(viennacl::vector<T> &x, viennacl::vector<T> &y, viennacl::matrix<T> &A,
         viennacl::matrix<T> &B, viennacl::compressed_matrix<T> &S) {
    y = viennacl::linalg::prod(A, x);
    y = viennacl::linalg::prod(S, x);
    A = viennacl::linalg::prod(A, B);
    x += T(2) * y;
    x = viennacl::linalg::element_exp(y);
    T d = viennacl::linalg::inner_prod(x, y);
    T n = viennacl::linalg::norm_2(x);
    (void)d;
    (void)n;
}

template void run<float>(viennacl::vector<float> &, viennacl::vector<float> &, viennacl::matrix<float> &,
                         viennacl::matrix<float> &, viennacl::compressed_matrix<float> &);
template void run<double>(viennacl::vector<double> &, viennacl::vector<double> &, viennacl::matrix<double> &,
                          viennacl::matrix<double> &, viennacl::compressed_matrix<double> &);
