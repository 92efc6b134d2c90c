// TriangularSolver's measured tie-break between the split model's nearest policies: each candidate
// is a solver of its own over a copy of this analysis (no second analysis), timed through solve()
// on host vectors, as the cost models' figures are (planners/split_sptrsv_measure.hpp).
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

std::unique_ptr<TriangularSolver> TriangularSolver::make_candidate(planners::SplitPolicy policy,
                                                                   const planners::SplitDecision& decision,
                                                                   const planners::SplitStructure& structure,
                                                                   const TriangularSolveOptions& options,
                                                                   const std::string& source,
                                                                   double decide_seconds) const {
  auto c = std::make_unique<TriangularSolver>(rt_);
  TriangularSolveOptions o = options;
  o.split = SplitOptions{};  // a candidate is never measured again
  bool gpu = gpu_;
  switch (policy) {
    case planners::SplitPolicy::UnifiedCpu:
    case planners::SplitPolicy::UnifiedCpuLevels:
      o.device = SolveDevice::Cpu;
      o.cpu_mode = policy == planners::SplitPolicy::UnifiedCpu ? CpuMode::Serial : CpuMode::ParallelTask;
      gpu = false;
      break;
    case planners::SplitPolicy::UnifiedGpu:
      // The trained model's pick, as the decision's GPU cost assumed; never a search.
      o.device = SolveDevice::Gpu;
      o.select = SelectMode::Model;
      if (options.variant == "auto" && !scheme_model_available(options)) o.variant = heuristic_scheme(host_pattern().features());
      break;
    default: break;
  }
  c->adopt(std::make_unique<TriangularPattern>(host_pattern()), nullptr, analysis_, tri_, unit_diagonal_, o, gpu);
  if (planners::is_split(policy)) {
    c->split_ = std::make_unique<SplitSolver>(rt_, *c->pattern_, structure, decision, options, source, decide_seconds);
    c->variant_ = std::string("split:") + planners::to_string(policy);
  } else {
    c->choose_scheme(o);
  }
  c->register_matrix();
  return c;
}

planners::SplitMeasurement TriangularSolver::measure_split(const TriangularSolveOptions& options,
                                                           const planners::SplitStructure& structure,
                                                           const planners::SplitMachine& machine,
                                                           const planners::SplitDecision& decision,
                                                           const std::vector<planners::SplitPolicy>& candidates,
                                                           const std::string& source, double decide_seconds,
                                                           std::unique_ptr<SplitSolver>& split) {
  const auto t0 = std::chrono::steady_clock::now();
  const TriangularPattern& p = host_pattern();
  // b = T 1: the solution stays 1, whatever the triangle's conditioning (no overflow to time).
  std::vector<double> b(static_cast<std::size_t>(p.rows())), x(b.size());
  for (index_t i = 0; i < p.rows(); ++i)
    for (index_t k = p.rowptr()[i]; k < p.rowptr()[i + 1]; ++k) b[static_cast<std::size_t>(i)] += p.values()[k];
  std::vector<std::unique_ptr<TriangularSolver>> solvers(candidates.size());
  const auto index_of = [&candidates](planners::SplitPolicy policy) {
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (candidates[k] == policy) return k;
    throw InvalidArgument(std::string("measure_split: ") + planners::to_string(policy) + " is no candidate");
  };
  const planners::SolveTimer timer = [&](planners::SplitPolicy policy) {
    std::unique_ptr<TriangularSolver>& s = solvers[index_of(policy)];
    const auto start = std::chrono::steady_clock::now();
    if (!s) {  // the warm-up: the candidate's setup counts in it
      planners::SplitDecision d = decision;
      if (policy != decision.policy) {
        d = planners::forced_split(structure, policy, machine);
        d.predicted_ms = decision.predicted_ms;
      }
      d.reason = "measured tie-break; the model: " + decision.reason;
      s = make_candidate(policy, d, structure, options, source, decide_seconds);
    }
    s->solve(b.data(), x.data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  planners::SplitMeasurement m = planners::measure_split(decision, candidates, options.split.measure, timer);
  if (m.measured && planners::is_split(m.pick)) split = std::move(solvers[index_of(m.pick)]->split_);
  solvers.clear();  // their handles and data before the time is taken
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace hetsparse::sptrsv
