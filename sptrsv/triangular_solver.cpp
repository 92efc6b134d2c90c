// TriangularSolver: analysis, variant choice, data registration and one task per solve.
#include "sptrsv/triangular_solver.hpp"

#include <algorithm>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "runtime/runtime.hpp"
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

void TriangularSolver::analyze(const Csr& T, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options) {
  const std::vector<std::string> variants = codelets::sptrsv_cuda_variants();
  if (variants.empty()) {
    if (options.device == rt::Where::Cuda) {
      throw InvalidArgument("TriangularSolver: device gpu asked for, but this build has no CUDA");
    }
    if (options.variant != "auto") {
      throw InvalidArgument("TriangularSolver: scheme '" + options.variant + "' asked for, but this build has no CUDA");
    }
  } else if (options.variant != "auto") {
    check_scheme(options.variant);  // InvalidArgument naming it
  }
  const bool gpu = !variants.empty() && options.device != rt::Where::Cpu;
  if (options.cpu_min_entries < 0 || options.cpu_chunks < 0)
    throw InvalidArgument("TriangularSolver: cpu_min_entries and cpu_chunks must not be negative");

  AnalysisOptions analysis = options.analysis;
  if (gpu && options.calibrated_fusion_threshold) {
    const std::string name = cuda_device_name();
    if (!name.empty()) {
      const SelectionStore store(resolve_perfmodel_dir(options.perfmodel_dir), name);
      if (const std::optional<double> t = store.fusion_threshold()) analysis.fusion_threshold = *t;
    }
  }
  std::unique_ptr<TriangularPattern> pattern;
  {
    rt::PausedWorkers paused(rt_);  // host-only work: the workers' polling would slow it down
    pattern = std::make_unique<TriangularPattern>(T, tri, unit_diagonal, analysis);
  }
  level_tasks_.reset();
  handles_.reset();  // unregisters the previous matrix, if any
  worker_schemes_.reset();
  pattern_ = std::move(pattern);
  device_ = options.device;
  cpu_mode_ = options.cpu_mode;
  cpu_min_entries_ = options.cpu_min_entries;
  cpu_chunks_ = options.cpu_chunks;
  cpu_fork_join_ = options.cpu_fork_join;
  gpu_ = gpu;
  selection_ = Selection{};
  variant_index_ = -1;
  if (!gpu) {
    variant_ = cpu_mode_ == CpuMode::Serial ? "cpu_serial"
               : cpu_mode_ == CpuMode::ParallelTask ? "cpu_parallel_task" : "cpu_level_tasks";
  } else {
    if (options.variant == "auto") {
      SelectionOptions so;
      so.mode = options.select;
      so.perfmodel_dir = options.perfmodel_dir;
      so.matrix_name = options.matrix_name;
      selection_ = select_scheme(*pattern_, so);
      variant_ = selection_.scheme;
    } else {
      variant_ = options.variant;
    }
    if (check_scheme(variant_) == SchemeKind::Variant) {
      variant_index_ = static_cast<int>(std::find(variants.begin(), variants.end(), variant_) - variants.begin());
    } else {
      worker_schemes_ = std::make_unique<WorkerSchemes>(*pattern_, variant_);
    }
  }
  register_matrix();
}

void TriangularSolver::register_matrix() {
  auto h = std::make_unique<Handles>();
  const TriangularPattern& p = *pattern_;
  if (p.rows() > 0) {
    h->rowptr = read_only_vector(rt_, p.rowptr());
    h->colind = read_only_vector(rt_, p.colind());
    if (variant_index_ >= 0 || cpu_levels()) h->level_rows = read_only_vector(rt_, p.level_rows());
    if (variant_index_ >= 0) {
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
  if (!pattern_) throw InvalidArgument("TriangularSolver::solve before analyze");
  if (nrhs < 1) throw InvalidArgument("TriangularSolver::solve: nrhs must be at least 1");
  const TriangularPattern& p = *pattern_;
  const index_t n = p.rows();
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
  params.upper = p.triangle() == Triangle::Upper;
  params.transpose = transpose;
  params.nrhs = nrhs;
  params.num_levels = p.num_levels();
  const kernels::TriangularView view = p.host_view();
  params.num_segments = view.num_segments;
  params.num_level_segments = view.num_level_segments;
  params.host_level_ptr = p.level_ptr().data();  // alive until the task completes: we wait below
  params.host_level_nnz = p.level_nnz().data();
  params.cuda_variant = std::max(variant_index_, 0);
  params.plans = gpu_capable ? worker_schemes_.get() : nullptr;

  rt::TaskOptions opt;
  opt.name = transpose ? "sptrsv_transpose" : "sptrsv";
  // nrhs > 1 or transposed (or no CUDA in the build): a CPU worker, whatever the device option.
  opt.where = gpu_capable ? device_ : rt::Where::Cpu;
  codelets::insert_sptrsv(rt_, opt, th, hb.id(), hx.id(), params, p.nnz());
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
  const TriangularPattern& p = *pattern_;
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
    codelets::insert_sptrsv_parallel(rt_, opt, th, b, x, params, p.nnz(),
                                     cpu_fork_join_ ? codelets::ParallelTaskKind::ForkJoin
                                                    : codelets::ParallelTaskKind::Spmd);
    return;
  }
  if (!level_tasks_) {
    LevelTaskOptions o;
    const auto* starpu = dynamic_cast<const rt::Runtime*>(&rt_);  // others do not know their CPU workers
    o.chunks = cpu_chunks_ > 0 ? cpu_chunks_ : starpu ? std::max(1, starpu->num_cpu_workers()) : 2;
    o.min_entries_per_task = cpu_min_entries_ > 0 ? cpu_min_entries_ : kLevelTaskMinEntries;
    level_tasks_ = std::make_unique<LevelTaskPlanner>(rt_, o);
  }
  level_tasks_->submit(p.host_view(), th, b, x, nrhs);
}

const TriangularFeatures& TriangularSolver::features() const {
  if (!pattern_) throw InvalidArgument("TriangularSolver::features before analyze");
  return pattern_->features();
}

double TriangularSolver::analysis_seconds() const { return pattern_ ? pattern_->analysis_seconds() : 0.0; }

double TriangularSolver::preprocess_seconds() const {
  return analysis_seconds() + selection_.seconds + (worker_schemes_ ? worker_schemes_->preprocess_seconds() : 0.0);
}

const TriangularPattern& TriangularSolver::pattern() const {
  if (!pattern_) throw InvalidArgument("TriangularSolver::pattern before analyze");
  return *pattern_;
}

}  // namespace hetsparse::sptrsv
