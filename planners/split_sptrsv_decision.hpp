// The split-execution model's execution-policy setup (the paper's Figure 5): from the structure
// (split_sptrsv_structure.hpp), split the triangle CPU-GPU, CPU-CPU or GPU-GPU, or solve it unified
// on the CPU or the GPU. The thresholds are a typed parameter set: the paper's values to start with,
// calibrated per machine (bench_sptrsv_split fit) and stored as "name<TAB>value" lines.
//
//   (1-a) CPU-GPU  when a GPU is there, levels > t, rows >= s, SFL >= u % and PFR >= v %, the
//                  CPU-GPU cut takes >= a % of the levels to the CPU while >= b % of the GPU side's
//                  rows sit in parallel-friendly levels,
//                  and the cost models predict the split under split_margin x the best unified way;
//   (1-b) CPU-CPU  when parallel CPU tasks exist, levels > t, the HTS cut leaves >= the given share
//                  of the rows to the level-scheduled part and enough levels to the serial one, and
//                  the cost models predict it under split_margin x the best unified way;
//   (1-c) GPU-GPU  when the GPU is the best unified way and the single-algorithm cut saves >= c warp
//                  iterations (the cost models cannot see what long columns cost a warp);
//   each split only where its predicted saving per solve x the expected solves pays back its
//                  predicted setup (split_sptrsv_payback.hpp: blocks, the parts' analyses);
//   otherwise unified: the way the cost models predict fastest (one CPU core, the CPUs' level-
//                  scheduled parallel task where parallel CPU tasks exist, or the GPU).
// The paper's logistic-regression boxes (GPU or CPU, split or not) are these comparisons of cost
// models: linear models of a solve's milliseconds per way of solving, fitted per machine.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "planners/split_sptrsv_structure.hpp"
#include "sparse/types.hpp"

namespace hetsparse::planners {

enum class SplitPolicy { UnifiedCpu, UnifiedCpuLevels, UnifiedGpu, CpuGpu, CpuCpu, GpuGpu };
// "cpu", "cpu-levels", "gpu", "cpu-gpu", "cpu-cpu", "gpu-gpu".
const char* to_string(SplitPolicy);
SplitPolicy parse_split_policy(const std::string& name);  // InvalidArgument naming the accepted ones
bool is_split(SplitPolicy p);
bool uses_gpu(SplitPolicy p);  // the unified GPU, or a split with a GPU part
inline constexpr SplitPolicy kAllSplitPolicies[] = {SplitPolicy::UnifiedCpu, SplitPolicy::UnifiedCpuLevels,
                                                    SplitPolicy::UnifiedGpu, SplitPolicy::CpuGpu,
                                                    SplitPolicy::CpuCpu,     SplitPolicy::GpuGpu};

// How one part (or a unified solve) runs: serial substitution on a CPU worker, the level-scheduled
// parallel task over CPU workers, or a GPU scheme on a CUDA worker.
enum class PartDevice { CpuSerial, CpuLevels, Gpu };
const char* to_string(PartDevice);

// Milliseconds of one solve through TriangularSolver::solve (its vectors registered per solve) as
// linear models of a range of levels' sizes (LevelRange), one per way of solving a (part of a)
// triangle; the starting values are rough figures of the H100 node, bench_sptrsv_split fit replaces them.
struct CostModel {
  std::array<double, 3> cpu{0.05, 4e-6, 0.0};               // serial: c0 + c1 nnz + c2 rows
  std::array<double, 4> cpu_levels{0.1, 4e-6, 4e-7, 2e-3};  // level-scheduled: c0 + c1 thin nnz + c2 wide nnz + c3 wide levels
  std::array<double, 3> gpu{0.15, 2e-6, 1e-7};              // a GPU scheme: c0 + c1 rows + c2 nnz
  std::array<double, kGpuFamilies> gpu_level{1.5e-3, 2.5e-3, 1.5e-3};  // + its family's cost per step
  double cpu_gpu = 0.1;  // a split's own cost over its parts' (gather, update, scatter, moving X1 and B2)
  double cpu_cpu = 0.1;
  // GPU-GPU, for the payback only (predict_ms has no GPU-GPU figure, see above): a saving of
  // gpu_gpu_iteration ms per warp iteration the cut takes off the long columns, at most
  // gpu_gpu_max_gain of the unified GPU solve, less the split's own cost gpu_gpu.
  double gpu_gpu = 0.25;
  double gpu_gpu_iteration = 5e-4;
  double gpu_gpu_max_gain = 0.3;
};

// Milliseconds of a split's setup (its blocks, the parts' analyses, selections and preparations) as
// c0 + c1 x the whole triangle's host analysis in ms, measured where the decision runs: the parts'
// analyses redo that analysis on two sub-triangles, the blocks add a pass over the entries.
struct SetupModel {
  std::array<double, 2> cpu_gpu{3.0, 1.9};
  std::array<double, 2> cpu_cpu{2.0, 1.45};
  std::array<double, 2> gpu_gpu{3.0, 2.0};
  double single_algorithm_cut = 0.4;  // the single-algorithm cut, x the host analysis
};

// What a split's setup is weighed against (as the scheme selection weighs a scheme's preparation,
// sptrsv/scheme_selection.hpp). expected_solves: TriangularSolveOptions::expected_solves; infinite
// ignores the setup (per-solve decisions: the bench's replays and fits). analysis_ms: the whole
// triangle's host analysis, measured.
struct SplitPayback {
  double expected_solves = std::numeric_limits<double>::infinity();
  double analysis_ms = 0.0;
};

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
  // The cost models, and how much faster than the best unified way a split must be predicted.
  CostModel costs;
  double split_margin = 1.0;
  SetupModel setup;

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
  // Predicted milliseconds of each policy (kAllSplitPolicies' order); NaN where the machine or the
  // slicing rules it out.
  std::array<double, 6> predicted_ms{};
  // Predicted setup of each split policy, ms (0 for the unified ones, NaN without a cut), and the
  // solves it was weighed against (infinite: setup ignored).
  std::array<double, 6> setup_ms{};
  double expected_solves = std::numeric_limits<double>::infinity();
  std::string reason;             // the flowchart's path, for --analyze
};

// The flowchart above. Pure function of its arguments.
SplitDecision decide_split(const SplitStructure& s, const SplitThresholds& t, const SplitMachine& m,
                           const SplitPayback& payback = {});
// A policy forced by the caller, cut where the structure's slicing for it cut. InvalidArgument when
// that slicing found no cut, or the machine lacks the device the policy needs (naming both).
SplitDecision forced_split(const SplitStructure& s, SplitPolicy policy, const SplitMachine& m);
// The parts' devices of a policy (unified: part1 only).
void part_devices(SplitPolicy policy, const SplitStructure& s, PartDevice& part1, PartDevice& part2);
// One way of solving a range of levels (a GPU scheme of gpu_family steps through levels x
// level_factor of them), and a whole policy (NaN for a split without a cut; a split's GPU parts run
// unpowered schemes, taken of the unified scheme's family).
double predict_ms(const CostModel& c, PartDevice way, const LevelRange& r, int gpu_family = 0,
                  double level_factor = 1.0);
double predict_ms(const CostModel& c, SplitPolicy p, const SplitStructure& s);

}  // namespace hetsparse::planners
