// POTRF as a task: its kernel and insert_potrf() (no StarPU; the glue is potrf_starpu.cpp).
#include "codelets/potrf/potrf_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& potrf_kernel() {
  static const rt::Kernel k{"potrf", kCpuAndCuda};
  return k;
}

void insert_potrf(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, int n, rt::HandleId A,
                  rt::HandleId info) {
  rt::TaskSpec t = rt::make_task(potrf_kernel(), opt, double(n) * n * n / 3.0);
  t.set_args(PotrfArgs{uplo, n});
  t.data = {{A, rt::Access::ReadWrite}, {info, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
