// The fused CG step on the host against the loops it fuses (two axpy, the scaling, two dots), its
// scalars (the stopping test, beta, a start from the previous step's scalars), and the direction.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/krylov/krylov.hpp"
#include "sparse/random.hpp"
#include "tests/support/cg_step_case.hpp"

namespace hetsparse::test {
namespace {

using Scalars = std::vector<double>;

TEST(CgStepCpu, MatchesTheLoopsItFuses) {
  // pq <= 0 or NaN: a breakdown, x and r stay as they were.
  for (const double pq : {1.3, -0.2, std::nan("")}) {
    for (const bool scaled : {false, true}) {
      SCOPED_TRACE(std::string(scaled ? "with z = d .* r" : "without scaling") + ", pq " + std::to_string(pq));
      const CgStepCase c(1237, 0.81, pq, 7);
      CgStepCase::Vectors v = c.inputs;
      Scalars s(kernels::kCgScalars, -1);
      kernels::cg_step_cpu(c.n, {c.rz, nullptr, 0.0}, &c.pq, v.p.data(), v.q.data(), v.x.data(), v.r.data(),
                           scaled ? v.d.data() : nullptr, scaled ? v.z.data() : nullptr, s.data());
      const CgStepCase::Expected e = c.expected(scaled);
      EXPECT_EQ(v.x, e.x);
      EXPECT_EQ(v.r, e.r);
      if (!(pq > 0)) {
        EXPECT_EQ(v.r, c.inputs.r);
      }
      if (scaled) {
        EXPECT_EQ(v.z, e.z);
      } else {
        EXPECT_EQ(v.z, c.inputs.z);  // untouched
      }
      EXPECT_NEAR(s[kernels::kCgRR], e.rr, 1e-13 * e.rr);
      EXPECT_NEAR(s[kernels::kCgRZ], e.rz, 1e-13 * std::abs(e.rz));
      EXPECT_TRUE(s[kernels::kCgPQ] == pq || (std::isnan(s[kernels::kCgPQ]) && std::isnan(pq)));
      // Scaled by a positive d, r.z > 0: a breakdown only where p.q is not positive.
      EXPECT_EQ(s[kernels::kCgStop], pq > 0 ? kernels::kCgGoOn : kernels::kCgBreakdown);
      EXPECT_EQ(s[kernels::kCgBeta], pq > 0 ? s[kernels::kCgRZ] / c.rz : 0.0);
    }
  }
  Scalars s(kernels::kCgScalars, -1);
  const double pq = 2.0;
  kernels::cg_step_cpu(0, {1.0, nullptr, 0.0}, &pq, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, s.data());
  EXPECT_EQ(s, (Scalars{0.0, 0.0, 2.0, kernels::kCgConverged, 0.0}));  // r = 0: converged at any tolerance
}

// A step from the previous step's scalars takes its r.z from them, not from the host's value.
TEST(CgStepCpu, StartsFromThePreviousStepsScalars) {
  const CgStepCase c(999, 0.57, 0.9, 3);
  CgStepCase::Vectors a = c.inputs, b = c.inputs;
  Scalars from_host(kernels::kCgScalars), chained(kernels::kCgScalars);
  const Scalars prev{4.0, c.rz, 1.5, kernels::kCgGoOn, 0.3};
  kernels::cg_step_cpu(c.n, {c.rz, nullptr, 1e-30}, &c.pq, a.p.data(), a.q.data(), a.x.data(), a.r.data(), a.d.data(),
                       a.z.data(), from_host.data());
  kernels::cg_step_cpu(c.n, {123.0, prev.data(), 1e-30}, &c.pq, b.p.data(), b.q.data(), b.x.data(), b.r.data(),
                       b.d.data(), b.z.data(), chained.data());
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.r, b.r);
  EXPECT_EQ(a.z, b.z);
  EXPECT_EQ(from_host, chained);
}

// After a step that stopped (converged or broke down), a step changes nothing and passes its scalars on.
TEST(CgStepCpu, AfterAStopChangesNothing) {
  for (const double stop : {kernels::kCgConverged, kernels::kCgBreakdown}) {
    const CgStepCase c(700, 0.57, 0.9, 4);
    CgStepCase::Vectors v = c.inputs;
    const Scalars prev{1e-20, 2e-20, 0.7, stop, 0.0};
    Scalars s(kernels::kCgScalars, -1);
    kernels::cg_step_cpu(c.n, {c.rz, prev.data(), 0.0}, &c.pq, v.p.data(), v.q.data(), v.x.data(), v.r.data(),
                         v.d.data(), v.z.data(), s.data());
    EXPECT_EQ(v.x, c.inputs.x);
    EXPECT_EQ(v.r, c.inputs.r);
    EXPECT_EQ(v.z, c.inputs.z);
    EXPECT_EQ(s, prev);
  }
}

// Converged exactly when r.r <= tol2; then beta is 0.
TEST(CgStepCpu, ConvergedWhenRrIsAtMostTol2) {
  const CgStepCase c(500, 0.6, 1.1, 9);
  auto run = [&c](double tol2) {
    CgStepCase::Vectors v = c.inputs;
    Scalars s(kernels::kCgScalars);
    kernels::cg_step_cpu(c.n, {c.rz, nullptr, tol2}, &c.pq, v.p.data(), v.q.data(), v.x.data(), v.r.data(), nullptr,
                         nullptr, s.data());
    return s;
  };
  const double rr = run(0.0)[kernels::kCgRR];
  for (const double factor : {1.0, 1.001, 0.999}) {
    const Scalars s = run(rr * factor);
    EXPECT_EQ(s[kernels::kCgStop], factor >= 1.0 ? kernels::kCgConverged : kernels::kCgGoOn) << factor;
    EXPECT_EQ(s[kernels::kCgBeta], factor >= 1.0 ? 0.0 : rr / c.rz);
  }
}

TEST(CgDirectionCpu, UpdatesPUnlessTheStepStopped) {
  Rng rng(5);
  const int n = 777;
  std::vector<double> z(n), p(n);
  for (int i = 0; i < n; ++i) {
    z[i] = uniform(rng, -1, 1);
    p[i] = uniform(rng, -1, 1);
  }
  std::vector<double> q = p;
  kernels::cg_direction_cpu(n, z.data(), Scalars{1, 2, 3, kernels::kCgGoOn, 0.37}.data(), q.data());
  for (int i = 0; i < n; ++i) ASSERT_EQ(q[i], z[i] + 0.37 * p[i]) << i;
  for (const double stop : {kernels::kCgConverged, kernels::kCgBreakdown}) {
    std::vector<double> kept = p;
    kernels::cg_direction_cpu(n, z.data(), Scalars{1, 2, 3, stop, 0.37}.data(), kept.data());
    EXPECT_EQ(kept, p);
  }
}

}  // namespace
}  // namespace hetsparse::test
