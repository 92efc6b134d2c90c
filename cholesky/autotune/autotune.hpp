// swCholesky-style auto-tuning (Li et al., Sec. 3.4) for CPUs + GPUs: the amalgamation pairs and
// the planner's size-class thresholds are chosen by simulated annealing on a predicted
// factorization time, the makespan of the planner's task graph list-scheduled on the machine's
// workers with kernel costs fitted to StarPU's measured performance models.
#pragma once
#include <string>
#include <vector>

#include "cholesky/autotune/annealing.hpp"
#include "cholesky/autotune/cost_model.hpp"
#include "cholesky/autotune/schedule_simulator.hpp"
#include "cholesky/autotune/tuning_space.hpp"
#include "symbolic/analyze_options.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky::autotune {

struct AutotuneOptions {
  SimMachine machine;         // the workers the factorization will run on
  std::string perfmodel_dir;  // StarPU's; empty: default costs only
  AnnealOptions search;       // seed, evaluation count and time budget
};

struct AutotuneResult {
  AnalyzeOptions analyze;                   // the caller's options with the chosen amalgamation
  planners::SizeClassThresholds thresholds; // for FactorizeOptions::thresholds
  TunedSettings start, chosen;
  SimResult predicted_start, predicted_chosen;
  int evaluations = 0, distinct_settings = 0, distinct_amalgamations = 0;
  bool stopped_by_budget = false;
  double analyze_s = 0, tuning_s = 0;  // the shared analysis (ordering ...), then the search
  std::vector<ModelSummary> cost_models;  // per kernel and architecture used (fitted or default)
};

// Tunes for A (given as base.input says), starting from base's amalgamation and base_thresholds
// (automatic values resolved as the planner would, non-tuned fields kept; amalgamation is switched
// on). Errors as analyze().
AutotuneResult autotune(const Csr& A, const AnalyzeOptions& base, const planners::SizeClassThresholds& base_thresholds,
                        const AutotuneOptions& opts);
// The same with given cost models instead of the perf-model directory (tests, what-if studies).
AutotuneResult autotune(const Csr& A, const AnalyzeOptions& base, const planners::SizeClassThresholds& base_thresholds,
                        const AutotuneOptions& opts, const CostModels& models);

}  // namespace hetsparse::cholesky::autotune
