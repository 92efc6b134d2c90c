#include "runtime/blas_threads.hpp"

// Weak, so any other BLAS links too.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace hetsparse::rt {

void set_blas_threads(int threads) {
  if (openblas_set_num_threads) openblas_set_num_threads(threads);
}

}  // namespace hetsparse::rt
