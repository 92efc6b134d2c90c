// The split model's measured tie-break without a runtime: which policies it times (none when the
// cost models are confident or the solve is predicted expensive), the rounds of timed solves with a
// fake timer (the fastest median wins, a failing candidate is dropped), and the options' text form.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_measure.hpp"

namespace hetsparse::test {
namespace {

using planners::SplitPolicy;

// A decision of `policy` with these predictions (ms, in kAllSplitPolicies' order; NaN: ruled out).
planners::SplitDecision decided(SplitPolicy policy, std::array<double, 6> predicted) {
  planners::SplitDecision d;
  d.policy = policy;
  d.predicted_ms = predicted;
  d.reason = "hand-built";
  return d;
}

const double kNone = std::nan("");

TEST(SplitMeasure, CandidatesAreTheNearPredictionsWithTheDecisionFirst) {
  // cpu 0.20, cpu-levels 0.24, gpu 0.28, cpu-gpu 0.50, cpu-cpu 1.5: three within 2x of 0.20.
  const auto d = decided(SplitPolicy::UnifiedCpuLevels, {0.20, 0.24, 0.28, 0.50, 1.5, kNone});
  std::string why;
  const std::vector<SplitPolicy> c = planners::measure_candidates(d, {}, &why);
  EXPECT_EQ(c, (std::vector<SplitPolicy>{SplitPolicy::UnifiedCpuLevels, SplitPolicy::UnifiedCpu, SplitPolicy::UnifiedGpu}))
      << why;
  planners::SplitMeasureOptions two;
  two.max_candidates = 2;
  EXPECT_EQ(planners::measure_candidates(d, two),
            (std::vector<SplitPolicy>{SplitPolicy::UnifiedCpuLevels, SplitPolicy::UnifiedCpu}));
}

TEST(SplitMeasure, SkippedWhenConfidentExpensiveOrOff) {
  std::string why;
  // Confident: the next prediction is 3x the best.
  EXPECT_TRUE(planners::measure_candidates(decided(SplitPolicy::UnifiedCpu, {0.1, 0.3, 0.5, kNone, kNone, kNone}), {}, &why)
                  .empty());
  EXPECT_NE(why.find("confident"), std::string::npos) << why;
  // Expensive: as close as can be, but 5 ms a solve.
  EXPECT_TRUE(planners::measure_candidates(decided(SplitPolicy::UnifiedGpu, {5.2, 5.1, 5.0, 5.3, kNone, kNone}), {}, &why)
                  .empty());
  EXPECT_NE(why.find("> 2 ms"), std::string::npos) << why;
  // Off.
  planners::SplitMeasureOptions off;
  off.enabled = false;
  EXPECT_TRUE(planners::measure_candidates(decided(SplitPolicy::UnifiedCpu, {0.1, 0.1, 0.1, kNone, kNone, kNone}), off).empty());
  // A machine that rules policies out (NaN) leaves nothing to compare.
  EXPECT_TRUE(planners::measure_candidates(decided(SplitPolicy::UnifiedCpu, {0.1, kNone, kNone, kNone, kNone, kNone}), {}).empty());
}

TEST(SplitMeasure, GpuGpuBringsTheUnifiedGpu) {
  // The cost models have no GPU-GPU figure: its alternative is the GPU alone.
  const auto d = decided(SplitPolicy::GpuGpu, {3.0, 2.0, 1.0, 1.2, kNone, kNone});
  EXPECT_EQ(planners::measure_candidates(d, {}),
            (std::vector<SplitPolicy>{SplitPolicy::GpuGpu, SplitPolicy::UnifiedGpu, SplitPolicy::CpuGpu}));
}

// A fake machine for measure_split: times(p, k, first_of_turn) is the k-th call of p, the first
// solve of p after another candidate's when first_of_turn; the calls are recorded in order.
struct FakeMachine {
  std::function<double(SplitPolicy, int, bool)> times;
  std::map<SplitPolicy, int> calls;
  std::vector<SplitPolicy> order;
  planners::SolveTimer timer() {
    return [this](SplitPolicy p) {
      const bool first_of_turn = order.empty() || order.back() != p;
      order.push_back(p);
      return times(p, calls[p]++, first_of_turn);
    };
  }
};

// cpu-levels decided, cpu and gpu predicted near it: three candidates.
const planners::SplitDecision kThreeNear = decided(SplitPolicy::UnifiedCpuLevels, {0.20, 0.24, 0.28, kNone, kNone, kNone});

TEST(SplitMeasure, TheFastestMedianWinsOverRoundsOfBackToBackSolves) {
  const planners::SplitDecision& d = kThreeNear;
  const std::vector<SplitPolicy> c = planners::measure_candidates(d, {});
  ASSERT_EQ(c.size(), 3u);
  // The fake machine: cpu-levels 0.30 ms, cpu 0.10 ms with one 5 ms outlier (the median ignores
  // it), gpu 0.25 ms; the first call of each (its warm-up) takes 50 ms, and the first solve of a
  // turn after another candidate's takes 2 ms (cold caches, parked workers): never timed.
  FakeMachine machine;
  machine.times = [](SplitPolicy p, int k, bool first_of_turn) {
    if (k == 0) return 0.05;
    if (first_of_turn) return 2e-3;
    if (p == SplitPolicy::UnifiedCpu) return k == 3 ? 5e-3 : 1.0e-4;
    return p == SplitPolicy::UnifiedCpuLevels ? 3.0e-4 : 2.5e-4;
  };
  const std::map<SplitPolicy, int>& calls = machine.calls;
  const std::vector<SplitPolicy>& order = machine.order;
  planners::SplitMeasureOptions o;
  o.rounds = 4;
  o.solves = 3;
  const planners::SplitMeasurement m = planners::measure_split(d, c, o, machine.timer());
  EXPECT_TRUE(m.measured);
  EXPECT_STREQ(m.how(), "measured");
  EXPECT_EQ(m.pick, SplitPolicy::UnifiedCpu);
  ASSERT_EQ(m.candidates.size(), 3u);
  EXPECT_NEAR(m.candidates[1].measured_ms, 0.10, 1e-12);
  EXPECT_NEAR(m.candidates[0].measured_ms, 0.30, 1e-12);
  EXPECT_NEAR(m.candidates[2].measured_ms, 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(m.candidates[0].predicted_ms, 0.24);  // cpu-levels, the decided one
  for (const auto& [p, n] : calls) EXPECT_EQ(n, 2 + 4 * (1 + 3)) << planners::to_string(p);
  // Warm-ups and a second untimed solve each first, then rounds of all three, each round starting
  // one further on, a turn being four solves of one candidate.
  ASSERT_EQ(order.size(), 6u + 4 * 3 * 4);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(order[k], c[k % 3]);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(order[6 + 12 * r + 4 * j + s], c[(j + r) % 3]) << r << " " << j;
  EXPECT_NE(m.describe().find("-> cpu"), std::string::npos) << m.describe();
}

TEST(SplitMeasure, ACloseCallGetsMoreRoundsOfTheBestTwo) {
  const planners::SplitDecision& d = kThreeNear;
  const std::vector<SplitPolicy> c = planners::measure_candidates(d, {});
  ASSERT_EQ(c.size(), 3u);
  // cpu 0.205 ms and gpu 0.200 ms (within 10 %: a close call), cpu-levels 0.5 ms (out of it).
  FakeMachine machine;
  machine.times = [](SplitPolicy p, int, bool) {
    return p == SplitPolicy::UnifiedCpu ? 2.05e-4 : p == SplitPolicy::UnifiedGpu ? 2.0e-4 : 5e-4;
  };
  std::map<SplitPolicy, int>& calls = machine.calls;
  std::vector<SplitPolicy>& order = machine.order;
  const planners::SolveTimer timer = machine.timer();
  planners::SplitMeasureOptions o;  // 3 rounds of 2 timed solves, then up to 6 extra rounds
  const planners::SplitMeasurement m = planners::measure_split(d, c, o, timer);
  EXPECT_EQ(m.pick, SplitPolicy::UnifiedGpu);
  EXPECT_EQ(calls[SplitPolicy::UnifiedCpuLevels], 2 + 3 * 3);
  EXPECT_EQ(calls[SplitPolicy::UnifiedCpu], 2 + 3 * 3 + 6 * 3);
  EXPECT_EQ(calls[SplitPolicy::UnifiedGpu], 2 + 3 * 3 + 6 * 3);
  // The extra rounds alternate which of the two goes first: gpu (the best so far), then cpu.
  const std::size_t extra_start = 6 + 3 * 3 * 3;
  ASSERT_EQ(order.size(), extra_start + 6 * 6);
  EXPECT_EQ(order[extra_start], SplitPolicy::UnifiedGpu);
  EXPECT_EQ(order[extra_start + 6], SplitPolicy::UnifiedCpu);
  EXPECT_NE(m.why.find("6 more for the best two"), std::string::npos) << m.why;
  // Without the extra rounds, the three rounds alone.
  o.extra_rounds = 0;
  calls.clear();
  order.clear();
  EXPECT_EQ(planners::measure_split(d, c, o, timer).pick, SplitPolicy::UnifiedGpu);
  EXPECT_EQ(order.size(), extra_start);
}

TEST(SplitMeasure, AFailingCandidateIsDroppedAndAllFailingKeepsTheModel) {
  const auto d = decided(SplitPolicy::UnifiedGpu, {0.30, 0.25, 0.20, kNone, kNone, kNone});
  const std::vector<SplitPolicy> c = {SplitPolicy::UnifiedGpu, SplitPolicy::UnifiedCpuLevels};
  int gpu_calls = 0;
  const planners::SplitMeasurement m = planners::measure_split(d, c, {}, [&](SplitPolicy p) {
    if (p == SplitPolicy::UnifiedGpu) {
      ++gpu_calls;
      throw InvalidArgument("transform refused");
    }
    return 4e-4;
  });
  EXPECT_EQ(gpu_calls, 1) << "a candidate that failed is not timed again";
  EXPECT_TRUE(m.measured);
  EXPECT_EQ(m.pick, SplitPolicy::UnifiedCpuLevels);
  EXPECT_TRUE(std::isnan(m.candidates[0].measured_ms));
  EXPECT_EQ(m.candidates[0].error, "transform refused");
  const planners::SplitMeasurement none =
      planners::measure_split(d, c, {}, [](SplitPolicy) -> double { throw InvalidArgument("no"); });
  EXPECT_FALSE(none.measured);
  EXPECT_STREQ(none.how(), "model");
  EXPECT_EQ(none.pick, SplitPolicy::UnifiedGpu);
}

TEST(SplitMeasure, OptionsParseOnce) {
  using O = planners::SplitMeasureOptions;
  EXPECT_FALSE(O::parse("off").enabled);
  const O on = O::parse("on");
  EXPECT_TRUE(on.enabled);
  EXPECT_EQ(on.to_string(), O{}.to_string());
  const O custom = O::parse("on:margin=1.3,max-ms=0.8,candidates=2,rounds=5,solves=7,extra=0");
  EXPECT_DOUBLE_EQ(custom.margin, 1.3);
  EXPECT_DOUBLE_EQ(custom.max_predicted_ms, 0.8);
  EXPECT_EQ(custom.max_candidates, 2);
  EXPECT_EQ(custom.rounds, 5);
  EXPECT_EQ(custom.solves, 7);
  EXPECT_EQ(custom.extra_rounds, 0);
  EXPECT_EQ(O::parse(custom.to_string()).to_string(), custom.to_string());
  EXPECT_EQ(O::parse("solves=3").solves, 3);
  for (const char* bad : {"yes", "on:margin", "on:margin=0.9", "on:solves=2.5", "on:solves=0", "on:speed=2",
                          "on:candidates=1", "on:max-ms=-1", "on:max-ms=nan", "on:rounds=0", "on:rounds=1.5", "on:extra=-1", "on:extra=0.5"})
    EXPECT_THROW(O::parse(bad), InvalidArgument) << bad;
}

}  // namespace
}  // namespace hetsparse::test
