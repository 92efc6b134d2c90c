// The split SpTRSV in the solver (the split-execution model, planners/split_sptrsv*.hpp): T cut at a
// level into T1, A21 and T2 (planners::SplitBlocks), each sub-triangle analysed by a TriangularSolver
// of its own restricted to its part's device (serial substitution or the level-scheduled parallel
// task on CPU workers, a GPU scheme on a CUDA worker), and each solve submitted as the planner's
// chain gather -> T1 -> B2 -= A21 X1 -> T2 -> scatter. TriangularSolver owns one when its options ask
// for a split (TriangularSolveOptions::split); with a unified decision it keeps only the structure
// and the decision, for --analyze.
//
// GPU parts: a part of a CPU-GPU split takes the trained scheme model's pick for its sub-triangle,
// among the unpowered schemes when the model picks a powered one (its transform may be refused at
// the first solve); the fixed heuristic without a model. The GPU-GPU split is single-algorithm:
// both parts run the model's unpowered pick for the whole triangle. Several right-hand sides: GPU
// parts solve one, so with nrhs > 1 every task of the split runs on CPU workers (the CPU parts take
// all columns at once).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "planners/split_sptrsv_blocks.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "planners/split_sptrsv_structure.hpp"
#include "runtime/task_runtime.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::sptrsv {

// The scheme a unified GPU solve would run: options.variant, or for "auto" the trained model's pick
// (never a search) or, without a model, the fixed heuristic.
std::string unified_gpu_scheme(const TriangularPattern& whole, const TriangularSolveOptions& options);
// A scheme's family and steps per DAG level for the GPU cost model (planners::SplitStructure::
// gpu_family, gpu_level_factor): powK:BASE is BASE's family at 1/K.
std::pair<int, double> gpu_scheme_steps(const std::string& scheme);
// This GPU has a trained scheme model (so "auto" with SelectMode::Model needs no search).
bool scheme_model_available(const TriangularSolveOptions& options);

class SplitSolver {
 public:
  // whole: the analysed triangle (only read here). decision: planners::decide_split or forced_split
  // on `structure`. options: the owner's (the parts copy its analysis, selection and CPU settings).
  // decide_seconds: what the structure and the decision cost the caller.
  SplitSolver(rt::TaskRuntime& rt, const TriangularPattern& whole, const planners::SplitStructure& structure,
              const planners::SplitDecision& decision, const TriangularSolveOptions& options,
              std::string thresholds_source, double decide_seconds);
  ~SplitSolver();
  SplitSolver(const SplitSolver&) = delete;
  SplitSolver& operator=(const SplitSolver&) = delete;

  // The decision is a split policy (else nothing is registered and submit refuses).
  bool active() const { return static_cast<bool>(blocks_); }
  // One split solve of registered n x nrhs handles b and x (b != x): submits, does not wait.
  void submit(rt::HandleId b, rt::HandleId x, int nrhs);
  // New values of the whole pattern (already updated): scattered into the blocks, parts updated.
  void update_values(const TriangularPattern& whole);

  const planners::SplitStructure& structure() const { return structure_; }
  const planners::SplitDecision& decision() const { return decision_; }
  const std::string& thresholds_source() const { return thresholds_source_; }
  const planners::SplitBlocks& blocks() const;  // InvalidArgument when not active
  // Part 1 or 2's solver (InvalidArgument when not active or k is neither).
  const TriangularSolver& part(int k) const;
  // How the decision went: the model's alone, or the measured tie-break (its candidates' times).
  // Set by the owner after the decision; a measured setup replaces the blocks' and parts' own times
  // in setup_seconds (the winning split was built and warmed up inside the measurement).
  void set_measurement(planners::SplitMeasurement m) { measurement_ = std::move(m); }
  const planners::SplitMeasurement& measurement() const { return measurement_; }
  // Structure + decision + blocks + the parts' analyses, selections and preparations so far, or
  // structure + decision + the measurement.
  double setup_seconds() const;
  // One line: the policy, the cut, each part's rows, device and scheme, A21's entries.
  std::string describe() const;

 private:
  void register_a21();
  void ensure_buffers(int nrhs);

  rt::TaskRuntime& rt_;
  planners::SplitStructure structure_;
  planners::SplitDecision decision_;
  std::string thresholds_source_;
  planners::SplitMeasurement measurement_;
  double decide_seconds_ = 0.0, build_seconds_ = 0.0;
  std::unique_ptr<planners::SplitBlocks> blocks_;
  std::unique_ptr<TriangularSolver> part1_, part2_;
  // Registered data (destroyed before what they point at).
  std::vector<double> b1_, b2_, x1_, x2_;
  int nrhs_ = 0;
  rt::DataHandle order_, a21_, hb1_, hb2_, hx1_, hx2_;
};

}  // namespace hetsparse::sptrsv
