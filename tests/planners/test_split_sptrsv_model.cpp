// The split-execution model without a runtime: DAG discovery (features and the three slicings) on
// hand-built level profiles, the flowchart's decisions on them, forced policies, and the thresholds'
// text form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_structure.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/split_triangles.hpp"

namespace hetsparse::test {
namespace {

using planners::SplitPolicy;

planners::SplitStructure structure_of(const Csr& lower, const planners::SplitStructureOptions& o = {}) {
  const sptrsv::TriangularPattern p(lower, Triangle::Lower, false);
  return planners::analyse_split_structure(p.host_view(), o);
}

planners::SplitStructure profile(const std::string& spec) { return structure_of(level_profile_lower(spec, 4, 7)); }

TEST(SplitStructure, FeaturesOfAChainGluedToABlock) {
  const planners::SplitStructure s = profile("c500+b30000x10");
  EXPECT_EQ(s.rows, 30500);
  EXPECT_EQ(s.levels, 510);
  EXPECT_DOUBLE_EQ(s.ap, 30500.0 / 510);
  EXPECT_NEAR(s.sfl_pct, 100.0 * 500 / 510, 1e-9);  // the chain's levels hold one row each
  EXPECT_NEAR(s.pfr_pct, 100.0 * 30000 / 30500, 1e-9);
  EXPECT_GE(s.mcl, 3000) << "the chain's last row feeds the whole first block level";
  // The CPU takes the chain (about 2 entries a level), the GPU the block (3000 rows a level).
  EXPECT_EQ(s.cpu_gpu.level, 500);
  EXPECT_FALSE(s.cpu_gpu.parallel_first);
  EXPECT_NEAR(s.cpu_gpu.cpu_levels_pct, 100.0 * 500 / 510, 1e-9);
  EXPECT_DOUBLE_EQ(s.cpu_gpu.gpu_pf_rows_pct, 100.0);
  EXPECT_EQ(s.hts.level, 0) << "the bad chain rows come first: no good level qualifies before the end";
}

TEST(SplitStructure, BlockThenChainPutsTheGpuFirst) {
  const planners::SplitStructure s = profile("b30000x10+c500");
  EXPECT_EQ(s.cpu_gpu.level, 10);
  EXPECT_TRUE(s.cpu_gpu.parallel_first);
  EXPECT_NEAR(s.cpu_gpu.cpu_rows_pct, 100.0 * 500 / 30500, 1e-9);
  // HTS: the wide levels are good, the chain's are bad and come after them.
  EXPECT_EQ(s.hts.level, 10);
  EXPECT_EQ(s.hts.part2_levels, 500);
  EXPECT_NEAR(s.hts.part1_rows_pct, 100.0 * 30000 / 30500, 1e-9);
}

TEST(SplitStructure, UniformWideLevelsGiveNoCpuGpuCut) {
  const planners::SplitStructure s = profile("b200000x8");
  EXPECT_EQ(s.cpu_gpu.level, 0) << "every level has far more entries than the break-even";
  EXPECT_DOUBLE_EQ(s.sfl_pct, 0.0);
  EXPECT_EQ(s.hts.level, 0) << "the whole DAG qualifies: nothing to split off";
}

TEST(SplitStructure, LongColumnsGiveASingleAlgorithmCut) {
  const planners::SplitStructure s = structure_of(hub_triangle(1000));
  EXPECT_EQ(s.mcl, 501);
  EXPECT_EQ(s.sas.long_columns, 4);
  // Cut 1: every hub entry moves to the SpMV, 4 x (ceil(500 / 32) - 1) = 60 iterations saved;
  // cut 2 keeps 250 per hub in T1 (4 x (15 - 7) = 32).
  EXPECT_EQ(s.sas.level, 1);
  EXPECT_EQ(s.sas.savings, 60);
  EXPECT_EQ(s.sas.a21_nnz, 500 * 4);
  planners::SplitStructureOptions strict;
  strict.max_spmv_row_iterations = 1;  // every row with an off-diagonal must stay in part 1
  EXPECT_EQ(structure_of(hub_triangle(1000), strict).sas.level, 0);
}

// The single-algorithm cut by brute force: savings and A21's entries at every level.
planners::SasCut brute_force_sas(const kernels::TriangularView& t, std::int64_t w) {
  const std::vector<index_t> level = planners::row_levels(t);
  planners::SasCut best;
  std::vector<std::int64_t> len(static_cast<std::size_t>(t.n), 0);
  for (index_t i = 0; i < t.n; ++i)
    for (index_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) len[t.colind[p]] += t.colind[p] != i;
  for (index_t cut = 1; cut < t.num_levels; ++cut) {
    std::vector<std::int64_t> below(static_cast<std::size_t>(t.n), 0);  // readers above the cut
    std::int64_t a21 = 0, savings = 0;
    for (index_t i = 0; i < t.n; ++i)
      for (index_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
        const index_t j = t.colind[p];
        if (j == i) continue;
        below[j] += level[i] < cut;
        a21 += level[j] < cut && level[i] >= cut;
      }
    for (index_t j = 0; j < t.n; ++j) {
      if (len[j] <= w || level[j] >= cut) continue;
      const auto iterations = [w](std::int64_t k) { return std::max<std::int64_t>(0, (k + w - 1) / w - 1); };
      savings += iterations(len[j]) - iterations(below[j]);
    }
    if (savings > best.savings) best = {cut, savings, a21, 0};
  }
  return best;
}

TEST(SplitStructure, SingleAlgorithmCutMatchesBruteForce) {
  for (bool level_copy : {true, false}) {
    sptrsv::AnalysisOptions o;
    o.level_ordered_copy = level_copy;
    for (const Csr& lower : {anchor_rmat_lower(10, 8, 4), hub_triangle(700)}) {
      const sptrsv::TriangularPattern p(lower, Triangle::Lower, false, o);
      const planners::SasCut fast = planners::analyse_split_structure(p.host_view()).sas;
      const planners::SasCut slow = brute_force_sas(p.host_view(), 32);
      ASSERT_GT(slow.savings, 0);
      EXPECT_EQ(fast.level, slow.level) << "level copy " << level_copy;
      EXPECT_EQ(fast.savings, slow.savings);
      EXPECT_EQ(fast.a21_nnz, slow.a21_nnz);
    }
  }
}

TEST(SplitStructure, TheAnalysisColumnCountsGiveTheSameStructure) {
  // The longest column and the cut's bound from the analysis's features, or counted again.
  for (const Csr& lower : {anchor_rmat_lower(12, 8, 4), hub_triangle(700), level_profile_lower("c300+b5000x5", 4, 7)}) {
    const sptrsv::TriangularPattern p(lower, Triangle::Lower, false);
    ASSERT_GE(p.features().long_column_extra_warps, 0);
    for (bool cut : {false, true}) {
      planners::SplitStructureOptions o;
      o.single_algorithm = cut;
      const planners::SplitStructure counted = planners::analyse_split_structure(p.host_view(), o);
      o.known_longest_column = p.features().mcl;
      o.known_iteration_bound = p.features().long_column_extra_warps;
      planners::SplitStructure known = planners::analyse_split_structure(p.host_view(), o);
      known.seconds = counted.seconds;  // all but the time it took
      EXPECT_EQ(planners::structure_list(known), planners::structure_list(counted)) << "cut " << cut;
      EXPECT_EQ(known.sas.bound, counted.sas.bound);
    }
  }
  // By hand: columns 0-3 of the hub triangle hold every fourth row's hub entry.
  const Csr lower = hub_triangle(700);
  std::vector<std::int64_t> column(static_cast<std::size_t>(lower.rows), 0);
  for (const index_t c : lower.colind) ++column[static_cast<std::size_t>(c)];
  std::int64_t extra = 0;
  for (const std::int64_t c : column)
    for (std::int64_t off_diagonal = c - 1; off_diagonal > 32; off_diagonal -= 32) ++extra;
  const sptrsv::TriangularPattern hub(lower, Triangle::Lower, false);
  EXPECT_GT(extra, 0);
  EXPECT_EQ(hub.features().long_column_extra_warps, extra);
}

TEST(SplitStructure, ListRoundTrip) {
  const planners::SplitStructure s = profile("b3000x6+c300");
  std::map<std::string, double> values;
  for (const auto& [name, value] : planners::structure_list(s)) values[name] = value;
  const planners::SplitStructure back = planners::structure_from_list(values);
  EXPECT_EQ(planners::structure_list(back), planners::structure_list(s));
  EXPECT_THROW(planners::analyse_split_structure(kernels::TriangularView{}, {0}), InvalidArgument);
}

TEST(SplitDecision, ChainThenBlockSplitsCpuGpuOnlyWithAGpu) {
  const planners::SplitStructure s = profile("c3000+b60000x6");
  const planners::SplitThresholds t;  // the paper's values
  const planners::SplitDecision d = planners::decide_split(s, t, {true, 1});
  EXPECT_EQ(d.policy, SplitPolicy::CpuGpu) << d.reason;
  EXPECT_EQ(d.cut_level, 3000);
  EXPECT_EQ(d.part1, planners::PartDevice::CpuSerial);
  EXPECT_EQ(d.part2, planners::PartDevice::Gpu);
  EXPECT_EQ(planners::decide_split(s, t, {false, 1}).policy, SplitPolicy::UnifiedCpu);
  planners::SplitThresholds small_only = t;
  small_only.min_rows = 100000;  // s: the triangle is too small for a CPU-GPU split
  EXPECT_NE(planners::decide_split(s, small_only, {true, 1}).policy, SplitPolicy::CpuGpu);
}

TEST(SplitDecision, WideTriangleGoesUnifiedToTheGpuAChainToOneCore) {
  const planners::SplitThresholds t;
  EXPECT_EQ(planners::decide_split(profile("b200000x8"), t, {true, 1}).policy, SplitPolicy::UnifiedGpu);
  EXPECT_EQ(planners::decide_split(profile("c5000"), t, {true, 8}).policy, SplitPolicy::UnifiedCpu);
  // Without a GPU, wide levels take the level-scheduled CPU task when there is one.
  EXPECT_EQ(planners::decide_split(profile("b200000x8"), t, {false, 8}).policy, SplitPolicy::UnifiedCpuLevels);
  EXPECT_EQ(planners::decide_split(profile("b200000x8"), t, {false, 1}).policy, SplitPolicy::UnifiedCpu);
}

TEST(SplitDecision, WideThenThinSplitsCpuCpuWhereTheLevelTaskCrawlsOverThinLevels) {
  const planners::SplitStructure s = profile("b30000x10+c500");
  planners::SplitThresholds t;
  EXPECT_EQ(planners::decide_split(s, t, {false, 4}).policy, SplitPolicy::UnifiedCpuLevels)
      << "by the starting costs the level-scheduled task also takes the thin tail well";
  t.costs.cpu_levels[1] = 1e-4;  // but if its thin levels cost 25x serial substitution's entries
  t.costs.cpu_cpu = 0.0;
  const planners::SplitDecision d = planners::decide_split(s, t, {false, 4});
  EXPECT_EQ(d.policy, SplitPolicy::CpuCpu) << d.reason;
  EXPECT_EQ(d.cut_level, 10);
  EXPECT_EQ(d.part1, planners::PartDevice::CpuLevels);
  EXPECT_EQ(d.part2, planners::PartDevice::CpuSerial);
  EXPECT_EQ(planners::decide_split(s, t, {false, 1}).policy, SplitPolicy::UnifiedCpu) << "no parallel CPU task";
}

TEST(SplitDecision, LongColumnsSplitGpuGpuWhenTheGpuWins) {
  planners::SplitStructure s = structure_of(hub_triangle(1000));
  planners::SplitThresholds t;
  t.min_iteration_savings = 50;  // c below the hub triangle's 60
  t.costs.gpu = {0.01, 0.0, 0.0};  // the cost models prefer the GPU
  t.costs.gpu_level = {0.0, 0.0, 0.0};
  planners::SplitDecision d = planners::decide_split(s, t, {true, 1});
  EXPECT_EQ(d.policy, SplitPolicy::GpuGpu) << d.reason;
  EXPECT_EQ(d.cut_level, 1);
  EXPECT_EQ(d.part1, planners::PartDevice::Gpu);
  EXPECT_EQ(d.part2, planners::PartDevice::Gpu);
  t.min_iteration_savings = 61;
  EXPECT_EQ(planners::decide_split(s, t, {true, 1}).policy, SplitPolicy::UnifiedGpu);
}

TEST(SplitDecision, CostModelsAddUpThePartsOfASplit) {
  const planners::SplitStructure s = profile("c3000+b60000x6");
  const planners::CostModel c;
  const double parts = planners::predict_ms(c, planners::PartDevice::CpuSerial, s.cpu_gpu.cpu_side) +
                       planners::predict_ms(c, planners::PartDevice::Gpu, s.cpu_gpu.gpu_side);
  EXPECT_DOUBLE_EQ(planners::predict_ms(c, SplitPolicy::CpuGpu, s), c.cpu_gpu + parts);
  EXPECT_DOUBLE_EQ(planners::predict_ms(c, SplitPolicy::UnifiedCpu, s),
                   c.cpu[0] + c.cpu[1] * static_cast<double>(s.nnz) + c.cpu[2] * static_cast<double>(s.rows));
  EXPECT_EQ(s.all.wide_levels, 6) << "the block's levels, 10000 rows each";
  EXPECT_EQ(s.cpu_gpu.cpu_side.rows + s.cpu_gpu.gpu_side.rows, s.rows);
  EXPECT_TRUE(std::isnan(planners::predict_ms(c, SplitPolicy::CpuCpu, s))) << "no HTS cut";
  const planners::SplitDecision d = planners::decide_split(s, planners::SplitThresholds{}, {true, 1});
  EXPECT_TRUE(std::isnan(d.predicted_ms[1])) << "no parallel CPU task on this machine";
  EXPECT_LT(d.predicted_ms[3], d.predicted_ms[0]);
}

TEST(SplitDecision, ForcedPoliciesNeedACutAndTheirDevices) {
  const planners::SplitStructure s = profile("b200000x8");
  EXPECT_THROW(planners::forced_split(s, SplitPolicy::CpuGpu, {true, 1}), InvalidArgument);  // no cut
  const planners::SplitStructure chain_block = profile("c3000+b60000x6");
  EXPECT_THROW(planners::forced_split(chain_block, SplitPolicy::CpuGpu, {false, 1}), InvalidArgument);  // no GPU
  const planners::SplitDecision d = planners::forced_split(chain_block, SplitPolicy::CpuGpu, {true, 1});
  EXPECT_EQ(d.cut_level, chain_block.cpu_gpu.level);
  EXPECT_EQ(planners::parse_split_policy("cpu-cpu"), SplitPolicy::CpuCpu);
  EXPECT_THROW(planners::parse_split_policy("gpu-cpu"), InvalidArgument);
}

TEST(SplitThresholds, TextRoundTripAndErrorsNameTheLine) {
  planners::SplitThresholds t;
  t.min_levels = 77;
  t.costs.gpu[2] = -1.5;
  t.costs.cpu_levels[3] = 0.25;
  const planners::SplitThresholds back = planners::SplitThresholds::from_tsv("# comment\n\n" + t.to_tsv(), "f.tsv");
  EXPECT_EQ(back.min_levels, 77);
  EXPECT_DOUBLE_EQ(back.costs.gpu[2], -1.5);
  EXPECT_DOUBLE_EQ(back.costs.cpu_levels[3], 0.25);
  EXPECT_EQ(back.to_tsv(), t.to_tsv());
  try {
    planners::SplitThresholds::from_tsv("min_rows\t5\nmin_rowz\t6\n", "model.tsv");
    FAIL() << "an unknown name must be refused";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("model.tsv:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(planners::SplitThresholds::from_tsv("min_rows\tmany\n", "m"), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
