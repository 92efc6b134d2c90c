// TriangularSolver's solves: registered b and x submitted as the sptrsv task (or the CPU level modes'
// tasks), for host vectors (solve) and for vectors the runtime already holds (submit).
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {
namespace {

// Between the two sizes whose copies were measured (H100 call 7): 8 MB pageable, 33.6 MB pinned.
constexpr std::size_t kPinSolveVectorsBytes = std::size_t{16} << 20;
// Below this, a solve on a GPU copies b and x through the solver's pinned buffers: two host copies
// and two DMAs cost less than two pageable cudaMemcpy, whose fixed cost dominates small vectors
// (docs/benchmarks.md, issue 16, sixteenth session).
constexpr std::size_t kStageSolveVectorsBytes = std::size_t{1} << 20;

}  // namespace

void TriangularSolver::solve(const double* b, double* x, int nrhs, bool transpose) {
  if (!pattern_ && !device_) throw InvalidArgument("TriangularSolver::solve before analyze");
  if (nrhs < 1) throw InvalidArgument("TriangularSolver::solve: nrhs must be at least 1");
  const index_t n = shape().n;
  if (n == 0) return;
  if (nrhs == 1 && !transpose && host_solves_on_cpu()) {
    // One task on host memory: no registration of b and x, no copies (x may be b). Always the same CPU
    // worker, past the scheduler: the matrix stays in that core's caches from one solve to the next.
    rt::TaskOptions opt = solve_task_options(false, false);
    if (rt_.cpu_workers() > 0) {
      opt.workers.cpu_worker = rt_.cpu_workers() - 1;
      opt.direct = true;
    }
    codelets::insert_sptrsv_host(rt_, opt, matrix_handles(false, false), b, x, solve_params(1, false, false),
                                 shape().nnz);
    rt_.wait_all();
    return;
  }
  const auto ld = static_cast<std::size_t>(n);
  const auto cols = static_cast<std::size_t>(nrhs);
  if (ld * cols * sizeof(double) < kStageSolveVectorsBytes && solves_on_gpu(nrhs, transpose)) {
    solve_staged(b, x);
    return;
  }

  // b and x as separate handles: a copy of b when they alias (one buffer cannot be two handles).
  std::vector<double> b_copy;
  if (b == x) {
    b_copy.assign(b, b + ld * cols);
    b = b_copy.data();
  }
  // Pinned for the call only when large: pinning, the DMA and unpinning beat a pageable copy for 33.6 MB
  // (6.4 against 7.3 ms for b and x) but not for 8 MB (2.1 against 1.5 ms), docs/benchmarks.md.
  const bool pin = ld * cols * sizeof(double) >= kPinSolveVectorsBytes;
  rt::DataHandle hb(rt_, rt_.register_matrix({const_cast<double*>(b), ld, ld, cols, pin}));  // Read only
  rt::DataHandle hx(rt_, rt_.register_matrix({x, ld, ld, cols, pin}));
  if (!(nrhs == 1 && !transpose && inline_solves() && solve_inline(hb.id(), hx.id()))) {
    submit_solve(hb.id(), hx.id(), nrhs, transpose);
    rt_.wait_all();
  }
  hx.reset();  // brings x home
}

bool TriangularSolver::host_solves_on_cpu() const {
  if ((split_ && split_->active()) || cpu_mode_ != CpuMode::Serial) return false;
  return device_where_ == rt::Where::Cpu || (gpu_ && device_where_ == rt::Where::Cuda && host_place_.cpu);
}

bool TriangularSolver::solves_on_gpu(int nrhs, bool transpose) const {
  if (nrhs != 1 || transpose) return false;
  if (split_ && split_->active()) return planners::uses_gpu(split_->decision().policy);
  return gpu_ && device_where_ == rt::Where::Cuda;
}

TriangularSolver::StagedVectors::StagedVectors(rt::TaskRuntime& runtime, std::size_t n, bool with_handles)
    : rt(runtime), registered(with_handles), b(n), x(n) {
  if (registered) {
    hb = rt::DataHandle(rt, rt.register_matrix({b.data(), n, n, 1, true}));
    hx = rt::DataHandle(rt, rt.register_matrix({x.data(), n, n, 1, true}));
  } else {  // DMA straight from and to them; pageable memory would still work, staged by the driver
    rt.pin_host_range(b.data(), n * sizeof(double));
    rt.pin_host_range(x.data(), n * sizeof(double));
  }
}

TriangularSolver::StagedVectors::~StagedVectors() {
  if (registered) return;  // the handles unpin what they pinned
  rt.unpin_host_range(b.data());
  rt.unpin_host_range(x.data());
}

bool TriangularSolver::stages_in_task() const {
  return (worker_schemes_ && gpu_ && device_where_ == rt::Where::Cuda && !(split_ && split_->active())) ||
         inline_solves();
}

void TriangularSolver::solve_staged(const double* b, double* x) {
  std::lock_guard<std::mutex> lock(staged_mutex_);
  const auto n = static_cast<std::size_t>(shape().n);
  const bool in_task = stages_in_task();
  if (!staged_ || staged_->registered == in_task) staged_ = std::make_unique<StagedVectors>(rt_, n, !in_task);
  if (in_task) {
    // One task: b in, the solve and x out on the worker's stream, no data requests around it.
    std::copy(b, b + n, staged_->b.data());
    if (!(inline_solves() && solve_host_inline(staged_->b.data(), staged_->x.data()))) {
      submit_solve_host(staged_->b.data(), staged_->x.data());
      rt_.wait_all();
    }
    std::copy(staged_->x.begin(), staged_->x.end(), x);  // x may be b: b was copied first
    return;
  }
  {
    // Write access: the GPU's copy of the last b is dropped, nothing is fetched.
    rt::HostAccess in(rt_, staged_->hb.id(), rt::Access::Write);
    std::copy(b, b + n, staged_->b.data());
  }
  submit_solve(staged_->hb.id(), staged_->hx.id(), 1, false);
  rt_.wait_all();
  rt::HostAccess out(rt_, staged_->hx.id(), rt::Access::Read);  // x comes home by DMA
  std::copy(staged_->x.begin(), staged_->x.end(), x);  // x may be b: b was copied first
}

void TriangularSolver::submit(rt::HandleId b, rt::HandleId x) {
  if (!pattern_ && !device_) throw InvalidArgument("TriangularSolver::submit before analyze");
  if (b == x) throw InvalidArgument("TriangularSolver::submit: b and x must be two handles (x may not alias b)");
  if (shape().n == 0) return;
  submit_solve(b, x, 1, false);
}

void TriangularSolver::submit_solve(rt::HandleId hb, rt::HandleId hx, int nrhs, bool transpose) {
  if (split_ && split_->active() && !transpose) {  // split hook
    split_->submit(hb, hx, nrhs);
    return;
  }
  const Shape sh = shape();
  const bool gpu_capable = gpu_ && nrhs == 1 && !transpose;
  if (!gpu_capable && !transpose && cpu_levels()) {  // on CPU workers only: level-scheduled
    submit_cpu_levels(hb, hx, nrhs);
    return;
  }
  const bool device_data = gpu_capable && variant_index_ >= 0;
  const codelets::SptrsvMatrixHandles th = matrix_handles(device_data, device_data);
  codelets::insert_sptrsv(rt_, solve_task_options(gpu_capable, transpose), th, hb, hx,
                          solve_params(nrhs, transpose, gpu_capable), sh.nnz);
}

void TriangularSolver::submit_solve_host(const double* b, double* x) {
  // prepared_params: a plain variant staged for inline solves has its plans in inline_plans()
  codelets::insert_sptrsv_host(rt_, solve_task_options(true, false), matrix_handles(false, false), b, x,
                               prepared_params(), shape().nnz);
}

codelets::SptrsvParams TriangularSolver::solve_params(int nrhs, bool transpose, bool gpu_capable) const {
  const Shape sh = shape();
  codelets::SptrsvParams params;
  params.n = sh.n;
  params.upper = sh.upper;
  params.transpose = transpose;
  params.nrhs = nrhs;
  params.num_levels = sh.num_levels;
  params.num_segments = sh.num_segments;
  params.num_level_segments = sh.num_level_segments;
  params.host_level_ptr = sh.level_ptr;  // owned by the analysis, which outlives the solver's tasks
  params.host_level_nnz = sh.level_nnz;
  params.cuda_variant = std::max(variant_index_, 0);
  params.plans = gpu_capable ? worker_schemes_.get() : nullptr;
  return params;
}

rt::TaskOptions TriangularSolver::solve_task_options(bool gpu_capable, bool transpose) const {
  rt::TaskOptions opt;
  opt.name = transpose ? "sptrsv_transpose" : "sptrsv";
  // nrhs > 1 or transposed (or no CUDA in the build): a CPU worker, whatever the device option.
  opt.where = gpu_capable ? device_where_ : rt::Where::Cpu;
  opt.direct = gpu_capable;  // a solve is latency-bound: past the scheduler when one worker may run it
  return opt;
}

void TriangularSolver::submit_cpu_levels(rt::HandleId b, rt::HandleId x, int nrhs) {
  const TriangularPattern& p = host_pattern();
  const codelets::SptrsvMatrixHandles th = matrix_handles(false, true);
  if (cpu_mode_ == CpuMode::ParallelTask) {
    codelets::SptrsvLevelParams params;
    params.n = p.rows();
    params.upper = p.triangle() == Triangle::Upper;
    params.nrhs = nrhs;
    params.num_levels = p.num_levels();
    params.host_level_ptr = p.level_ptr().data();  // owned by the analysis, which outlives the tasks
    params.host_level_nnz = p.level_nnz().data();
    params.min_entries_per_share = cpu_min_entries_ > 0 ? cpu_min_entries_ : kParallelTaskMinEntries;
    rt::TaskOptions opt;
    opt.name = "sptrsv_parallel";
    opt.where = rt::Where::Cpu;
    codelets::insert_sptrsv_parallel(
        rt_, opt, th, b, x, params, p.nnz(),
        cpu_fork_join_ ? codelets::ParallelTaskKind::ForkJoin : codelets::ParallelTaskKind::Spmd);
    return;
  }
  if (!level_tasks_) {
    LevelTaskOptions o;
    o.chunks = cpu_chunks_ > 0 ? cpu_chunks_ : std::max(1, rt_.cpu_workers());
    o.min_entries_per_task = cpu_min_entries_ > 0 ? cpu_min_entries_ : kLevelTaskMinEntries;
    level_tasks_ = std::make_unique<LevelTaskPlanner>(rt_, o);
  }
  level_tasks_->submit(p.host_view(), th, b, x, nrhs);
}

}  // namespace hetsparse::sptrsv
