// TriangularSolver's analysis of a host CSR or of a CSR in GPU memory, and its scheme choice; the
// data registration and the solves are in triangular_solver.cpp.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

AnalysisOptions TriangularSolver::analysis_options(const TriangularSolveOptions& options, bool gpu) const {
  AnalysisOptions analysis = options.analysis;
  if (gpu && options.calibrated_fusion_threshold) {
    const std::string name = cuda_device_name();
    if (!name.empty()) {
      const SelectionStore store(resolve_perfmodel_dir(options.perfmodel_dir), name);
      if (const std::optional<double> t = store.fusion_threshold()) analysis.fusion_threshold = *t;
    }
  }
  return analysis;
}

namespace {

// InvalidArgument for options this build cannot honour; whether solves may go to CUDA workers.
bool check_options(const TriangularSolveOptions& options, const rt::TaskRuntime& rt) {
  const std::vector<std::string> variants = codelets::sptrsv_cuda_variants();
  if (variants.empty()) {
    if (options.device == SolveDevice::Gpu) {
      throw InvalidArgument("TriangularSolver: device gpu asked for, but this build has no CUDA");
    }
    if (options.variant != "auto") {
      throw InvalidArgument("TriangularSolver: scheme '" + options.variant + "' asked for, but this build has no CUDA");
    }
  } else if (options.variant != "auto") {
    check_scheme(options.variant);  // InvalidArgument naming it
  }
  if (options.cpu_min_entries < 0 || options.cpu_chunks < 0)
    throw InvalidArgument("TriangularSolver: cpu_min_entries and cpu_chunks must not be negative");
  if (variants.empty() || options.device == SolveDevice::Cpu) return false;
  if (rt.cuda_workers() == 0 && options.device == SolveDevice::Gpu)
    throw InvalidArgument("TriangularSolver: device gpu asked for, but the runtime has no CUDA worker");
  return rt.cuda_workers() > 0;
}

}  // namespace

void TriangularSolver::analyze(const Csr& T, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options) {
  // Without a CUDA worker every solve runs on a CPU: the chosen scheme says so.
  const bool gpu = check_options(options, rt_);
  const AnalysisOptions analysis = analysis_options(options, gpu);
  std::unique_ptr<TriangularPattern> pattern;
  {
    rt::PausedWorkers paused(rt_);  // host-only work: the workers' polling would slow it down
    pattern = std::make_unique<TriangularPattern>(T, tri, unit_diagonal, analysis);
  }
  install(std::move(pattern), nullptr, analysis, tri, unit_diagonal, options, gpu);
}

void TriangularSolver::analyze_device(kernels::DeviceCsrView T, int cuda_device, Triangle tri, bool unit_diagonal,
                                      const TriangularSolveOptions& options) {
  const bool gpu = check_options(options, rt_);
  T.upper = tri == Triangle::Upper;
  const AnalysisOptions analysis = analysis_options(options, gpu);
  DeviceInputResult input =
      analyse_device_input(T, cuda_device, unit_diagonal, analysis);  // InvalidArgument without CUDA
  if (!input.analysed) {  // the host analysis normalises it or names the faulty entry
    analyze(input.host, tri, unit_diagonal, options);
    return;
  }
  install(nullptr, std::move(input.analysed), analysis, tri, unit_diagonal, options, gpu);
}

void TriangularSolver::install(std::unique_ptr<TriangularPattern> pattern, std::unique_ptr<DeviceAnalysed> device,
                               const AnalysisOptions& analysis, Triangle tri, bool unit_diagonal,
                               const TriangularSolveOptions& options, bool gpu) {
  adopt(std::move(pattern), std::move(device), analysis, tri, unit_diagonal, options, gpu);
  choose_split(options);  // split hook: a split needs no unified scheme
  if (!split_ || !split_->active()) choose_scheme(options);
  register_matrix();
}

void TriangularSolver::adopt(std::unique_ptr<TriangularPattern> pattern, std::unique_ptr<DeviceAnalysed> device,
                             const AnalysisOptions& analysis, Triangle tri, bool unit_diagonal,
                             const TriangularSolveOptions& options, bool gpu) {
  release_matrix();
  pattern_ = std::move(pattern);
  device_ = std::move(device);
  analysis_ = analysis;
  tri_ = tri;
  unit_diagonal_ = unit_diagonal;
  device_where_ = solve_where(options.device, gpu);
  cpu_mode_ = options.cpu_mode;
  cpu_min_entries_ = options.cpu_min_entries;
  cpu_chunks_ = options.cpu_chunks;
  cpu_fork_join_ = options.cpu_fork_join;
  gpu_ = gpu;
  selection_ = Selection{};
  variant_index_ = -1;
}

void TriangularSolver::choose_scheme(const TriangularSolveOptions& options) {
  if (!gpu_) {
    variant_ = cpu_mode_ == CpuMode::Serial         ? "cpu_serial"
               : cpu_mode_ == CpuMode::ParallelTask ? "cpu_parallel_task"
                                                    : "cpu_level_tasks";
    return;
  }
  SelectionOptions so;
  so.mode = options.select;
  so.perfmodel_dir = options.perfmodel_dir;
  so.matrix_name = options.matrix_name;
  so.expected_solves = options.expected_solves;
  const Shape sh = shape();
  if (options.variant == "auto") {
    if (device_ && options.select != SelectMode::Search) {
      selection_ = select_scheme_by_model(device_->features, unpowered_candidates(sh.n, sh.nnz, sh.num_levels), so);
    } else {
      selection_ = select_scheme(host_pattern(), so);
    }
    variant_ = selection_.scheme;
  } else {
    variant_ = options.variant;
  }
  try {
    prepare_scheme();
  } catch (const InvalidArgument& e) {
    // "auto" may pick a powered form whose transform the limits then refuse (too many entries, too
    // much growth): the model's pick among the unpowered schemes, rather than a failed analysis.
    if (options.variant != "auto" || check_scheme(variant_) != SchemeKind::Powered) throw;
    const std::string refused = variant_ + " refused (" + e.what() + ")";
    selection_ = select_scheme_by_model(host_pattern().features(), unpowered_candidates(sh.n, sh.nnz, sh.num_levels), so);
    selection_.note = refused + (selection_.note.empty() ? "" : "; " + selection_.note);
    variant_ = selection_.scheme;
    prepare_scheme();
  }
}

void TriangularSolver::prepare_scheme() {
  if (check_scheme(variant_) == SchemeKind::Variant) {
    const std::vector<std::string> variants = codelets::sptrsv_cuda_variants();
    variant_index_ = static_cast<int>(std::find(variants.begin(), variants.end(), variant_) - variants.begin());
  } else {
    worker_schemes_ = std::make_unique<WorkerSchemes>(host_pattern(), variant_);
  }
}

const TriangularPattern& TriangularSolver::host_pattern() const {
  if (!pattern_ && device_) {
    rt::PausedWorkers paused(rt_);
    pattern_ = std::make_unique<TriangularPattern>(download_normalised(*device_), tri_, unit_diagonal_, analysis_);
  }
  if (!pattern_) throw InvalidArgument("TriangularSolver::pattern before analyze");
  return *pattern_;
}

}  // namespace hetsparse::sptrsv
