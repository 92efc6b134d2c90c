// The fused CG step on the host against the loops it fuses (two axpy, the scaling, two dots).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/krylov/krylov.hpp"
#include "sparse/random.hpp"
#include "tests/support/cg_step_case.hpp"

namespace hetsparse::test {
namespace {

TEST(CgStepCpu, MatchesTheLoopsItFuses) {
  for (const bool scaled : {false, true}) {
    SCOPED_TRACE(scaled ? "with z = d .* r" : "without scaling");
    const CgStepCase c(1237, 0.37, 7);
    CgStepCase::Vectors v = c.inputs;
    double dots[2] = {-1, -1};
    kernels::cg_step_cpu(c.n, c.alpha, v.p.data(), v.q.data(), v.x.data(), v.r.data(),
                         scaled ? v.d.data() : nullptr, scaled ? v.z.data() : nullptr, dots);
    const CgStepCase::Expected e = c.expected(scaled);
    EXPECT_EQ(v.x, e.x);
    EXPECT_EQ(v.r, e.r);
    if (scaled) EXPECT_EQ(v.z, e.z);
    else EXPECT_EQ(v.z, c.inputs.z);  // untouched
    EXPECT_NEAR(dots[0], e.rr, 1e-13 * e.rr);
    EXPECT_NEAR(dots[1], e.rz, 1e-13 * std::abs(e.rz));
  }
  double dots[2] = {-1, -1};
  kernels::cg_step_cpu(0, 1.0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, dots);
  EXPECT_EQ(dots[0], 0.0);
  EXPECT_EQ(dots[1], 0.0);
}

}  // namespace
}  // namespace hetsparse::test
