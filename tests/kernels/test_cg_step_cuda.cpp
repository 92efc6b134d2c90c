// The fused CG step on the GPU against the loops it fuses: more blocks than the kernel launches
// (grid-stride), a poisoned workspace, the same bits from run to run, p.q read on the device (a
// non-positive one leaves x and r alone).
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

// Runs the step on device copies of c's inputs; returns x, r, z and the dots.
struct StepResult {
  std::vector<double> x, r, z, dots;
};
StepResult run_step(cudaStream_t s, const CgStepCase& c, bool scaled) {
  const CgStepCase::Vectors& v = c.inputs;
  const DeviceArray<double> p(s, v.p), q(s, v.q), d(s, v.d), pq(s, std::vector<double>{c.pq});
  DeviceArray<double> x(s, v.x), r(s, v.r), z(s, v.z), dots(3), work(kernels::kCgStepWorkspaceDoubles);
  dots.poison(s);
  work.poison(s);  // the arrival counter must be reset by the call
  kernels::cg_step_cuda(s, c.n, c.rz, pq.get(), p.get(), q.get(), x.get(), r.get(), scaled ? d.get() : nullptr,
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
      EXPECT_EQ(got.dots[2], c.pq);
      const StepResult again = run_step(stream_, c, scaled);
      EXPECT_EQ(std::memcmp(again.dots.data(), got.dots.data(), 3 * sizeof(double)), 0);  // block order
    }
  }
}

TEST_F(CgStepCuda, BreakdownLeavesXAndRAsTheyWere) {
  for (const double pq : {0.0, -3.0, std::nan("")}) {
    const CgStepCase c(5000, 0.73, pq, 5);
    const StepResult got = run_step(stream_, c, true);
    EXPECT_EQ(got.x, c.inputs.x);
    EXPECT_EQ(got.r, c.inputs.r);
    EXPECT_TRUE(got.dots[2] == pq || (std::isnan(got.dots[2]) && std::isnan(pq)));
    const CgStepCase::Expected e = c.expected(true);
    EXPECT_NEAR(got.dots[0], e.rr, 1e-12 * e.rr);
  }
}

}  // namespace
}  // namespace hetsparse::test
