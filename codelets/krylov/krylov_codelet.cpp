// XPBY and the diagonal scaling as tasks (no StarPU; the glue is krylov_starpu.cpp).
#include "codelets/krylov/krylov_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& xpby_kernel() {
  static const rt::Kernel k{"xpby", kCpuAndCuda};
  return k;
}
const rt::Kernel& diag_scale_kernel() {
  static const rt::Kernel k{"diag_scale", kCpuAndCuda};
  return k;
}

void insert_xpby(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, double beta, rt::HandleId y) {
  rt::TaskSpec t = rt::make_task(xpby_kernel(), opt, 2.0 * n);
  t.set_args(KrylovArgs{n, beta});
  t.data = {{x, rt::Access::Read}, {y, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

void insert_diag_scale(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId d, rt::HandleId x,
                       rt::HandleId y) {
  rt::TaskSpec t = rt::make_task(diag_scale_kernel(), opt, 1.0 * n);
  t.set_args(KrylovArgs{n, 0.0});
  t.data = {{d, rt::Access::Read}, {x, rt::Access::Read}, {y, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
