// Simulated annealing on synthetic objectives (improves, reproducible per seed, budget stops it) and
// the encoding of the tuning space.
#include <gtest/gtest.h>

#include <cmath>

#include "cholesky/autotune/annealing.hpp"
#include "cholesky/autotune/tuning_space.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// A bowl with its minimum 1.0 at (0.2, 0.7, 0.9, 0.4), plus ripples so that greedy descent can stall.
double bowl(const std::vector<double>& x) {
  const double c[] = {0.2, 0.7, 0.9, 0.4};
  double s = 1.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += 4 * (x[i] - c[i]) * (x[i] - c[i]) + 0.01 * std::sin(40 * x[i]) + 0.01;
  return s;
}

TEST(Annealing, ImprovesASyntheticObjective) {
  AnnealOptions o;
  o.max_evaluations = 600;
  o.budget_s = 0;
  const AnnealResult r = anneal({0.9, 0.1, 0.1, 0.95}, bowl, o);
  EXPECT_EQ(r.evaluations, 600);
  EXPECT_FALSE(r.stopped_by_budget);
  EXPECT_GT(r.start_value, 3.0);
  EXPECT_LT(r.best_value, 1.1);
  EXPECT_DOUBLE_EQ(r.best_value, bowl(r.best));
  EXPECT_GT(r.accepted_worse, 0);  // it did anneal, not only descend
}

TEST(Annealing, SameSeedSameResultOtherSeedOtherPath) {
  AnnealOptions o;
  o.max_evaluations = 200;
  o.budget_s = 0;
  o.seed = 42;
  const AnnealResult a = anneal({0.5, 0.5, 0.5, 0.5}, bowl, o), b = anneal({0.5, 0.5, 0.5, 0.5}, bowl, o);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.best_value, b.best_value);
  EXPECT_EQ(a.accepted_worse, b.accepted_worse);
  o.seed = 43;
  EXPECT_NE(anneal({0.5, 0.5, 0.5, 0.5}, bowl, o).best, a.best);
}

TEST(Annealing, BudgetStopsEarlyAndBadInputIsAnError) {
  AnnealOptions o;
  o.max_evaluations = 1000000;
  o.budget_s = 0.05;
  const AnnealResult r = anneal({0.5, 0.5}, bowl, o);
  EXPECT_TRUE(r.stopped_by_budget);
  EXPECT_LT(r.evaluations, 1000000);
  EXPECT_THROW(anneal({}, bowl, o), InvalidArgument);
  EXPECT_THROW(anneal({1.5}, bowl, o), InvalidArgument);
}

TEST(TuningSpace, DefaultsRoundTripAndDecodeStaysInThePapersRanges) {
  TunedSettings s;
  s.thresholds.restrict_to = rt::Where::Cpu;
  for (const ThresholdParam& p : threshold_params())  // "automatic" (negative) values are resolved before encoding
    if (s.thresholds.*p.field < 0) s.thresholds.*p.field = 3e7;
  const std::vector<double> x = encode(s);
  ASSERT_EQ(x.size(), dimension());
  const TunedSettings back = decode(x, s.thresholds);
  EXPECT_EQ(amalgamation_key(back.amalgamation), amalgamation_key(kSwCholeskyAmalgamation));
  for (const ThresholdParam& p : threshold_params())
    EXPECT_NEAR(back.thresholds.*p.field, s.thresholds.*p.field, 1e-9 * s.thresholds.*p.field) << p.name;
  EXPECT_EQ(back.thresholds.restrict_to, rt::Where::Cpu);
  EXPECT_EQ(describe(back).rfind("nrelax 8/32/64/1023 zrelax 0.80/0.10/0.05/0.99", 0), 0u) << describe(back);
  for (double u : {0.0, 0.37, 1.0}) {
    const TunedSettings d = decode(std::vector<double>(dimension(), u), {});
    for (int i = 0; i < 3; ++i) {
      EXPECT_GE(d.amalgamation[i].nrelax, 1);
      EXPECT_LE(d.amalgamation[i].nrelax, 512);
    }
    EXPECT_GE(d.amalgamation[3].nrelax, 513);
    EXPECT_LE(d.amalgamation[3].nrelax, 1023);
    EXPECT_GE(d.amalgamation[0].zrelax, 0.81 - 1e-12);  // zrelax3
    for (const AmalgamationPair& p : d.amalgamation) EXPECT_NEAR(p.zrelax * 100, std::round(p.zrelax * 100), 1e-9);
  }
  EXPECT_THROW(decode({0.5}, {}), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::cholesky::autotune
