// The fused CG step on the host against the loops it fuses (two axpy, the scaling, two dots).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/krylov/krylov.hpp"
#include "sparse/random.hpp"
#include "tests/support/cg_step_case.hpp"

namespace hetsparse::test {
namespace {

TEST(CgStepCpu, MatchesTheLoopsItFuses) {
  // pq <= 0 or NaN: a breakdown, x and r stay as they were.
  for (const double pq : {1.3, -0.2, std::nan("")}) {
    for (const bool scaled : {false, true}) {
      SCOPED_TRACE(std::string(scaled ? "with z = d .* r" : "without scaling") + ", pq " + std::to_string(pq));
      const CgStepCase c(1237, 0.81, pq, 7);
      CgStepCase::Vectors v = c.inputs;
      double dots[3] = {-1, -1, -1};
      kernels::cg_step_cpu(c.n, c.rz, &c.pq, v.p.data(), v.q.data(), v.x.data(), v.r.data(),
                           scaled ? v.d.data() : nullptr, scaled ? v.z.data() : nullptr, dots);
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
      EXPECT_NEAR(dots[0], e.rr, 1e-13 * e.rr);
      EXPECT_NEAR(dots[1], e.rz, 1e-13 * std::abs(e.rz));
      EXPECT_TRUE(dots[2] == pq || (std::isnan(dots[2]) && std::isnan(pq)));
    }
  }
  double dots[3] = {-1, -1, -1};
  const double pq = 2.0;
  kernels::cg_step_cpu(0, 1.0, &pq, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, dots);
  EXPECT_EQ(dots[0], 0.0);
  EXPECT_EQ(dots[1], 0.0);
  EXPECT_EQ(dots[2], 2.0);
}

}  // namespace
}  // namespace hetsparse::test
