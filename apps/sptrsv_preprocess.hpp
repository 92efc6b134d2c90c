// `hetsparse sptrsv`'s preprocessing: T analysed (once, or several times in one process to tell the
// per-pattern cost from the process's first use of each kernel and library), each time with its
// warm-up solve, and the steps as JSON.
#pragma once
#include <memory>
#include <vector>

#include "cli/json.hpp"
#include "runtime/task_runtime.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::cli {

struct SptrsvPreprocess {
  std::unique_ptr<sptrsv::TriangularSolver> solver;  // the last analysis's
  double seconds = 0;        // its preprocess_seconds after the warm-up solve
  double first_seconds = 0;  // the first analysis's
  double warmup_solve_seconds = 0;
  sptrsv::PreparationSteps steps, first_steps;
};

// `analyses` fresh solvers in turn, each analysing T and solving b once (x written).
SptrsvPreprocess preprocess_sptrsv(rt::TaskRuntime& runtime, const Csr& T, Triangle tri, bool unit,
                                   const sptrsv::TriangularSolveOptions& options, const std::vector<double>& b,
                                   std::vector<double>& x, long analyses);

// {"step": seconds, ...}
Json steps_json(const sptrsv::PreparationSteps& steps);

}  // namespace hetsparse::cli
