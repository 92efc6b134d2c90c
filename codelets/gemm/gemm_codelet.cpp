// GEMM as a task: its kernel and insert_gemm() (no StarPU; the glue is gemm_starpu.cpp).
#include "codelets/gemm/gemm_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& gemm_kernel() {
  static const rt::Kernel k{"gemm", kCpuAndCuda};
  return k;
}

void insert_gemm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char transa, char transb, int m, int n, int k,
                 double alpha, rt::HandleId A, rt::HandleId B, double beta, rt::HandleId C) {
  rt::TaskSpec t = rt::make_task(gemm_kernel(), opt, 2.0 * m * n * k);
  t.set_args(GemmArgs{transa, transb, m, n, k, alpha, beta});
  t.data = {{A, rt::Access::Read}, {B, rt::Access::Read}, {C, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
