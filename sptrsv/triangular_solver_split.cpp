// TriangularSolver's split hook: the split model's decision at analysis (choose_split) and the
// n x nrhs submit the split's parts go through. The split itself is SplitSolver.
#include <algorithm>
#include <chrono>
#include <memory>
#include <tuple>
#include <vector>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "planners/split_sptrsv_payback.hpp"
#include "planners/split_sptrsv_structure.hpp"
#include "sptrsv/scheme_timing.hpp"
#include "sptrsv/split_model_store.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

void TriangularSolver::choose_split(const TriangularSolveOptions& options) {
  split_.reset();
  const SplitOptions& so = options.split;
  if (so.mode == SplitMode::Off) return;
  const auto t0 = std::chrono::steady_clock::now();  // the split's whole setup counts from here
  const TriangularPattern& p = host_pattern();
  planners::SplitStructureOptions structure_options = so.structure;
  structure_options.pf_min_rows = analysis_.parallel_friendly_rows;
  structure_options.known_longest_column = p.features().mcl;  // the analysis counted the columns
  structure_options.known_iteration_bound = p.features().long_column_extra_warps;
  // The single-algorithm cut (two passes over the entries) up front only for a forced GPU-GPU split;
  // auto leaves it to decide_split_with_cut: only where the decision can use it and may pay for it.
  const bool single_algorithm = structure_options.single_algorithm;
  structure_options.single_algorithm = so.mode == SplitMode::GpuGpu && single_algorithm;
  planners::SplitStructure structure;
  {
    rt::PausedWorkers paused(rt_);
    structure = planners::analyse_split_structure(p.host_view(), structure_options);
  }
  structure_options.single_algorithm = single_algorithm;
  planners::SplitMachine machine;
  machine.gpu = gpu_ && device_where_ != rt::Where::Cpu;
  machine.cpu_parallel_width = std::max(1, so.cpu_parallel_width);
  // The setup is weighed against the solves the caller expects, at this machine's analysis rate.
  const planners::SplitPayback payback{static_cast<double>(std::max(1, options.expected_solves)),
                                       p.analysis_seconds() * 1e3};
  if (machine.gpu && so.mode == SplitMode::Auto)
    std::tie(structure.gpu_family, structure.gpu_level_factor) = gpu_scheme_steps(unified_gpu_scheme(p, options));
  planners::SplitDecision decision;
  std::string source = "forced";
  planners::SplitMeasurement measurement;
  std::unique_ptr<SplitSolver> measured_split;  // a split the tie-break picked, already built
  if (so.mode == SplitMode::Auto) {
    const LoadedThresholds loaded =
        load_split_thresholds(so.model_file, options.perfmodel_dir, machine.gpu ? cuda_device_name() : "");
    {
      rt::PausedWorkers paused(rt_);  // the cut, where it is computed, is host work
      decision = planners::decide_split_with_cut(p.host_view(), structure, structure_options, loaded.thresholds,
                                                 machine, payback);
    }
    source = loaded.source;
    const std::vector<planners::SplitPolicy> candidates =
        options.device == SolveDevice::Auto ? planners::measure_candidates(decision, so.measure, &measurement.why)
                                            : std::vector<planners::SplitPolicy>{};
    if (options.device != SolveDevice::Auto) measurement.why = "the device is the caller's";
    if (!candidates.empty()) {
      const std::string why = measurement.why;
      const double decided_so_far =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - structure.seconds;
      measurement = measure_split(options, structure, machine, decision, candidates, source, decided_so_far, measured_split);
      if (measurement.measured && measurement.pick != decision.policy) {
        const planners::SplitDecision model = decision;
        decision = planners::forced_split(structure, measurement.pick, machine);
        decision.predicted_ms = model.predicted_ms;
        decision.setup_ms = model.setup_ms;
        decision.expected_solves = model.expected_solves;
        decision.reason = "measured tie-break; the model: " + model.reason;
      }
      measurement.why = why + "; " + measurement.why;
    }
  } else {
    decision = planners::forced_split(structure, forced_policy(so.mode), machine);  // InvalidArgument naming why
  }
  // Everything since t0 but the structure (the cut included) and the measurement, which count apart.
  const double decide_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() -
                                structure.seconds - (measurement.measured ? measurement.seconds : 0.0);
  split_ = measured_split ? std::move(measured_split)
                          : std::make_unique<SplitSolver>(rt_, p, structure, decision, options, source, decide_seconds);
  if (so.mode == SplitMode::Auto) split_->set_measurement(std::move(measurement));
  if (split_->active()) {
    variant_ = std::string("split:") + planners::to_string(decision.policy);
    return;
  }
  // A unified decision on the CPU moves the solves there when the caller left the device to us.
  if (options.device != SolveDevice::Auto) return;
  if (decision.policy == planners::SplitPolicy::UnifiedCpu || decision.policy == planners::SplitPolicy::UnifiedCpuLevels) {
    gpu_ = false;
    device_where_ = rt::Where::Cpu;
    cpu_mode_ = decision.policy == planners::SplitPolicy::UnifiedCpu ? CpuMode::Serial : CpuMode::ParallelTask;
  }
}

void TriangularSolver::submit(rt::HandleId b, rt::HandleId x, int nrhs) {
  if (!pattern_ && !device_) throw InvalidArgument("TriangularSolver::submit before analyze");
  if (b == x) throw InvalidArgument("TriangularSolver::submit: b and x must be two handles (x may not alias b)");
  if (nrhs < 1) throw InvalidArgument("TriangularSolver::submit: nrhs must be at least 1");
  if (shape().n == 0) return;
  submit_solve(b, x, nrhs, false);
}

}  // namespace hetsparse::sptrsv
