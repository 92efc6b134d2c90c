// The tuner end to end: the split analysis equals analyze(), the simulated real DAG adds up, tuning
// is reproducible and never predicts worse than its start, and tuned options still factor
// accurately through StarPU's CPU workers.
#include <gtest/gtest.h>


#include "cholesky/autotune/autotune.hpp"
#include "cholesky/autotune/recorded_dag.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/analysis.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

Csr lower_lap3d(index_t n) { return triangle(laplacian_3d(n, n, n), Triangle::Lower); }

TEST(AnalyzeSplit, SkeletonThenAmalgamationEqualsAnalyze) {
  const Csr A = lower_lap3d(9);
  AnalyzeOptions o;
  const SymbolicSkeleton sk = analyze_skeleton(A, o);
  const std::array<AmalgamationPair, 4> wide = {{{2, 0.5}, {30, 0.3}, {100, 0.2}, {600, 0.1}}};
  for (const auto& pairs : {kSwCholeskyAmalgamation, wide}) {
    o.amalgamation = pairs;
    for (bool amalgamate : {true, false}) {
      o.amalgamate = amalgamate;
      cholesky::test::expect_same_analysis(analyze(A, o), amalgamate_skeleton(sk, o));
    }
  }
}

TEST(RecordedDag, OneCpuMakespanIsTheSumOfTaskCosts) {
  const SymbolicFactor sym = analyze(lower_lap3d(10));
  planners::SizeClassThresholds th;
  th.inst_max_flops = 1e3;
  th.dpq_min_flops = 1e5;
  const TaskGraph g = record_factorization_dag(sym, th, 0);
  ASSERT_FALSE(g.tasks.empty());
  EXPECT_GT(g.handles, 0u);
  const CostModels defaults;
  double sum = 0, flops = 0;
  for (const SimTask& t : g.tasks) {
    sum += 1e-6 + defaults.seconds(t.kernel, ArchKind::Cpu, t.flops);
    flops += t.flops;
  }
  const SimResult one = simulate_schedule(g, {1, 0, 1e-6, 0.0, 2e-6}, defaults);
  EXPECT_NEAR(one.makespan_s, sum, 1e-12 * sum);
  EXPECT_DOUBLE_EQ(one.registration_s, 2e-6 * double(g.handles));
  EXPECT_NEAR(flops, [&] {  // the DAG carries the executed flops of the supernodal factorization
    double f = 0;
    for (const auto& by_t : planners::updates_by_target(sym))
      for (const auto& u : by_t) f += u.flops;
    for (const Supernode& s : sym.supernodes) f += planners::factor_flops(s);
    return f;
  }(), 1e-9 * flops);
  // More workers never make it slower.
  EXPECT_LE(simulate_schedule(g, {4, 0, 1e-6, 0.0, 0.0}, defaults).makespan_s, sum);
}

// Costs where per-task latency dominates small tasks, so merging and batching pay off.
CostModels latency_bound() {
  CostModels m;
  for (const char* k : {"sn_factor", "sn_update", "sn_update_batch", "sn_subtree"})
    m.set(k, ArchKind::Cpu, {{1e-10, 1.0, 2e-5}, 10});
  return m;
}

TEST(Autotune, ReproducibleAndImprovesABadStart) {
  const Csr A = lower_lap3d(14);
  // The worst corner for latency-bound kernels: little amalgamation, every update its own task.
  AnalyzeOptions bad;
  bad.amalgamation = {{{1, 0.01}, {1, 0.01}, {1, 0.01}, {513, 0.01}}};
  planners::SizeClassThresholds th;
  for (const ThresholdParam& p : threshold_params()) th.*p.field = p.lo;
  AutotuneOptions o;
  o.machine = {4, 0, 5e-6, 2e-6, 2e-6};
  o.search.max_evaluations = 40;
  o.search.budget_s = 0;  // evaluation count only: reproducible
  o.search.seed = 7;
  const AutotuneResult a = autotune(A, bad, th, o, latency_bound()), b = autotune(A, bad, th, o, latency_bound());
  EXPECT_EQ(settings_key(a.chosen), settings_key(b.chosen));
  EXPECT_EQ(a.predicted_chosen.total_s, b.predicted_chosen.total_s);
  EXPECT_EQ(a.evaluations, 40);
  EXPECT_LT(a.predicted_chosen.total_s, 0.9 * a.predicted_start.total_s);
  EXPECT_GE(a.distinct_amalgamations, 2);
  EXPECT_EQ(amalgamation_key(a.analyze.amalgamation), amalgamation_key(a.chosen.amalgamation));
  EXPECT_FALSE(a.cost_models.empty());
  // From the defaults the chosen point is never predicted worse than the start.
  const AutotuneResult d = autotune(A, {}, {}, o, latency_bound());
  EXPECT_LE(d.predicted_chosen.total_s, d.predicted_start.total_s);
}

TEST(Autotune, TunedOptionsFactorAccuratelyOnStarpuCpuWorkers) {
  const Csr full = laplacian_3d(11, 10, 9);
  const Csr A = triangle(full, Triangle::Lower);
  AutotuneOptions o;
  o.machine = {2, 0, 5e-6, 5e-6, 5e-6};
  o.search.max_evaluations = 30;
  const AutotuneResult t = autotune(A, {}, {}, o);  // no perf-model directory: default costs
  rt::Runtime r(hetsparse::test::test_runtime_options("dmdas", 2, 0));
  CholeskySolver chol(r);
  chol.analyze(A, t.analyze);
  FactorizeOptions fo;
  fo.thresholds = t.thresholds;
  chol.factorize(A, fo);
  EXPECT_LE(hetsparse::test::random_solve_backward_error(chol, full, 5), 1e-14) << describe(t.chosen);
}

}  // namespace
}  // namespace hetsparse::cholesky::autotune
