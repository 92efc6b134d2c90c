// The split model's payback without a runtime: a split whose predicted saving per solve does not
// pay back its predicted setup over the expected solves is refused (and taken with enough solves),
// the single-algorithm cut is skipped where its bound says no cut can pay, the tie-break does not
// build a split that cannot pay, and the setup model's text form.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_measure.hpp"
#include "planners/split_sptrsv_payback.hpp"
#include "planners/split_sptrsv_structure.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/split_triangles.hpp"

namespace hetsparse::test {
namespace {

using planners::SplitPolicy;

bool says(const planners::SplitDecision& d, const std::string& text) { return d.reason.find(text) != std::string::npos; }

// Cost models under which the unified GPU (1 ms) is the best unified way and a GPU-GPU split of the
// hub triangle saves 60 iterations x 0.01 ms, capped at 0.3 ms, with no cost of its own.
planners::SplitThresholds gpu_wins() {
  planners::SplitThresholds t;
  t.min_iteration_savings = 50;
  t.costs.cpu = {10.0, 0.0, 0.0};
  t.costs.gpu = {1.0, 0.0, 0.0};
  t.costs.gpu_level = {0.0, 0.0, 0.0};
  t.costs.gpu_gpu = 0.0;
  t.costs.gpu_gpu_iteration = 0.01;
  return t;
}

TEST(SplitPayback, CpuGpuSplitRefusedAtAHundredSolvesTakenAtAMillion) {
  const sptrsv::TriangularPattern p(level_profile_lower("c3000+b60000x6", 4, 7), Triangle::Lower, false);
  const planners::SplitStructure s = planners::analyse_split_structure(p.host_view());
  const planners::SplitThresholds t;  // the paper's values, the starting cost models
  const planners::SplitDecision per_solve = planners::decide_split(s, t, {true, 1});  // setup ignored
  ASSERT_EQ(per_solve.policy, SplitPolicy::CpuGpu) << per_solve.reason;
  // The best unified way (one core or the GPU here) and what the split saves on it.
  const SplitPolicy unified = per_solve.predicted_ms[0] < per_solve.predicted_ms[2] ? SplitPolicy::UnifiedCpu
                                                                                    : SplitPolicy::UnifiedGpu;
  const double saving = per_solve.predicted_ms[static_cast<std::size_t>(unified)] - per_solve.predicted_ms[3];
  ASSERT_GT(saving, 0.0);
  // A host analysis that makes the predicted setup twice what 100 solves save.
  const double analysis_ms = (200 * saving - t.setup.cpu_gpu[0]) / t.setup.cpu_gpu[1];
  const planners::SplitDecision refused = planners::decide_split(s, t, {true, 1}, {100, analysis_ms});
  EXPECT_EQ(refused.policy, unified) << refused.reason;
  EXPECT_TRUE(says(refused, "does not pay back in 100 solves")) << refused.reason;
  EXPECT_NEAR(refused.setup_ms[3], 200 * saving, 1e-9);
  EXPECT_EQ(refused.setup_ms[2], 0.0) << "a unified solve has no split setup";
  EXPECT_TRUE(std::isnan(refused.setup_ms[4])) << "no CPU-CPU cut in this profile";
  EXPECT_EQ(planners::decide_split(s, t, {true, 1}, {1e6, analysis_ms}).policy, SplitPolicy::CpuGpu);
  EXPECT_EQ(planners::decide_split(s, t, {true, 1}, {250, analysis_ms}).policy, SplitPolicy::CpuGpu)
      << "250 solves save 1.25x the setup";
}

TEST(SplitPayback, CpuCpuSplitWeighsItsSetupToo) {
  const sptrsv::TriangularPattern p(level_profile_lower("b30000x10+c500", 4, 7), Triangle::Lower, false);
  const planners::SplitStructure s = planners::analyse_split_structure(p.host_view());
  planners::SplitThresholds t;
  t.costs.cpu_levels[1] = 1e-4;  // thin levels crawl in the level-scheduled task: the CPU-CPU split wins
  t.costs.cpu_cpu = 0.0;
  ASSERT_EQ(planners::decide_split(s, t, {false, 4}).policy, SplitPolicy::CpuCpu);
  const planners::SplitDecision refused = planners::decide_split(s, t, {false, 4}, {1, 1000.0});
  EXPECT_NE(refused.policy, SplitPolicy::CpuCpu) << refused.reason;
  EXPECT_TRUE(says(refused, "(1-b) CPU-CPU split, but its setup")) << refused.reason;
  EXPECT_EQ(planners::decide_split(s, t, {false, 4}, {1e6, 1000.0}).policy, SplitPolicy::CpuCpu);
}

TEST(SplitPayback, GpuGpuSplitRefusedAtAHundredSolvesTakenAtAMillion) {
  const sptrsv::TriangularPattern p(hub_triangle(1000), Triangle::Lower, false);
  const planners::SplitStructure s = planners::analyse_split_structure(p.host_view());
  ASSERT_EQ(s.sas.savings, 60);
  const planners::SplitThresholds t = gpu_wins();
  // Saving: min(60 x 0.01, 0.3 x 1 ms) = 0.3 ms a solve; setup 3 + 2 x 20 = 43 ms.
  EXPECT_NEAR(planners::gpu_gpu_saving_ms(t.costs, 60, 1.0), 0.3, 1e-12);
  const planners::SplitDecision refused = planners::decide_split(s, t, {true, 1}, {100, 20.0});
  EXPECT_EQ(refused.policy, SplitPolicy::UnifiedGpu) << refused.reason;
  EXPECT_TRUE(says(refused, "(1-c) GPU-GPU split, but its setup (43 ms predicted)")) << refused.reason;
  EXPECT_EQ(planners::decide_split(s, t, {true, 1}, {1e6, 20.0}).policy, SplitPolicy::GpuGpu);
  EXPECT_EQ(planners::decide_split(s, t, {true, 1}, {150, 20.0}).policy, SplitPolicy::GpuGpu) << "45 ms saved";
  planners::SplitThresholds costly = t;
  costly.costs.gpu_gpu = 0.5;  // the split's own cost is more than it saves: never, even per solve
  EXPECT_EQ(planners::decide_split(s, costly, {true, 1}, {1e9, 20.0}).policy, SplitPolicy::UnifiedGpu);
}

TEST(SplitPayback, TheCutIsSkippedWhereItsBoundCannotPay) {
  const sptrsv::TriangularPattern p(hub_triangle(1000), Triangle::Lower, false);
  planners::SplitStructureOptions lazy;
  lazy.single_algorithm = false;  // the structure without the cut, as TriangularSolver's auto mode
  const planners::SplitStructure bare = planners::analyse_split_structure(p.host_view(), lazy);
  EXPECT_EQ(bare.sas.level, 0);
  EXPECT_EQ(bare.sas.bound, 4 * 15) << "4 hub columns of 500 off-diagonals: 16 warp iterations each";
  planners::SplitStructureOptions eager;
  const planners::SplitStructure full = planners::analyse_split_structure(p.host_view(), eager);
  EXPECT_LE(full.sas.savings, full.sas.bound);
  const planners::SplitThresholds t = gpu_wins();
  // 100 solves x at most 0.3 ms cannot pay 8 ms of cut + 3 + 2 x 20 ms of setup: not computed.
  planners::SplitStructure s = bare;
  std::string why;
  EXPECT_FALSE(planners::single_algorithm_cut_may_pay(s, t, {100, 20.0}, &why));
  EXPECT_NE(why.find("at most 0.3 ms saved a solve"), std::string::npos) << why;
  const planners::SplitDecision skipped = planners::decide_split_with_cut(p.host_view(), s, eager, t, {true, 1}, {100, 20.0});
  EXPECT_EQ(skipped.policy, SplitPolicy::UnifiedGpu);
  EXPECT_EQ(s.sas.level, 0) << "the cut was computed";
  EXPECT_TRUE(says(skipped, "the single-algorithm cut skipped")) << skipped.reason;
  // A million solves can pay: the cut is computed and the split taken.
  s = bare;
  const planners::SplitDecision taken = planners::decide_split_with_cut(p.host_view(), s, eager, t, {true, 1}, {1e6, 20.0});
  EXPECT_EQ(taken.policy, SplitPolicy::GpuGpu) << taken.reason;
  EXPECT_EQ(s.sas.level, full.sas.level);
  EXPECT_EQ(s.sas.savings, full.sas.savings);
  EXPECT_EQ(s.sas.bound, bare.sas.bound);
  // A bound under the iterations (1-c) asks for: skipped whatever the solves.
  planners::SplitThresholds strict = t;
  strict.min_iteration_savings = bare.sas.bound + 1;
  s = bare;
  EXPECT_FALSE(planners::single_algorithm_cut_may_pay(s, strict, {}, &why));
  EXPECT_NE(why.find("no cut can save"), std::string::npos) << why;
  EXPECT_TRUE(says(planners::decide_split_with_cut(p.host_view(), s, eager, strict, {true, 1}, {}), "cut skipped"));
  EXPECT_EQ(s.sas.level, 0);
}

TEST(SplitPayback, BoundHoldsOnPowerLawTriangles) {
  for (std::uint64_t seed : {4u, 5u, 6u}) {
    const sptrsv::TriangularPattern p(anchor_rmat_lower(11, 8, seed), Triangle::Lower, false);
    const planners::SplitStructure s = planners::analyse_split_structure(p.host_view());
    EXPECT_GT(s.sas.long_columns, 0) << seed;
    EXPECT_LE(s.sas.savings, s.sas.bound) << seed;
    EXPECT_GT(s.sas.bound, 0) << seed;
  }
}

TEST(SplitPayback, TieBreakLeavesOutASplitThatCannotPay) {
  planners::SplitDecision d;
  d.policy = SplitPolicy::UnifiedCpu;
  d.predicted_ms = {1.0, std::nan(""), 1.2, 1.1, std::nan(""), std::nan("")};
  d.setup_ms = {0, 0, 0, 1000.0, std::nan(""), std::nan("")};
  d.expected_solves = 100;  // at 2x its speed the CPU-GPU split saves 0.45 ms, 45 ms in all
  const std::vector<SplitPolicy> without = planners::measure_candidates(d, {});
  EXPECT_EQ(without, (std::vector<SplitPolicy>{SplitPolicy::UnifiedCpu, SplitPolicy::UnifiedGpu}));
  d.setup_ms[3] = 20.0;
  const std::vector<SplitPolicy> with = planners::measure_candidates(d, {});
  EXPECT_EQ(with, (std::vector<SplitPolicy>{SplitPolicy::UnifiedCpu, SplitPolicy::CpuGpu, SplitPolicy::UnifiedGpu}));
  d.setup_ms[3] = 1000.0;
  d.expected_solves = INFINITY;  // setup ignored
  EXPECT_EQ(planners::measure_candidates(d, {}), with);
}

TEST(SplitPayback, SetupModelInTheThresholdsFile) {
  planners::SplitThresholds t;
  t.setup.gpu_gpu = {4.5, 2.5};
  t.setup.single_algorithm_cut = 0.7;
  t.costs.gpu_gpu_max_gain = 0.2;
  const planners::SplitThresholds back = planners::SplitThresholds::from_tsv(t.to_tsv(), "f.tsv");
  EXPECT_EQ(back.setup.gpu_gpu, t.setup.gpu_gpu);
  EXPECT_DOUBLE_EQ(back.setup.single_algorithm_cut, 0.7);
  EXPECT_DOUBLE_EQ(back.costs.gpu_gpu_max_gain, 0.2);
  EXPECT_DOUBLE_EQ(planners::predict_setup_ms(back.setup, SplitPolicy::GpuGpu, 10.0), 29.5);
  EXPECT_DOUBLE_EQ(planners::predict_setup_ms(back.setup, SplitPolicy::UnifiedGpu, 10.0), 0.0);
  EXPECT_EQ(planners::SplitThresholds::from_tsv("setup_cpu_cpu_1\t3\n", "m").setup.cpu_cpu[1], 3.0);
}

}  // namespace
}  // namespace hetsparse::test
