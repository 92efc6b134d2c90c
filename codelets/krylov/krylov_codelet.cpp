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

const rt::Kernel& cg_step_kernel() {
  static const rt::Kernel k{"cg_step", kCpuAndCuda};
  return k;
}

const rt::Kernel& cg_direction_kernel() {
  static const rt::Kernel k{"cg_direction", kCpuAndCuda};
  return k;
}

const rt::Kernel& fill_kernel() {
  static const rt::Kernel k{"fill", kCpuAndCuda};
  return k;
}

void insert_fill(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double value, rt::HandleId y) {
  rt::TaskSpec t = rt::make_task(fill_kernel(), opt, 0.0);
  t.set_args(KrylovArgs{n, value});
  t.data = {{y, rt::Access::Write}};
  rt.submit(std::move(t));
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

void insert_cg_step(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, const CgStepStart& from, rt::HandleId pq,
                    rt::HandleId p, rt::HandleId q, rt::HandleId x, rt::HandleId r,
                    std::optional<CgScaling> scaling, rt::HandleId out, rt::HandleId workspace) {
  rt::TaskSpec t = rt::make_task(cg_step_kernel(), opt, (scaling ? 8.0 : 6.0) * n);
  t.set_args(CgStepArgs{n, from.rz, from.tol2, scaling.has_value(), from.prev.has_value()});
  t.data = {{p, rt::Access::Read},      {q, rt::Access::Read},   {x, rt::Access::ReadWrite},
            {r, rt::Access::ReadWrite}, {out, rt::Access::Write}, {workspace, rt::Access::Scratch},
            {pq, rt::Access::Read}};
  if (scaling) {
    t.data.push_back({scaling->d, rt::Access::Read});
    t.data.push_back({scaling->z, rt::Access::Write});
  }
  if (from.prev) t.data.push_back({*from.prev, rt::Access::Read});
  rt.submit(std::move(t));
}

void insert_cg_direction(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId z, rt::HandleId s,
                         rt::HandleId p) {
  rt::TaskSpec t = rt::make_task(cg_direction_kernel(), opt, 2.0 * n);
  t.set_args(KrylovArgs{n, 0.0});
  t.data = {{z, rt::Access::Read}, {s, rt::Access::Read}, {p, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
