// TriangularSolver: analysis, variant choice, data registration and one task per solve.
#include "sptrsv/triangular_solver.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "sptrsv/selection_store.hpp"

namespace hetsparse::sptrsv {

// The registered arrays of the pattern. Values (and the level-ordered values) are registered
// apart, since update_values replaces those vectors.
struct TriangularSolver::Handles {
  rt::DataHandle rowptr, colind, values;
  rt::DataHandle level_rows, segments, level_segments;
  rt::DataHandle level_rowptr, level_colind, level_values;
};

namespace {

template <class T>
rt::DataHandle read_only_vector(rt::TaskRuntime& rt, const std::vector<T>& v) {
  // Registered for Read accesses only: StarPU never writes to the host copy.
  return {rt, rt.register_vector({const_cast<T*>(v.data()), v.size(), sizeof(T)})};
}

}  // namespace

TriangularSolver::TriangularSolver(rt::TaskRuntime& runtime) : rt_(runtime) {}

TriangularSolver::~TriangularSolver() = default;

void TriangularSolver::release_matrix() {
  level_tasks_.reset();
  handles_.reset();  // unregisters the previous matrix, if any
  worker_schemes_.reset();
}

TriangularSolver::Shape TriangularSolver::shape() const {
  Shape sh;
  if (device_) {
    const kernels::TriangularDeviceView& v = device_->view;
    sh.n = v.n;
    sh.upper = v.upper;
    sh.nnz = device_->nnz;
    sh.num_levels = v.num_levels;
    sh.num_segments = v.num_segments;
    sh.num_level_segments = v.num_level_segments;
    sh.level_ptr = v.host_level_ptr;
    sh.level_nnz = v.host_level_nnz;
    sh.level_copy = v.level_values != nullptr;
    return sh;
  }
  const TriangularPattern& p = *pattern_;
  const kernels::TriangularView v = p.host_view();
  sh.n = p.rows();
  sh.upper = p.triangle() == Triangle::Upper;
  sh.nnz = p.nnz();
  sh.num_levels = p.num_levels();
  sh.num_segments = v.num_segments;
  sh.num_level_segments = v.num_level_segments;
  sh.level_ptr = p.level_ptr().data();
  sh.level_nnz = p.level_nnz().data();
  sh.level_copy = p.has_level_ordered_copy();
  return sh;
}

void TriangularSolver::register_matrix() {
  auto h = std::make_unique<Handles>();
  const bool segments = variant_index_ >= 0, levels = variant_index_ >= 0 || cpu_levels();
  if (device_) {
    const kernels::TriangularDeviceView& v = device_->view;
    const auto n = static_cast<std::size_t>(v.n), nnz = static_cast<std::size_t>(device_->nnz);
    const auto on_gpu = [&](const auto* p, std::size_t count) {
      return rt::DataHandle(rt_, rt_.register_vector({const_cast<void*>(static_cast<const void*>(p)), count, sizeof(*p),
                                                      device_->device}));
    };
    if (n > 0) {
      h->rowptr = on_gpu(v.rowptr, n + 1);
      h->colind = on_gpu(v.colind, nnz);
      h->values = on_gpu(v.values, nnz);
      if (levels) h->level_rows = on_gpu(v.level_rows, n);
      if (segments) {
        h->segments = on_gpu(v.segments, 2 * static_cast<std::size_t>(v.num_segments) + 1);
        h->level_segments = on_gpu(v.level_segments, 2 * static_cast<std::size_t>(v.num_level_segments) + 1);
      }
      if (levels && v.level_values != nullptr) {
        h->level_rowptr = on_gpu(v.level_rowptr, n + 1);
        h->level_colind = on_gpu(v.level_colind, nnz);
        h->level_values = on_gpu(v.level_values, nnz);
      }
    }
    handles_ = std::move(h);
    return;
  }
  const TriangularPattern& p = *pattern_;
  if (p.rows() > 0) {
    h->rowptr = read_only_vector(rt_, p.rowptr());
    h->colind = read_only_vector(rt_, p.colind());
    if (levels) h->level_rows = read_only_vector(rt_, p.level_rows());
    if (segments) {
      h->segments = read_only_vector(rt_, p.segments());
      h->level_segments = read_only_vector(rt_, p.level_segments());
    }
  }
  handles_ = std::move(h);
  register_values();
}

void TriangularSolver::register_values() {
  handles_->values.reset();
  handles_->level_rowptr.reset();
  handles_->level_colind.reset();
  handles_->level_values.reset();
  const TriangularPattern& p = *pattern_;
  if (p.rows() == 0) return;
  handles_->values = read_only_vector(rt_, p.values());
  if ((variant_index_ >= 0 || cpu_levels()) && p.has_level_ordered_copy()) {
    // The pattern hands its level-ordered copy out only through the host view.
    const kernels::TriangularView v = p.host_view();
    const auto n = static_cast<std::size_t>(p.rows());
    const auto nnz = static_cast<std::size_t>(p.nnz());
    handles_->level_rowptr = {rt_, rt_.register_vector({const_cast<index_t*>(v.level_rowptr), n + 1, sizeof(index_t)})};
    handles_->level_colind = {rt_, rt_.register_vector({const_cast<index_t*>(v.level_colind), nnz, sizeof(index_t)})};
    handles_->level_values = {rt_, rt_.register_vector({const_cast<double*>(v.level_values), nnz, sizeof(double)})};
  }
}

void TriangularSolver::update_values(const Csr& T) {
  if (device_) throw InvalidArgument("TriangularSolver::update_values after analyze_device: analyze_device again");
  if (!pattern_) throw InvalidArgument("TriangularSolver::update_values before analyze");
  // Let go of the old values first: update_values replaces the vectors they were registered from.
  handles_->values.reset();
  handles_->level_rowptr.reset();
  handles_->level_colind.reset();
  handles_->level_values.reset();
  try {
    pattern_->update_values(T);
  } catch (...) {
    register_values();  // the pattern is unchanged: register its values again
    throw;
  }
  // The workers' prepared copies hold the old values: prepare again (lazily) from the new ones.
  if (worker_schemes_) worker_schemes_ = std::make_unique<WorkerSchemes>(*pattern_, variant_);
  register_values();
}

void TriangularSolver::solve(const double* b, double* x, int nrhs, bool transpose) {
  if (!pattern_ && !device_) throw InvalidArgument("TriangularSolver::solve before analyze");
  if (nrhs < 1) throw InvalidArgument("TriangularSolver::solve: nrhs must be at least 1");
  const Shape sh = shape();
  const index_t n = sh.n;
  if (n == 0) return;
  const auto ld = static_cast<std::size_t>(n);
  const auto cols = static_cast<std::size_t>(nrhs);

  // b and x as separate handles: a copy of b when they alias (one buffer cannot be two handles).
  std::vector<double> b_copy;
  if (b == x) {
    b_copy.assign(b, b + ld * cols);
    b = b_copy.data();
  }
  rt::DataHandle hb = rt::make_matrix_handle(rt_, const_cast<double*>(b), ld, ld, cols);  // Read only
  rt::DataHandle hx = rt::make_matrix_handle(rt_, x, ld, ld, cols);

  const bool gpu_capable = gpu_ && nrhs == 1 && !transpose;
  if (!gpu_capable && !transpose && cpu_levels()) {  // on CPU workers only: level-scheduled
    submit_cpu_levels(hb.id(), hx.id(), nrhs);
    rt_.wait_all();
    hx.reset();
    return;
  }
  const bool device_data = gpu_capable && variant_index_ >= 0;
  const codelets::SptrsvMatrixHandles th = matrix_handles(device_data, device_data);
  codelets::SptrsvParams params;
  params.n = n;
  params.upper = sh.upper;
  params.transpose = transpose;
  params.nrhs = nrhs;
  params.num_levels = sh.num_levels;
  params.num_segments = sh.num_segments;
  params.num_level_segments = sh.num_level_segments;
  params.host_level_ptr = sh.level_ptr;  // alive until the task completes: we wait below
  params.host_level_nnz = sh.level_nnz;
  params.cuda_variant = std::max(variant_index_, 0);
  params.plans = gpu_capable ? worker_schemes_.get() : nullptr;

  rt::TaskOptions opt;
  opt.name = transpose ? "sptrsv_transpose" : "sptrsv";
  // nrhs > 1 or transposed (or no CUDA in the build): a CPU worker, whatever the device option.
  opt.where = gpu_capable ? device_where_ : rt::Where::Cpu;
  codelets::insert_sptrsv(rt_, opt, th, hb.id(), hx.id(), params, sh.nnz);
  rt_.wait_all();
  hx.reset();  // brings x home
}

codelets::SptrsvMatrixHandles TriangularSolver::matrix_handles(bool device_data, bool levels) const {
  codelets::SptrsvMatrixHandles th;
  th.rowptr = handles_->rowptr.id();
  th.colind = handles_->colind.id();
  th.values = handles_->values.id();
  th.has_device_data = device_data;
  if (device_data) {
    th.segments = handles_->segments.id();
    th.level_segments = handles_->level_segments.id();
  }
  if (levels) {
    th.level_rows = handles_->level_rows.id();
    th.has_level_copy = static_cast<bool>(handles_->level_values);
    if (th.has_level_copy) {
      th.level_rowptr = handles_->level_rowptr.id();
      th.level_colind = handles_->level_colind.id();
      th.level_values = handles_->level_values.id();
    }
  }
  return th;
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
    params.host_level_ptr = p.level_ptr().data();  // alive until the task completes: solve() waits
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

const TriangularFeatures& TriangularSolver::features() const {
  if (device_) return device_->features;
  if (!pattern_) throw InvalidArgument("TriangularSolver::features before analyze");
  return pattern_->features();
}

double TriangularSolver::analysis_seconds() const {
  return device_ ? device_->features.analysis_ms * 1e-3 : pattern_ ? pattern_->analysis_seconds() : 0.0;
}

double TriangularSolver::preprocess_seconds() const {
  return analysis_seconds() + selection_.seconds + (worker_schemes_ ? worker_schemes_->preprocess_seconds() : 0.0);
}

const TriangularPattern& TriangularSolver::pattern() const { return host_pattern(); }

}  // namespace hetsparse::sptrsv
