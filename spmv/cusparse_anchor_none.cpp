// CPU-only build: there is no GPU anchor to time.
#include "spmv/cusparse_anchor.hpp"

namespace hetsparse {

DirectSpmvTiming time_direct_spmv(const Csr&, const std::vector<double>&, int, DirectSpmv, kernels::TilePlanOptions) {
  DirectSpmvTiming t;
  t.reason = "hetsparse was built without CUDA";
  return t;
}

}  // namespace hetsparse
