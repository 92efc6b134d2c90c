#include "apps/sptrsv_preprocess.hpp"

#include "cli/common.hpp"

namespace hetsparse::cli {

SptrsvPreprocess preprocess_sptrsv(rt::TaskRuntime& runtime, const Csr& T, Triangle tri, bool unit,
                                   const sptrsv::TriangularSolveOptions& options, const std::vector<double>& b,
                                   std::vector<double>& x, long analyses) {
  SptrsvPreprocess r;
  for (long a = 0; a < analyses; ++a) {
    r.solver.reset();  // its handles go before the next one registers
    r.solver = std::make_unique<sptrsv::TriangularSolver>(runtime);
    r.solver->analyze(T, tri, unit, options);
    // Warm-up solve (moves T to where it runs, prepares per-worker schemes, lets the history model
    // learn): the preprocessing is complete after it.
    const double w0 = now_seconds();
    r.solver->solve(b.data(), x.data());
    r.warmup_solve_seconds = now_seconds() - w0;
    r.seconds = r.solver->preprocess_seconds();
    r.steps = r.solver->preprocess_steps();
    if (a == 0) {
      r.first_seconds = r.seconds;
      r.first_steps = r.steps;
    }
  }
  return r;
}

Json steps_json(const sptrsv::PreparationSteps& steps) {
  Json j;
  for (const sptrsv::PreparationStep& s : steps.steps()) j.set(s.name, s.seconds);
  return j;
}

}  // namespace hetsparse::cli
