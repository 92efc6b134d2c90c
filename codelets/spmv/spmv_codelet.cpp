// CSR SpMV as a task: its kernel and insert_spmv() (no StarPU; the glue is spmv_starpu.cpp).
#include "codelets/spmv/spmv_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& spmv_kernel() {
  static const rt::Kernel k{"spmv", kCpuAndCuda};
  return k;
}

void insert_spmv(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId A, rt::HandleId x, rt::HandleId y,
                 double alpha, double beta, SpmvCudaImpl cuda_impl) {
  rt::TaskSpec t = rt::make_task(spmv_kernel(), opt, 0.0);
  t.set_args(SpmvArgs{alpha, beta, cuda_impl});
  t.data = {{A, rt::Access::Read}, {x, rt::Access::Read}, {y, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
