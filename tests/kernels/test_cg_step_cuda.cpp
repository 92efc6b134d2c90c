// The fused CG step on the GPU against the loops it fuses: more blocks than the kernel launches
// (grid-stride), a poisoned workspace, the same bits from run to run, p.q read on the device (a
// non-positive one leaves x and r alone), a start from the previous step's scalars on the device, the
// stop passed on, and the direction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/krylov/krylov.hpp"
#include "tests/support/cg_step_case.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using CgStepCuda = CudaStreamTest;

// Runs the step on device copies of c's inputs, from the host's r.z or (prev) from previous scalars on
// the device; returns x, r, z and the step's scalars.
struct StepResult {
  std::vector<double> x, r, z, dots;
};
StepResult run_step(cudaStream_t s, const CgStepCase& c, bool scaled, const std::vector<double>* prev = nullptr,
                    double tol2 = 0.0) {
  const CgStepCase::Vectors& v = c.inputs;
  const DeviceArray<double> p(s, v.p), q(s, v.q), d(s, v.d), pq(s, std::vector<double>{c.pq});
  const DeviceArray<double> before(s, prev ? *prev : std::vector<double>(kernels::kCgScalars));
  DeviceArray<double> x(s, v.x), r(s, v.r), z(s, v.z), dots(kernels::kCgScalars), work(kernels::kCgStepWorkspaceDoubles);
  dots.poison(s);
  work.poison(s);  // the arrival counter must be reset by the call
  const kernels::CgStepFrom from{prev ? -1.0 : c.rz, prev ? before.get() : nullptr, tol2};
  kernels::cg_step_cuda(s, c.n, from, pq.get(), p.get(), q.get(), x.get(), r.get(), scaled ? d.get() : nullptr,
                        scaled ? z.get() : nullptr, dots.get(), work.get());
  return {x.download(s), r.download(s), z.download(s), dots.download(s)};
}

TEST_F(CgStepCuda, MatchesTheLoopsItFuses) {
  for (const int n : {1, 31, 1000, 300007}) {  // 300007: more than 1024 blocks of 256
    for (const bool scaled : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (scaled ? ", z = d .* r" : ", no scaling"));
      const CgStepCase c(n, 0.73, 1.19, 11 + n);
      const CgStepCase::Expected e = c.expected(scaled);
      const StepResult got = run_step(stream_, c, scaled);
      for (int i = 0; i < n; ++i) {  // the GPU may fuse the multiply-add: one rounding instead of two
        ASSERT_NEAR(got.x[i], e.x[i], 2 * kEps * (std::abs(c.inputs.x[i]) + std::abs(c.alpha * c.inputs.p[i]))) << i;
        ASSERT_NEAR(got.r[i], e.r[i], 2 * kEps * (std::abs(c.inputs.r[i]) + std::abs(c.alpha * c.inputs.q[i]))) << i;
        if (scaled) {
          const double r_error = 2 * kEps * (std::abs(c.inputs.r[i]) + std::abs(c.alpha * c.inputs.q[i]));
          ASSERT_NEAR(got.z[i], e.z[i], kEps * std::abs(e.z[i]) + std::abs(c.inputs.d[i]) * r_error) << i;
        } else {
          ASSERT_EQ(got.z[i], c.inputs.z[i]) << i;  // untouched
        }
      }
      EXPECT_NEAR(got.dots[0], e.rr, 1e-12 * e.rr);
      EXPECT_NEAR(got.dots[1], e.rz, 1e-12 * (std::abs(e.rz) + e.rr));
      EXPECT_EQ(got.dots[kernels::kCgPQ], c.pq);
      EXPECT_EQ(got.dots[kernels::kCgStop], kernels::kCgGoOn);
      EXPECT_EQ(got.dots[kernels::kCgBeta], got.dots[kernels::kCgRZ] / c.rz);
      const StepResult again = run_step(stream_, c, scaled);
      EXPECT_EQ(std::memcmp(again.dots.data(), got.dots.data(), kernels::kCgScalars * sizeof(double)), 0);  // block order
      // From the same r.z as the previous step's scalars on the device: the same bits.
      const std::vector<double> prev{1.0, c.rz, 2.0, kernels::kCgGoOn, 3.0};
      const StepResult chained = run_step(stream_, c, scaled, &prev);
      EXPECT_EQ(chained.x, got.x);
      EXPECT_EQ(chained.r, got.r);
      EXPECT_EQ(chained.dots, got.dots);
      // Converged when r.r <= tol2.
      const StepResult done = run_step(stream_, c, scaled, &prev, got.dots[kernels::kCgRR]);
      EXPECT_EQ(done.dots[kernels::kCgStop], kernels::kCgConverged);
      EXPECT_EQ(done.dots[kernels::kCgBeta], 0.0);
    }
  }
}

TEST_F(CgStepCuda, BreakdownLeavesXAndRAsTheyWere) {
  for (const double pq : {0.0, -3.0, std::nan("")}) {
    const CgStepCase c(5000, 0.73, pq, 5);
    const StepResult got = run_step(stream_, c, true);
    EXPECT_EQ(got.x, c.inputs.x);
    EXPECT_EQ(got.r, c.inputs.r);
    EXPECT_TRUE(got.dots[kernels::kCgPQ] == pq || (std::isnan(got.dots[kernels::kCgPQ]) && std::isnan(pq)));
    EXPECT_EQ(got.dots[kernels::kCgStop], kernels::kCgBreakdown);
    const CgStepCase::Expected e = c.expected(true);
    EXPECT_NEAR(got.dots[kernels::kCgRR], e.rr, 1e-12 * e.rr);
  }
}

// After a step that stopped, the step changes nothing and passes the scalars on.
TEST_F(CgStepCuda, AfterAStopChangesNothing) {
  for (const double stop : {kernels::kCgConverged, kernels::kCgBreakdown}) {
    const CgStepCase c(300007, 0.73, 1.19, 6);
    const std::vector<double> prev{1e-20, 2e-20, 0.7, stop, 0.0};
    const StepResult got = run_step(stream_, c, true, &prev);
    EXPECT_EQ(got.x, c.inputs.x);
    EXPECT_EQ(got.r, c.inputs.r);
    EXPECT_EQ(got.z, c.inputs.z);
    EXPECT_EQ(got.dots, prev);
  }
}

TEST_F(CgStepCuda, DirectionUpdatesPUnlessTheStepStopped) {
  Rng rng(8);
  const int n = 300007;
  std::vector<double> z(n), p(n);
  for (int i = 0; i < n; ++i) {
    z[i] = uniform(rng, -1, 1);
    p[i] = uniform(rng, -1, 1);
  }
  for (const double stop : {kernels::kCgGoOn, kernels::kCgConverged, kernels::kCgBreakdown}) {
    const DeviceArray<double> dz(stream_, z), scalars(stream_, std::vector<double>{1, 2, 3, stop, 0.37});
    DeviceArray<double> dp(stream_, p);
    kernels::cg_direction_cuda(stream_, n, dz.get(), scalars.get(), dp.get());
    const std::vector<double> got = dp.download(stream_);
    for (int i = 0; i < n; ++i)  // one rounding (a fused multiply-add) or two
      ASSERT_NEAR(got[i], stop == kernels::kCgGoOn ? z[i] + 0.37 * p[i] : p[i], 2 * kEps * (std::abs(z[i]) + std::abs(p[i])))
          << i;
  }
}

}  // namespace
}  // namespace hetsparse::test
