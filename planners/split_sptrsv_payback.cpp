// The split model's payback: predicted setup, the GPU-GPU saving, and the bound before the cut.
#include "planners/split_sptrsv_payback.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sparse/number_text.hpp"

namespace hetsparse::planners {
namespace {

std::string number(double v) { return number_text(v, 3); }

double line(const std::array<double, 2>& c, double analysis_ms) { return c[0] + c[1] * analysis_ms; }

}  // namespace

double predict_setup_ms(const SetupModel& m, SplitPolicy p, double analysis_ms) {
  switch (p) {
    case SplitPolicy::CpuGpu: return line(m.cpu_gpu, analysis_ms);
    case SplitPolicy::CpuCpu: return line(m.cpu_cpu, analysis_ms);
    case SplitPolicy::GpuGpu: return line(m.gpu_gpu, analysis_ms);
    default: return 0.0;
  }
}

double gpu_gpu_saving_ms(const CostModel& c, double iterations, double unified_gpu_ms) {
  double saved = c.gpu_gpu_iteration * iterations;
  if (std::isfinite(unified_gpu_ms)) saved = std::min(saved, c.gpu_gpu_max_gain * unified_gpu_ms);
  return saved - c.gpu_gpu;
}

bool pays_back(double saving_ms, double setup_ms, const SplitPayback& p) {
  if (!std::isfinite(p.expected_solves)) return true;
  return saving_ms > 0 && saving_ms * p.expected_solves >= setup_ms;
}

bool single_algorithm_cut_may_pay(const SplitStructure& s, const SplitThresholds& t, const SplitPayback& p,
                                  std::string* why) {
  const auto say = [why](bool verdict, std::string text) {
    if (why) *why = std::move(text);
    return verdict;
  };
  if (s.sas.bound < t.min_iteration_savings)
    return say(false, "no cut can save " + std::to_string(t.min_iteration_savings) + " warp iterations (at most " +
                          std::to_string(s.sas.bound) + ")");
  const double gpu_ms = predict_ms(t.costs, SplitPolicy::UnifiedGpu, s);
  const double saving = gpu_gpu_saving_ms(t.costs, static_cast<double>(s.sas.bound), gpu_ms);
  const double cost = t.setup.single_algorithm_cut * p.analysis_ms + predict_setup_ms(t.setup, SplitPolicy::GpuGpu, p.analysis_ms);
  const std::string bound = "at most " + number(saving) + " ms saved a solve against " + number(cost) +
                            " ms of cut and setup over " + number(p.expected_solves) + " solves";
  return say(pays_back(saving, cost, p), bound);
}

SplitDecision decide_split_with_cut(const kernels::TriangularView& t, SplitStructure& s, const SplitStructureOptions& o,
                                    const SplitThresholds& th, const SplitMachine& m, const SplitPayback& p) {
  SplitDecision d = decide_split(s, th, m, p);
  if (d.policy != SplitPolicy::UnifiedGpu || !o.single_algorithm || s.sas.level > 0 || s.mcl - 1 <= o.warp) return d;
  std::string why;
  if (!single_algorithm_cut_may_pay(s, th, p, &why)) {
    d.reason += "; the single-algorithm cut skipped: " + why;
    return d;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t bound = s.sas.bound;
  s.sas = slice_single_algorithm(t, o);
  s.sas.bound = bound;
  s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return decide_split(s, th, m, p);
}

}  // namespace hetsparse::planners
