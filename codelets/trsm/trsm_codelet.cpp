// TRSM as a task: its kernel and insert_trsm() (no StarPU; the glue is trsm_starpu.cpp).
#include "codelets/trsm/trsm_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& trsm_kernel() {
  static const rt::Kernel k{"trsm", kCpuAndCuda};
  return k;
}

void insert_trsm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char side, char uplo, char transa, char diag, int m,
                 int n, double alpha, rt::HandleId A, rt::HandleId B) {
  const double tri = (side == 'L' || side == 'l') ? double(m) : double(n);
  rt::TaskSpec t = rt::make_task(trsm_kernel(), opt, double(m) * n * tri);
  t.set_args(TrsmArgs{side, uplo, transa, diag, m, n, alpha});
  t.data = {{A, rt::Access::Read}, {B, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
