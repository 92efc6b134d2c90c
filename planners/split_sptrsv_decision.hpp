// The split-execution model's execution-policy setup (the paper's Figure 5): from the structure
// (split_sptrsv_structure.hpp), split the triangle CPU-GPU, CPU-CPU or GPU-GPU, or solve it unified
// on the CPU or the GPU. The thresholds are a typed parameter set: the paper's values to start with,
// calibrated per machine (bench_sptrsv_split fit) and stored as "name<TAB>value" lines.
//
//   (1-a) CPU-GPU  when a GPU is there, levels > t, rows >= s, SFL >= u % and PFR >= v %, and the
//                  CPU-GPU cut takes >= a % of the levels to the CPU while >= b % of the GPU side's
//                  rows sit in parallel-friendly levels;
//   unified device: a logistic model of "the GPU beats one CPU core" on log10 rows, AP and ARL (the
//                  paper's LR box; hand-set until calibrated);
//   (1-b) CPU-CPU  when the CPU wins, parallel CPU tasks exist, levels > t, and the HTS cut leaves
//                  >= the given share of the rows to the level-scheduled part and enough levels
//                  to the serial one;
//   (1-c) GPU-GPU  when the GPU wins and the single-algorithm cut saves >= c warp iterations;
//   otherwise unified: the GPU, or the CPU's level-scheduled parallel task when AP is high enough
//                  and parallel CPU tasks exist, else serial substitution.
#pragma once
#include <cstdint>
#include <string>

#include "planners/split_sptrsv_structure.hpp"
#include "sparse/types.hpp"

namespace hetsparse::planners {

enum class SplitPolicy { UnifiedCpu, UnifiedCpuLevels, UnifiedGpu, CpuGpu, CpuCpu, GpuGpu };
// "cpu", "cpu-levels", "gpu", "cpu-gpu", "cpu-cpu", "gpu-gpu".
const char* to_string(SplitPolicy);
SplitPolicy parse_split_policy(const std::string& name);  // InvalidArgument naming the accepted ones
bool is_split(SplitPolicy p);
inline constexpr SplitPolicy kAllSplitPolicies[] = {SplitPolicy::UnifiedCpu, SplitPolicy::UnifiedCpuLevels,
                                                    SplitPolicy::UnifiedGpu, SplitPolicy::CpuGpu,
                                                    SplitPolicy::CpuCpu,     SplitPolicy::GpuGpu};

// How one part (or a unified solve) runs: serial substitution on a CPU worker, the level-scheduled
// parallel task over CPU workers, or a GPU scheme on a CUDA worker.
enum class PartDevice { CpuSerial, CpuLevels, Gpu };
const char* to_string(PartDevice);

struct SplitThresholds {
  // (1-a), the paper's t, s, u, v.
  std::int64_t min_levels = 40;
  std::int64_t min_rows = 10000;
  double min_sfl_pct = 10.0;
  double min_pfr_pct = 60.0;
  // The CPU-GPU cut's acceptance, the paper's a and b.
  double min_cpu_levels_pct = 10.0;
  double min_gpu_pf_rows_pct = 85.0;
  // (1-b): the HTS cut's level-scheduled share of the rows and serial part's levels.
  double cpu_cpu_min_part1_rows_pct = 50.0;
  std::int64_t cpu_cpu_min_part2_levels = 40;
  // (1-c), the paper's c.
  std::int64_t min_iteration_savings = 100;
  // P(GPU faster) = 1 / (1 + exp(-(w0 + w_rows log10 rows + w_ap log10 AP + w_arl log10 ARL))).
  // Hand-set start: the GPU when rows * AP (= rows^2 / levels) reaches about 2e6.
  double gpu_w0 = -12.6, gpu_w_rows = 2.0, gpu_w_ap = 2.0, gpu_w_arl = 0.0;
  // Unified on the CPU: the level-scheduled parallel task from this AP on.
  double cpu_levels_min_ap = 2000.0;

  std::string to_tsv() const;
  // Lines "name<TAB>value" (# comments and blank lines skipped); names not given keep their
  // defaults. InvalidArgument naming `source` and the line for an unknown name or a bad value.
  static SplitThresholds from_tsv(const std::string& text, const std::string& source);
};

// What the machine offers a split: CUDA workers, and the width a parallel CPU task gets (1: no
// combined workers, so level scheduling on the CPU runs on one core).
struct SplitMachine {
  bool gpu = false;
  int cpu_parallel_width = 1;
};

struct SplitDecision {
  SplitPolicy policy = SplitPolicy::UnifiedCpu;
  index_t cut_level = 0;  // split policies: part 1 = levels [0, cut_level)
  PartDevice part1 = PartDevice::CpuSerial, part2 = PartDevice::CpuSerial;  // unified: part1 only
  double gpu_probability = 0.0;  // the unified model's P(GPU faster)
  std::string reason;             // the flowchart's path, for --analyze
};

// The flowchart above. Pure function of its arguments.
SplitDecision decide_split(const SplitStructure& s, const SplitThresholds& t, const SplitMachine& m);
// A policy forced by the caller, cut where the structure's slicing for it cut. InvalidArgument when
// that slicing found no cut, or the machine lacks the device the policy needs (naming both).
SplitDecision forced_split(const SplitStructure& s, SplitPolicy policy, const SplitMachine& m);
// The parts' devices of a policy (unified: part1 only).
void part_devices(SplitPolicy policy, const SplitStructure& s, PartDevice& part1, PartDevice& part2);
// P(GPU faster) of the unified model.
double gpu_probability(const SplitStructure& s, const SplitThresholds& t);

}  // namespace hetsparse::planners
