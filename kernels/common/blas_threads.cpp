#include "kernels/common/blas_threads.hpp"

// Weak, so any other BLAS links too.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace hetsparse::kernels {

void set_blas_threads(int threads) {
  if (openblas_set_num_threads) openblas_set_num_threads(threads);
}

}  // namespace hetsparse::kernels
