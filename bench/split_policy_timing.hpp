// bench_sptrsv_split run's timing of the policies on one triangle: every policy's solver is set up
// first (analysis, two warm-up solves), then the timed solves run in rounds over the policies, each
// turn one untimed solve and a block of timed ones back to back, each round starting one policy
// further on. A policy's median then comes from the same minutes as the others' (timed one after
// the other, a drift of the machine between two policies' timings read as a difference between
// them), and still from the steady state of repeated solves that a user runs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "bench/split_corpus.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::bench {

struct SplitRunOptions {
  std::string perfmodel_dir, model_file, matrix_dir;
  std::vector<std::string> policies;
  int cpu_width = 1;
  int min_runs = 5, max_runs = 30;
  int rounds = 3;                         // turns per policy over which its timed solves are spread
  planners::SplitMeasureOptions measure;  // auto's measured tie-break
  double budget_s = 0.3;  // timed solves per policy: as many as fit, within [min_runs, max_runs]
};

// One policy's solver on the triangle, and what its timing found.
struct PolicyTiming {
  std::string policy;
  std::unique_ptr<sptrsv::TriangularSolver> solver;  // null once it failed
  std::vector<double> x;
  double warm_s = 0;           // the last warm-up solve
  std::vector<double> times;   // the timed solves, seconds
  std::string note;            // the solver's scheme or split, or the error
  std::string fallback;        // why a GPU pick was replaced by the unpowered one
};

// Sets up `policy` on T ("auto": the split model): analysis and two warm-up solves. A failure is
// kept in `note` (solver null), not thrown.
PolicyTiming start_policy(rt::TaskRuntime& r, const Csr& T, const std::string& policy, const SplitRunOptions& ro,
                          const sptrsv::TriangularPattern& whole, const std::string& name, const std::vector<double>& b);

// The timed solves of every started policy, in ro.rounds rounds (each policy's count from the budget
// and its warm-up time). A solve that throws ends that policy (note: the error).
void time_policies(std::vector<PolicyTiming>& timings, const SplitRunOptions& ro, const std::vector<double>& b);

// The policy's columns of the table row (median ms, spread, setup, split setup, error against xref,
// note; the GPU scheme's steps; auto's live decision).
void record_policy(const PolicyTiming& t, const std::vector<double>& xref, TableRow& row);

// The options of one policy ("auto": the split model).
sptrsv::TriangularSolveOptions policy_options(const std::string& policy, const SplitRunOptions& ro,
                                              const sptrsv::TriangularPattern& whole, const std::string& name);

}  // namespace hetsparse::bench
