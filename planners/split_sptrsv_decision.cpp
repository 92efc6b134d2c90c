// The split-execution flowchart, its thresholds' text form, and forced policies.
#include "planners/split_sptrsv_decision.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "hetsparse/error.hpp"

namespace hetsparse::planners {
namespace {

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

// Every threshold with its name, as a pointer to a double or an int64 field.
struct Field {
  const char* name;
  double SplitThresholds::*real;
  std::int64_t SplitThresholds::*integer;
};
const Field kFields[] = {
    {"min_levels", nullptr, &SplitThresholds::min_levels},
    {"min_rows", nullptr, &SplitThresholds::min_rows},
    {"min_sfl_pct", &SplitThresholds::min_sfl_pct, nullptr},
    {"min_pfr_pct", &SplitThresholds::min_pfr_pct, nullptr},
    {"min_cpu_levels_pct", &SplitThresholds::min_cpu_levels_pct, nullptr},
    {"min_gpu_pf_rows_pct", &SplitThresholds::min_gpu_pf_rows_pct, nullptr},
    {"cpu_cpu_min_part1_rows_pct", &SplitThresholds::cpu_cpu_min_part1_rows_pct, nullptr},
    {"cpu_cpu_min_part2_levels", nullptr, &SplitThresholds::cpu_cpu_min_part2_levels},
    {"min_iteration_savings", nullptr, &SplitThresholds::min_iteration_savings},
    {"gpu_w0", &SplitThresholds::gpu_w0, nullptr},
    {"gpu_w_rows", &SplitThresholds::gpu_w_rows, nullptr},
    {"gpu_w_ap", &SplitThresholds::gpu_w_ap, nullptr},
    {"gpu_w_arl", &SplitThresholds::gpu_w_arl, nullptr},
    {"cpu_levels_min_ap", &SplitThresholds::cpu_levels_min_ap, nullptr},
};

double log10_at_least_1(double v) { return std::log10(v > 1.0 ? v : 1.0); }

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

const char* to_string(PartDevice d) {
  switch (d) {
    case PartDevice::CpuSerial: return "cpu-serial";
    case PartDevice::CpuLevels: return "cpu-levels";
    case PartDevice::Gpu: return "gpu";
  }
  return "?";
}

std::string SplitThresholds::to_tsv() const {
  std::string text;
  for (const Field& f : kFields)
    text += std::string(f.name) + "\t" + (f.real ? number(this->*f.real) : std::to_string(this->*f.integer)) + "\n";
  return text;
}

SplitThresholds SplitThresholds::from_tsv(const std::string& text, const std::string& source) {
  SplitThresholds t;
  std::istringstream in(text);
  std::string line;
  for (int number_of_line = 1; std::getline(in, line); ++number_of_line) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    const std::string name = line.substr(0, tab), value = tab == std::string::npos ? "" : line.substr(tab + 1);
    const std::string where = source + ":" + std::to_string(number_of_line) + ": ";
    const Field* field = nullptr;
    for (const Field& f : kFields)
      if (name == f.name) field = &f;
    if (field == nullptr) throw InvalidArgument(where + "unknown split threshold '" + name + "'");
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end == nullptr || *end != '\0' || !std::isfinite(v))
      throw InvalidArgument(where + "value '" + value + "' of " + name + " is not a finite number");
    if (field->real) {
      t.*field->real = v;
    } else {
      t.*field->integer = static_cast<std::int64_t>(std::llround(v));
    }
  }
  return t;
}

double gpu_probability(const SplitStructure& s, const SplitThresholds& t) {
  const double z = t.gpu_w0 + t.gpu_w_rows * log10_at_least_1(static_cast<double>(s.rows)) +
                   t.gpu_w_ap * log10_at_least_1(s.ap) + t.gpu_w_arl * log10_at_least_1(s.arl);
  return 1.0 / (1.0 + std::exp(-z));
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
  const bool needs_gpu = policy == SplitPolicy::UnifiedGpu || policy == SplitPolicy::CpuGpu || policy == SplitPolicy::GpuGpu;
  if (needs_gpu && !m.gpu)
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

SplitDecision decide_split(const SplitStructure& s, const SplitThresholds& t, const SplitMachine& m) {
  SplitDecision d;
  std::string why;
  const auto take = [&](SplitPolicy p, index_t cut, std::string reason) {
    d.policy = p;
    d.cut_level = cut;
    part_devices(p, s, d.part1, d.part2);
    d.reason = why + std::move(reason);
    return d;
  };
  const bool deep = s.levels > t.min_levels;
  // (1-a) CPU-GPU.
  if (m.gpu && deep && s.rows >= t.min_rows && s.sfl_pct >= t.min_sfl_pct && s.pfr_pct >= t.min_pfr_pct) {
    const CpuGpuCut& c = s.cpu_gpu;
    if (c.level > 0 && c.cpu_levels_pct >= t.min_cpu_levels_pct && c.gpu_pf_rows_pct >= t.min_gpu_pf_rows_pct)
      return take(SplitPolicy::CpuGpu, c.level, "(1-a) parallelism disparity: CPU-GPU split");
    why += "(1-a) disparity but the CPU-GPU cut is refused; ";
  }
  d.gpu_probability = m.gpu ? gpu_probability(s, t) : 0.0;
  const bool gpu_wins = d.gpu_probability > 0.5;
  // (1-b) CPU-CPU, where the CPU is the unified choice.
  if (!gpu_wins && m.cpu_parallel_width > 1 && deep && s.hts.level > 0 &&
      s.hts.part1_rows_pct >= t.cpu_cpu_min_part1_rows_pct && s.hts.part2_levels >= t.cpu_cpu_min_part2_levels)
    return take(SplitPolicy::CpuCpu, s.hts.level, "(1-b) wide levels then a thin tail: CPU-CPU split");
  if (gpu_wins) {
    // (1-c) GPU-GPU.
    if (s.sas.level > 0 && s.sas.savings >= t.min_iteration_savings)
      return take(SplitPolicy::GpuGpu, s.sas.level, "(1-c) long columns: GPU-GPU single-algorithm split");
    return take(SplitPolicy::UnifiedGpu, 0, "unified on the GPU");
  }
  if (m.cpu_parallel_width > 1 && s.ap >= t.cpu_levels_min_ap)
    return take(SplitPolicy::UnifiedCpuLevels, 0, "unified on the CPUs, level-scheduled");
  return take(SplitPolicy::UnifiedCpu, 0, m.gpu ? "unified on one CPU core" : "unified on one CPU core (no GPU)");
}

}  // namespace hetsparse::planners
