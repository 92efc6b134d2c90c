// TriangularSolver's analysis of a host CSR or of a CSR in GPU memory, and its scheme choice; the
// data registration and the solves are in triangular_solver.cpp.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"
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

AnalysisPlace parse_analysis_place(const std::string& name) {
  static constexpr Named<AnalysisPlace> kPlaces[] = {
      {AnalysisPlace::Auto, "auto"}, {AnalysisPlace::Host, "host"}, {AnalysisPlace::Gpu, "gpu"}};
  return parse_named(name, kPlaces, "SpTRSV analysis place");
}

bool TriangularSolver::analyses_on_gpu(const TriangularSolveOptions& o) const {
  if (o.analysis_place == AnalysisPlace::Host) return false;
  if (o.device != SolveDevice::Auto && o.device != SolveDevice::Gpu) return false;
  if (o.split.mode != SplitMode::Off || o.cpu_mode != CpuMode::Serial) return false;
  if (o.variant == "auto") {  // a search times schemes on the host pattern's device copies
    SelectionOptions so;
    so.mode = o.select;
    so.perfmodel_dir = o.perfmodel_dir;
    return selects_by_model(so);
  }
  const SchemeSpec spec = parse_scheme(o.variant);
  return spec.kind == SchemeKind::Variant || prepares_from_device_matrix(spec);
}

void TriangularSolver::analyze(const Csr& T, Triangle tri, bool unit_diagonal, const TriangularSolveOptions& options) {
  // Without a CUDA worker every solve runs on a CPU: the chosen scheme says so.
  const bool gpu = check_options(options, rt_);
  const AnalysisOptions analysis = analysis_options(options, gpu);
  const bool small = T.rows <= kHostAnalysisMaxRows && T.nnz() <= kHostAnalysisMaxEntries;
  if (gpu && analyses_on_gpu(options) && !(small && options.analysis_place == AnalysisPlace::Auto)) {
    // On the device of the caller's current CUDA context (the first CUDA worker's for the CLI).
    HostInputResult in = analyse_host_input(T, -1, tri, unit_diagonal, analysis);
    if (in.analysed) {  // else not normalised: the host analysis below normalises it
      options_ = options;
      upload_seconds_ = in.upload_seconds;
      install(nullptr, std::move(in.analysed), analysis, tri, unit_diagonal, options, gpu, true);
      return;
    }
  }
  std::unique_ptr<TriangularPattern> pattern;
  {
    rt::PausedWorkers paused(rt_);  // host-only work: the workers' polling would slow it down
    pattern = std::make_unique<TriangularPattern>(T, tri, unit_diagonal, analysis);
  }
  install(std::move(pattern), nullptr, analysis, tri, unit_diagonal, options, gpu, false);
}

void TriangularSolver::analyze_device(kernels::DeviceCsrView T, int cuda_device, Triangle tri, bool unit_diagonal,
                                      const TriangularSolveOptions& options) {
  const bool gpu = check_options(options, rt_);
  T.upper = tri == Triangle::Upper;
  const AnalysisOptions analysis = analysis_options(options, gpu);
  DeviceInputResult input =
      analyse_device_input(T, cuda_device, unit_diagonal, analysis);  // InvalidArgument without CUDA
  if (!input.analysed) {  // the host analysis normalises it or names the faulty entry
    TriangularSolveOptions host = options;
    host.analysis_place = AnalysisPlace::Host;  // it was just refused on the GPU
    analyze(input.host, tri, unit_diagonal, host);
    return;
  }
  install(nullptr, std::move(input.analysed), analysis, tri, unit_diagonal, options, gpu, false);
}

void TriangularSolver::install(std::unique_ptr<TriangularPattern> pattern, std::unique_ptr<DeviceAnalysed> device,
                               const AnalysisOptions& analysis, Triangle tri, bool unit_diagonal,
                               const TriangularSolveOptions& options, bool gpu, bool host_input) {
  adopt(std::move(pattern), std::move(device), analysis, tri, unit_diagonal, options, gpu);
  host_input_ = host_input;
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
  host_pattern_seconds_ = 0;
  device_matrix_ = DeviceMatrix{};
  if (device_) {
    const kernels::TriangularDeviceView& v = device_->view;
    device_matrix_.view = v;
    device_matrix_.levels.n = v.n;
    device_matrix_.levels.upper = v.upper;
    device_matrix_.levels.num_levels = v.num_levels;
    device_matrix_.levels.level_ptr = v.host_level_ptr;
    device_matrix_.levels.level_nnz = v.host_level_nnz;
    device_matrix_.nnz = device_->nnz;
    device_matrix_.longest_off_diagonals = static_cast<index_t>(std::max<std::int64_t>(device_->features.rnnz_max - 1, 0));
  }
  analysis_ = analysis;
  tri_ = tri;
  unit_diagonal_ = unit_diagonal;
  device_where_ = solve_where(options.device, gpu);
  host_place_ = HostSolvePlacement{};
  cpu_mode_ = options.cpu_mode;
  cpu_min_entries_ = options.cpu_min_entries;
  cpu_chunks_ = options.cpu_chunks;
  cpu_fork_join_ = options.cpu_fork_join;
  inline_solves_ = options.inline_solves;
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
      // A host CSR analysed on the GPU keeps the host path's space (powered forms included) and,
      // when the model cannot pick, its search on a host pattern built from a download.
      const std::vector<std::string>& candidates =
          host_input_ ? candidate_schemes(sh.n, sh.nnz, sh.num_levels, device_->features.rnnz_max)
                      : unpowered_candidates(sh.n, sh.nnz, sh.num_levels);
      selection_ = select_scheme_by_model(device_->features, candidates, so);
      if (host_input_ && selection_.how != "model") {
        const double spent = selection_.seconds;
        const TriangularPattern& p = host_pattern();  // timed apart (host_pattern_seconds_)
        selection_ = select_scheme(p, so);
        selection_.seconds += spent;
      }
    } else {
      selection_ = select_scheme(host_pattern(), so);
    }
    variant_ = selection_.scheme;
  } else {
    variant_ = options.variant;
  }
  // Host-vector solves where they finish first, when the caller left the device to the solver.
  if (options.device == SolveDevice::Auto && device_where_ == rt::Where::Cuda && cpu_mode_ == CpuMode::Serial &&
      rt_.cpu_workers() > 0)
    host_place_ = place_host_solves(sh.n, sh.nnz, sh.num_levels);
  try {
    prepare_scheme();
  } catch (const InvalidArgument& e) {
    // "auto" may pick a powered form whose transform the limits then refuse (too many entries, too
    // much growth): the model's pick among the unpowered schemes, rather than a failed analysis.
    if (options.variant != "auto" || check_scheme(variant_) != SchemeKind::Powered) throw;
    const std::string refused = variant_ + " refused (" + e.what() + ")";
    selection_ = select_scheme_by_model(features(), unpowered_candidates(sh.n, sh.nnz, sh.num_levels), so);
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
    worker_schemes_ = std::make_unique<WorkerSchemes>(scheme_source(), variant_);
  }
}

SchemeSource TriangularSolver::scheme_source() const {
  SchemeSource s;
  s.pattern = [this]() -> const TriangularPattern& { return host_pattern(); };
  if (device_) {
    s.device = &device_matrix_;
    s.device_ordinal = device_->device;
  }
  return s;
}

const TriangularPattern& TriangularSolver::host_pattern() const {
  std::lock_guard<std::mutex> lock(pattern_mutex_);
  if (!pattern_ && device_) {
    const auto t0 = std::chrono::steady_clock::now();
    Csr normalised = download_normalised(*device_);
    // Not paused: a worker may be waiting here for the pattern its scheme needs (WorkerSchemes).
    pattern_ = std::make_unique<TriangularPattern>(normalised, tri_, unit_diagonal_, analysis_);
    host_pattern_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (!pattern_) throw InvalidArgument("TriangularSolver::pattern before analyze");
  return *pattern_;
}

}  // namespace hetsparse::sptrsv
