// SYRK as a task: its kernel and insert_syrk() (no StarPU; the glue is syrk_starpu.cpp).
#include "codelets/syrk/syrk_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& syrk_kernel() {
  static const rt::Kernel k{"syrk", kCpuAndCuda};
  return k;
}

void insert_syrk(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, char trans, int n, int k, double alpha,
                 rt::HandleId A, double beta, rt::HandleId C) {
  rt::TaskSpec t = rt::make_task(syrk_kernel(), opt, double(n) * (n + 1) * k);
  t.set_args(SyrkArgs{uplo, trans, n, k, alpha, beta});
  t.data = {{A, rt::Access::Read}, {C, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
