// AXPY, DOT and NRM2 as tasks: their kernels and insert functions (no StarPU; the glue is
// vector_starpu.cpp).
#include "codelets/vector/vector_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& axpy_kernel() {
  static const rt::Kernel k{"axpy", kCpuAndCuda};
  return k;
}
const rt::Kernel& dot_kernel() {
  static const rt::Kernel k{"dot", kCpuAndCuda};
  return k;
}
const rt::Kernel& nrm2_kernel() {
  static const rt::Kernel k{"nrm2", kCpuAndCuda};
  return k;
}

void insert_axpy(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double alpha, rt::HandleId x, rt::HandleId y) {
  rt::TaskSpec t = rt::make_task(axpy_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, alpha});
  t.data = {{x, rt::Access::Read}, {y, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

void insert_dot(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId y,
                rt::HandleId result) {
  rt::TaskSpec t = rt::make_task(dot_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, 0.0});
  t.data = {{x, rt::Access::Read}, {y, rt::Access::Read}, {result, rt::Access::Write}};
  rt.submit(std::move(t));
}

void insert_nrm2(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId result) {
  rt::TaskSpec t = rt::make_task(nrm2_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, 0.0});
  t.data = {{x, rt::Access::Read}, {result, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
