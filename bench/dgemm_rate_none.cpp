#include "bench/dgemm_rate.hpp"

namespace hetsparse::bench {
DgemmRate measure_cublas_dgemm(int) {
  DgemmRate r;
  r.reason = "built without CUDA";
  return r;
}
}  // namespace hetsparse::bench
