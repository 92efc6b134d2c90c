// The split-execution flowchart, its thresholds' text form, and forced policies.
#include "planners/split_sptrsv_decision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_payback.hpp"
#include "sparse/number_text.hpp"

namespace hetsparse::planners {
namespace {

std::string number(double v) { return number_text(v, 6); }

// Every threshold with its name, as a pointer to a double or an int64 of SplitThresholds.
struct Field {
  std::string name;
  double* real;
  std::int64_t* integer;
};
std::vector<Field> fields(SplitThresholds& t) {
  std::vector<Field> f = {{"min_levels", nullptr, &t.min_levels},
                          {"min_rows", nullptr, &t.min_rows},
                          {"min_sfl_pct", &t.min_sfl_pct, nullptr},
                          {"min_pfr_pct", &t.min_pfr_pct, nullptr},
                          {"min_cpu_levels_pct", &t.min_cpu_levels_pct, nullptr},
                          {"min_gpu_pf_rows_pct", &t.min_gpu_pf_rows_pct, nullptr},
                          {"cpu_cpu_min_part1_rows_pct", &t.cpu_cpu_min_part1_rows_pct, nullptr},
                          {"cpu_cpu_min_part2_levels", nullptr, &t.cpu_cpu_min_part2_levels},
                          {"min_iteration_savings", nullptr, &t.min_iteration_savings},
                          {"split_margin", &t.split_margin, nullptr},
                          {"cost_cpu_gpu", &t.costs.cpu_gpu, nullptr},
                          {"cost_cpu_cpu", &t.costs.cpu_cpu, nullptr},
                          {"cost_gpu_gpu", &t.costs.gpu_gpu, nullptr},
                          {"cost_gpu_gpu_iteration", &t.costs.gpu_gpu_iteration, nullptr},
                          {"cost_gpu_gpu_max_gain", &t.costs.gpu_gpu_max_gain, nullptr},
                          {"setup_single_algorithm_cut", &t.setup.single_algorithm_cut, nullptr}};
  const auto add = [&f](const std::string& prefix, double* c, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) f.push_back({prefix + std::to_string(k), c + k, nullptr});
  };
  add("cost_cpu_", t.costs.cpu.data(), t.costs.cpu.size());
  add("cost_cpu_levels_", t.costs.cpu_levels.data(), t.costs.cpu_levels.size());
  add("cost_gpu_", t.costs.gpu.data(), t.costs.gpu.size());
  add("cost_gpu_level_", t.costs.gpu_level.data(), t.costs.gpu_level.size());
  add("setup_cpu_gpu_", t.setup.cpu_gpu.data(), t.setup.cpu_gpu.size());
  add("setup_cpu_cpu_", t.setup.cpu_cpu.data(), t.setup.cpu_cpu.size());
  add("setup_gpu_gpu_", t.setup.gpu_gpu.data(), t.setup.gpu_gpu.size());
  return f;
}

}  // namespace

const char* to_string(SplitPolicy p) {
  switch (p) {
    case SplitPolicy::UnifiedCpu: return "cpu";
    case SplitPolicy::UnifiedCpuLevels: return "cpu-levels";
    case SplitPolicy::UnifiedGpu: return "gpu";
    case SplitPolicy::CpuGpu: return "cpu-gpu";
    case SplitPolicy::CpuCpu: return "cpu-cpu";
    case SplitPolicy::GpuGpu: return "gpu-gpu";
  }
  return "?";
}

SplitPolicy parse_split_policy(const std::string& name) {
  for (SplitPolicy p : kAllSplitPolicies)
    if (name == to_string(p)) return p;
  throw InvalidArgument("unknown split policy '" + name + "' (cpu, cpu-levels, gpu, cpu-gpu, cpu-cpu or gpu-gpu)");
}

bool is_split(SplitPolicy p) {
  return p == SplitPolicy::CpuGpu || p == SplitPolicy::CpuCpu || p == SplitPolicy::GpuGpu;
}

bool uses_gpu(SplitPolicy p) {
  return p == SplitPolicy::UnifiedGpu || p == SplitPolicy::CpuGpu || p == SplitPolicy::GpuGpu;
}

const char* to_string(PartDevice d) {
  switch (d) {
    case PartDevice::CpuSerial: return "cpu-serial";
    case PartDevice::CpuLevels: return "cpu-levels";
    case PartDevice::Gpu: return "gpu";
  }
  return "?";
}

std::string SplitThresholds::to_tsv() const {
  SplitThresholds copy = *this;
  std::string text;
  for (const Field& f : fields(copy))
    text += f.name + "\t" + (f.real ? number(*f.real) : std::to_string(*f.integer)) + "\n";
  return text;
}

SplitThresholds SplitThresholds::from_tsv(const std::string& text, const std::string& source) {
  SplitThresholds t;
  const std::vector<Field> known = fields(t);
  std::istringstream in(text);
  std::string line;
  for (int number_of_line = 1; std::getline(in, line); ++number_of_line) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    const std::string name = line.substr(0, tab), value = tab == std::string::npos ? "" : line.substr(tab + 1);
    const std::string where = source + ":" + std::to_string(number_of_line) + ": ";
    const Field* field = nullptr;
    for (const Field& f : known)
      if (name == f.name) field = &f;
    if (field == nullptr) throw InvalidArgument(where + "unknown split threshold '" + name + "'");
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end == nullptr || *end != '\0' || !std::isfinite(v))
      throw InvalidArgument(where + "value '" + value + "' of " + name + " is not a finite number");
    if (field->real) *field->real = v;
    if (field->integer) *field->integer = static_cast<std::int64_t>(std::llround(v));
  }
  return t;
}

double predict_ms(const CostModel& c, PartDevice way, const LevelRange& r, int gpu_family, double level_factor) {
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  switch (way) {
    case PartDevice::CpuSerial: return c.cpu[0] + c.cpu[1] * d(r.nnz) + c.cpu[2] * d(r.rows);
    case PartDevice::CpuLevels:
      return c.cpu_levels[0] + c.cpu_levels[1] * d(r.nnz - r.wide_nnz) + c.cpu_levels[2] * d(r.wide_nnz) +
             c.cpu_levels[3] * d(r.wide_levels);
    case PartDevice::Gpu:
      return c.gpu[0] + c.gpu[1] * d(r.rows) + c.gpu[2] * d(r.nnz) +
             c.gpu_level[static_cast<std::size_t>(std::clamp(gpu_family, 0, kGpuFamilies - 1))] * d(r.levels) *
                 level_factor;
  }
  return std::nan("");
}

double predict_ms(const CostModel& c, SplitPolicy p, const SplitStructure& s) {
  switch (p) {
    case SplitPolicy::UnifiedCpu: return predict_ms(c, PartDevice::CpuSerial, s.all);
    case SplitPolicy::UnifiedCpuLevels: return predict_ms(c, PartDevice::CpuLevels, s.all);
    case SplitPolicy::UnifiedGpu: return predict_ms(c, PartDevice::Gpu, s.all, s.gpu_family, s.gpu_level_factor);
    case SplitPolicy::CpuGpu:
      return s.cpu_gpu.level == 0 ? std::nan("")
                                  : c.cpu_gpu + predict_ms(c, PartDevice::CpuSerial, s.cpu_gpu.cpu_side) +
                                        predict_ms(c, PartDevice::Gpu, s.cpu_gpu.gpu_side, s.gpu_family);
    case SplitPolicy::CpuCpu:
      return s.hts.level == 0 ? std::nan("")
                              : c.cpu_cpu + predict_ms(c, PartDevice::CpuLevels, s.hts.part1) +
                                    predict_ms(c, PartDevice::CpuSerial, s.hts.part2);
    case SplitPolicy::GpuGpu: break;  // what a split saves on long columns is not in these models
  }
  return std::nan("");
}

void part_devices(SplitPolicy policy, const SplitStructure& s, PartDevice& part1, PartDevice& part2) {
  part2 = PartDevice::CpuSerial;
  switch (policy) {
    case SplitPolicy::UnifiedCpu: part1 = PartDevice::CpuSerial; break;
    case SplitPolicy::UnifiedCpuLevels: part1 = PartDevice::CpuLevels; break;
    case SplitPolicy::UnifiedGpu: part1 = PartDevice::Gpu; break;
    case SplitPolicy::CpuGpu:
      part1 = s.cpu_gpu.parallel_first ? PartDevice::Gpu : PartDevice::CpuSerial;
      part2 = s.cpu_gpu.parallel_first ? PartDevice::CpuSerial : PartDevice::Gpu;
      break;
    case SplitPolicy::CpuCpu: part1 = PartDevice::CpuLevels; break;
    case SplitPolicy::GpuGpu: part1 = part2 = PartDevice::Gpu; break;
  }
}

SplitDecision forced_split(const SplitStructure& s, SplitPolicy policy, const SplitMachine& m) {
  SplitDecision d;
  d.policy = policy;
  if (uses_gpu(policy) && !m.gpu)
    throw InvalidArgument(std::string("split policy ") + to_string(policy) + ": needs CUDA workers, and there are none");
  d.cut_level = policy == SplitPolicy::CpuGpu ? s.cpu_gpu.level
                : policy == SplitPolicy::CpuCpu ? s.hts.level
                : policy == SplitPolicy::GpuGpu ? s.sas.level
                                                : 0;
  if (is_split(policy) && d.cut_level == 0) {
    throw InvalidArgument(std::string("split policy ") + to_string(policy) + ": its slicing finds no cut in this " +
                          "triangle (" + std::to_string(s.levels) + " levels)");
  }
  part_devices(policy, s, d.part1, d.part2);
  d.reason = "forced";
  return d;
}

SplitDecision decide_split(const SplitStructure& s, const SplitThresholds& t, const SplitMachine& m,
                           const SplitPayback& payback) {
  SplitDecision d;
  d.expected_solves = payback.expected_solves;
  std::string why;
  const auto take = [&](SplitPolicy p, index_t cut, std::string reason) {
    d.policy = p;
    d.cut_level = cut;
    part_devices(p, s, d.part1, d.part2);
    d.reason = why + std::move(reason);
    return d;
  };
  // The cost models' view of every policy this machine can run.
  for (std::size_t k = 0; k < d.predicted_ms.size(); ++k) {
    const SplitPolicy p = kAllSplitPolicies[k];
    const bool gpu = uses_gpu(p);
    const bool levels = p == SplitPolicy::UnifiedCpuLevels || p == SplitPolicy::CpuCpu;
    d.predicted_ms[k] = (gpu && !m.gpu) || (levels && m.cpu_parallel_width < 2) ? std::nan("") : predict_ms(t.costs, p, s);
  }
  const auto predicted = [&d](SplitPolicy p) { return d.predicted_ms[static_cast<std::size_t>(p)]; };
  SplitPolicy unified = SplitPolicy::UnifiedCpu;
  for (SplitPolicy p : {SplitPolicy::UnifiedCpuLevels, SplitPolicy::UnifiedGpu})
    if (predicted(p) < predicted(unified)) unified = p;
  const double bar = t.split_margin * predicted(unified);
  // Each split's predicted setup, and whether saving `saving` ms a solve pays it back.
  const index_t cuts[] = {0, 0, 0, s.cpu_gpu.level, s.hts.level, s.sas.level};
  for (std::size_t k = 0; k < d.setup_ms.size(); ++k)
    d.setup_ms[k] = is_split(kAllSplitPolicies[k]) && cuts[k] == 0
                        ? std::nan("")
                        : predict_setup_ms(t.setup, kAllSplitPolicies[k], payback.analysis_ms);
  const auto pays = [&](SplitPolicy p, double saving, const char* box) {
    if (pays_back(saving, d.setup_ms[static_cast<std::size_t>(p)], payback)) return true;
    char text[200];
    std::snprintf(text, sizeof text, "%s its setup (%.3g ms predicted) does not pay back in %.3g solves (%.3g ms saved a solve); ",
                  box, d.setup_ms[static_cast<std::size_t>(p)], payback.expected_solves, saving);
    why += text;
    return false;
  };
  const bool deep = s.levels > t.min_levels;
  // (1-a) CPU-GPU.
  if (m.gpu && deep && s.rows >= t.min_rows && s.sfl_pct >= t.min_sfl_pct && s.pfr_pct >= t.min_pfr_pct) {
    const CpuGpuCut& c = s.cpu_gpu;
    if (c.level > 0 && c.cpu_levels_pct >= t.min_cpu_levels_pct && c.gpu_pf_rows_pct >= t.min_gpu_pf_rows_pct &&
        predicted(SplitPolicy::CpuGpu) < bar) {
      if (pays(SplitPolicy::CpuGpu, predicted(unified) - predicted(SplitPolicy::CpuGpu), "(1-a) CPU-GPU split, but"))
        return take(SplitPolicy::CpuGpu, c.level, "(1-a) parallelism disparity: CPU-GPU split");
    } else {
      why += "(1-a) disparity, but the CPU-GPU cut is refused or predicted slower; ";
    }
  }
  // (1-b) CPU-CPU.
  if (m.cpu_parallel_width > 1 && deep && s.hts.level > 0 && s.hts.part1_rows_pct >= t.cpu_cpu_min_part1_rows_pct &&
      s.hts.part2_levels >= t.cpu_cpu_min_part2_levels && predicted(SplitPolicy::CpuCpu) < bar &&
      pays(SplitPolicy::CpuCpu, predicted(unified) - predicted(SplitPolicy::CpuCpu), "(1-b) CPU-CPU split, but"))
    return take(SplitPolicy::CpuCpu, s.hts.level, "(1-b) wide levels then a thin tail: CPU-CPU split");
  if (unified == SplitPolicy::UnifiedGpu) {
    // (1-c) GPU-GPU.
    if (s.sas.level > 0 && s.sas.savings >= t.min_iteration_savings &&
        pays(SplitPolicy::GpuGpu,
             gpu_gpu_saving_ms(t.costs, static_cast<double>(s.sas.savings), predicted(SplitPolicy::UnifiedGpu)),
             "(1-c) GPU-GPU split, but"))
      return take(SplitPolicy::GpuGpu, s.sas.level, "(1-c) long columns: GPU-GPU single-algorithm split");
    return take(SplitPolicy::UnifiedGpu, 0, "unified on the GPU (predicted fastest)");
  }
  if (unified == SplitPolicy::UnifiedCpuLevels)
    return take(SplitPolicy::UnifiedCpuLevels, 0, "unified on the CPUs, level-scheduled (predicted fastest)");
  return take(SplitPolicy::UnifiedCpu, 0, "unified on one CPU core (predicted fastest)");
}

}  // namespace hetsparse::planners
