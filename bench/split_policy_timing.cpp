// bench_sptrsv_split run: the policies' solvers on one triangle, their timed solves in rounds, and
// their table columns (bench/split_policy_timing.hpp).
#include "bench/split_policy_timing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/common.hpp"
#include "cli/vector_compare.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/scheme_timing.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/split_solver.hpp"

namespace hetsparse::bench {
namespace {

// One timed solve of t (x filled with NaN first, so a solve that writes nothing is seen).
double timed_solve(PolicyTiming& t, const std::vector<double>& b) {
  std::fill(t.x.begin(), t.x.end(), std::nan(""));
  const double t0 = cli::now_seconds();
  t.solver->solve(b.data(), t.x.data());
  return cli::now_seconds() - t0;
}

}  // namespace

sptrsv::TriangularSolveOptions policy_options(const std::string& policy, const SplitRunOptions& ro,
                                              const sptrsv::TriangularPattern& whole, const std::string& name) {
  sptrsv::TriangularSolveOptions o;
  o.perfmodel_dir = ro.perfmodel_dir;
  o.matrix_name = name;
  o.split.cpu_parallel_width = ro.cpu_width;
  o.split.model_file = ro.model_file;
  if (policy == "cpu" || policy == "cpu-levels") {
    o.device = sptrsv::SolveDevice::Cpu;
    o.cpu_mode = policy == "cpu" ? sptrsv::CpuMode::Serial : sptrsv::CpuMode::ParallelTask;
  } else if (policy == "gpu") {
    o.device = sptrsv::SolveDevice::Gpu;
    // The trained model's pick, never a 30 s search; the fixed heuristic without a model.
    const std::string gpu = sptrsv::cuda_device_name();
    const bool model = !gpu.empty() &&
                       sptrsv::find_model_file(sptrsv::SelectionStore(sptrsv::resolve_perfmodel_dir(ro.perfmodel_dir), gpu));
    o.select = sptrsv::SelectMode::Model;
    o.variant = model ? "auto" : sptrsv::heuristic_scheme(whole.features());
  } else if (policy == "auto") {
    o.split.mode = sptrsv::SplitMode::Auto;
    o.split.measure = ro.measure;
  } else {
    o.split.mode = sptrsv::parse_split_mode(policy);
  }
  return o;
}

PolicyTiming start_policy(rt::TaskRuntime& r, const Csr& T, const std::string& policy, const SplitRunOptions& ro,
                          const sptrsv::TriangularPattern& whole, const std::string& name, const std::vector<double>& b) {
  PolicyTiming t;
  t.policy = policy;
  t.x.resize(b.size());
  try {
    const auto start = [&](const sptrsv::TriangularSolveOptions& o) {
      t.solver = std::make_unique<sptrsv::TriangularSolver>(r);
      t.solver->analyze(T, Triangle::Lower, false, o);
      for (int k = 0; k < 2; ++k) t.warm_s = timed_solve(t, b);  // the first solves prepare the scheme
    };
    sptrsv::TriangularSolveOptions o = policy_options(policy, ro, whole, name);
    try {
      start(o);
    } catch (const std::exception& e) {
      // The scheme model may pick a powered form whose transform is then refused (too many entries):
      // a unified GPU solve takes the model's unpowered pick instead.
      if ((policy != "gpu" && policy != "auto") || o.device == sptrsv::SolveDevice::Cpu) throw;
      sptrsv::SelectionOptions so;
      so.perfmodel_dir = ro.perfmodel_dir;
      o.variant = sptrsv::select_scheme_by_model(
                      whole.features(), sptrsv::unpowered_candidates(whole.rows(), whole.nnz(), whole.num_levels()), so)
                      .scheme;
      t.fallback = std::string(" (fallback from: ") + e.what() + ")";
      start(o);
    }
    t.note = (t.solver->split() ? t.solver->split()->describe() : t.solver->chosen_variant()) + t.fallback;
  } catch (const std::exception& e) {
    t.solver.reset();
    t.note = std::string("error: ") + e.what();
  }
  return t;
}

void time_policies(std::vector<PolicyTiming>& timings, const SplitRunOptions& ro, const std::vector<double>& b) {
  const int rounds = std::max(1, ro.rounds);
  std::vector<int> per_turn(timings.size());
  for (std::size_t k = 0; k < timings.size(); ++k) {
    const int runs =
        std::clamp(static_cast<int>(ro.budget_s / std::max(timings[k].warm_s, 1e-6)), ro.min_runs, ro.max_runs);
    per_turn[k] = (runs + rounds - 1) / rounds;
  }
  const std::size_t n = timings.size();
  for (int r = 0; r < rounds; ++r)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % n;
      PolicyTiming& t = timings[k];
      if (!t.solver) continue;
      try {
        timed_solve(t, b);  // untimed: the caches and workers as the previous policy left them
        for (int s = 0; s < per_turn[k]; ++s) t.times.push_back(timed_solve(t, b));
      } catch (const std::exception& e) {
        t.note = std::string("error: ") + e.what();
        t.times.clear();
        t.solver.reset();
      }
    }
}

void record_policy(const PolicyTiming& t, const std::vector<double>& xref, TableRow& row) {
  const std::string& policy = t.policy;
  if (t.solver && !t.times.empty()) {
    std::vector<double> times = t.times;
    std::sort(times.begin(), times.end());
    const sptrsv::TriangularSolver& s = *t.solver;
    const double median = times[times.size() / 2];
    row[policy + "_ms"] = number_field(median * 1e3);
    // The interquartile range over the median: how far apart two timings of the same policy fall.
    row[policy + "_spread"] = number_field((times[times.size() * 3 / 4] - times[times.size() / 4]) / median);
    row[policy + "_setup_s"] = number_field(s.preprocess_seconds());
    row[policy + "_split_setup_s"] = number_field(s.split() ? s.split()->setup_seconds() : 0.0);
    row[policy + "_error"] = number_field(cli::max_rel_diff(t.x, xref));
    if (policy == "gpu") {  // the scheme that ran, for the GPU cost model
      const auto [family, factor] = sptrsv::gpu_scheme_steps(s.chosen_variant());
      row["gpu_family"] = std::to_string(family);
      row["gpu_level_factor"] = number_field(factor);
    }
    if (policy == "auto" && s.split()) {  // the live decision, and how it went (model or measured)
      row["auto_policy"] = planners::to_string(s.split()->decision().policy);
      row["auto_how"] = s.split()->measurement().how();
      row["auto_measure"] = s.split()->measurement().describe();
      row["auto_measure_s"] = number_field(s.split()->measurement().seconds);
    }
  }
  row[policy + "_note"] = t.note;
  std::fprintf(stderr, "  %-10s %10s ms  %s\n", policy.c_str(), row.count(policy + "_ms") ? row[policy + "_ms"].c_str() : "-",
               t.note.substr(0, 110).c_str());
}

}  // namespace hetsparse::bench
