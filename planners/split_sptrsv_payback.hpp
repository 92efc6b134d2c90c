// The split model's payback: a split costs a setup the unified solve does not (its blocks, the parts'
// analyses and preparations, and before a GPU-GPU decision the single-algorithm cut), so it is taken
// only where its predicted saving per solve over the expected solves pays that back, as the scheme
// selection weighs a scheme's preparation (sptrsv/scheme_selection.hpp, adjust_for_preparation).
// The setup is predicted from the whole triangle's host analysis, measured where the decision runs
// (SetupModel); the saving from the cost models (CostModel). Pure functions.
#pragma once
#include <string>

#include "kernels/sptrsv/sptrsv.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_structure.hpp"

namespace hetsparse::planners {

// Predicted setup of policy p in ms: its kind's SetupModel line at analysis_ms; 0 for a unified one.
double predict_setup_ms(const SetupModel& m, SplitPolicy p, double analysis_ms);

// A GPU-GPU split's predicted saving per solve in ms, at a cut that saves `iterations` warp
// iterations, against a unified GPU solve predicted at unified_gpu_ms (CostModel's gpu_gpu fields).
// Negative where the split's own cost is more than it saves.
double gpu_gpu_saving_ms(const CostModel& c, double iterations, double unified_gpu_ms);

// saving_ms x expected solves >= setup_ms, with a positive saving; always true with infinite
// expected solves (the setup ignored).
bool pays_back(double saving_ms, double setup_ms, const SplitPayback& p);

// The cheap bound before the single-algorithm cut (two passes over the entries): no cut saves more
// than s.sas.bound warp iterations. Where that cannot reach t.min_iteration_savings, or where even
// that saving over the expected solves cannot pay back the cut and a GPU-GPU split's setup, no cut
// can, and computing it is skipped. `why` (optional) says which, or what the bound allows.
bool single_algorithm_cut_may_pay(const SplitStructure& s, const SplitThresholds& t, const SplitPayback& p,
                                  std::string* why = nullptr);

// decide_split, computing the single-algorithm cut only where the decision can use it: the GPU is the
// best unified way, a column is longer than a warp (else no warp iterates), o.single_algorithm, and
// single_algorithm_cut_may_pay. Then the cut goes into s.sas (its time into s.seconds) and the
// decision is made again. The reason says when the cut was skipped and why.
SplitDecision decide_split_with_cut(const kernels::TriangularView& t, SplitStructure& s, const SplitStructureOptions& o,
                                    const SplitThresholds& th, const SplitMachine& m, const SplitPayback& p);

}  // namespace hetsparse::planners
