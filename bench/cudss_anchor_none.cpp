// bench_cholesky built without cudss.h or without CUDA: cuDSS is skipped, and the result says how to
// build it in.
#include "bench/cudss_anchor.hpp"

namespace hetsparse::bench {

CudssResult run_cudss(const Csr&, const Csr&, const std::vector<double>&, const std::vector<double>&, int) {
  CudssResult r;
  r.skip_reason = HETSPARSE_CUDSS_SKIP_REASON;  // set by bench/CMakeLists.txt
  return r;
}

}  // namespace hetsparse::bench
