// TriangularSolver's synchronous solves on a GPU run in the calling thread (TaskRuntime::run_inline):
// the solve on handles, and the host-vector solves that would otherwise be one CUDA task. A task's
// round trip through the CUDA worker costs more than many solves' kernels (docs/benchmarks.md, issue
// 16); the caller waits for these solves anyway.
#include <memory>
#include <mutex>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

bool TriangularSolver::inline_solves() const {
  return inline_solves_ && gpu_ && device_where_ == rt::Where::Cuda && rt_.cuda_workers() > 0 &&
         !(split_ && split_->active());
}

codelets::SptrsvCudaPlans* TriangularSolver::inline_plans() {
  if (worker_schemes_) return worker_schemes_.get();
  std::lock_guard<std::mutex> lock(inline_mutex_);
  // A plain variant solves as a task on the registered arrays; inline it solves through a prepared
  // plain variant: on the GPU analysis's arrays, or on its own upload of the host pattern.
  if (!inline_variant_) inline_variant_ = std::make_unique<WorkerSchemes>(scheme_source(), variant_);
  return inline_variant_.get();
}

rt::TaskOptions TriangularSolver::inline_options() const {
  rt::TaskOptions opt = solve_task_options(true, false);
  if (device_) opt.workers.cuda_device = device_->device;  // where the analysis's arrays are
  return opt;
}

codelets::SptrsvParams TriangularSolver::prepared_params() {
  codelets::SptrsvParams params = solve_params(1, false, true);
  params.plans = inline_plans();
  return params;
}

bool TriangularSolver::solve_inline(rt::HandleId b, rt::HandleId x) {
  return codelets::run_sptrsv_inline(rt_, inline_options(), b, x, prepared_params(), shape().nnz);
}

bool TriangularSolver::solve_host_inline(const double* b, double* x) {
  return codelets::run_sptrsv_host_inline(rt_, inline_options(), b, x, prepared_params(), shape().nnz);
}

void TriangularSolver::solve(rt::HandleId b, rt::HandleId x) {
  if (!pattern_ && !device_) throw InvalidArgument("TriangularSolver::solve before analyze");
  if (b == x) throw InvalidArgument("TriangularSolver::solve: b and x must be two handles (x may not alias b)");
  if (shape().n == 0) return;
  if (inline_solves() && solve_inline(b, x)) return;
  submit_solve(b, x, 1, false);
  rt_.wait_all();
}

}  // namespace hetsparse::sptrsv
