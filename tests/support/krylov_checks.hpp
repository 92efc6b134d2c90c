// The PCG check the CPU and GPU suites share: krylov::PcgSolver against the serial reference_pcg.
// Header-only: needs hetsparse_krylov and hetsparse_reference.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "krylov/pcg.hpp"
#include "reference/sparse_reference.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/pcg_reference.hpp"

namespace hetsparse::test {

inline krylov::PcgOptions pcg_options(const std::string& kind, rt::Where where, double rtol, double shift = 0) {
  krylov::PcgOptions o;
  o.rtol = rtol;
  o.max_iterations = 5000;
  o.where = where;
  o.preconditioner.kind = krylov::parse_preconditioner(kind);
  o.preconditioner.ic0.shift = shift;
  return o;
}

// PCG with preconditioner `kind` on a random b: converges where the reference does, in the same
// number of iterations (rounding moves it on ill-conditioned matrices: +-slack, at least 1), with a residual history
// that follows the reference's while rounding has not yet grown, and an x of small backward error.
// "cholesky" (an exact solve per step) has no reference: one or two iterations. Returns the report.
inline krylov::PcgReport expect_pcg_matches_reference(rt::TaskRuntime& r, const Csr& A, const std::string& kind,
                                                      rt::Where where, double rtol = 1e-10, double shift = 0,
                                                      double slack = 0.02) {
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(A.rows), 17);
  krylov::PcgSolver pcg(r, A, pcg_options(kind, where, rtol, shift));
  std::vector<double> x(b.size(), 0.0);
  const krylov::PcgReport rep = pcg.solve(b.data(), x.data());
  EXPECT_TRUE(rep.converged) << kind << ": " << rep.iterations << " iterations, relative residual "
                             << rep.relative_residual;
  EXPECT_FALSE(rep.breakdown);
  EXPECT_EQ(rep.residual_norms.size(), static_cast<std::size_t>(rep.iterations) + 1);
  EXPECT_NEAR(rep.residual_norms.front(), norm2(b), 1e-14 * norm2(b));
  if (kind == "cholesky") {
    EXPECT_LE(rep.iterations, 2);
  } else {
    const ReferencePcg expected = reference_pcg(A, b, reference_preconditioner(A, kind, shift), rtol, 5000);
    EXPECT_TRUE(expected.converged) << kind;
    EXPECT_NEAR(rep.iterations, expected.iterations, std::max(1.0, slack * expected.iterations)) << kind;
    const std::size_t common = std::min({std::size_t(5), expected.residual_norms.size(), rep.residual_norms.size()});
    for (std::size_t k = 1; k < common; ++k)
      EXPECT_NEAR(rep.residual_norms[k], expected.residual_norms[k], 1e-8 * expected.residual_norms[0])
          << kind << " k=" << k;
  }
  EXPECT_LE(rep.residual_norms.back(), rep.tolerance);
  // The true residual, not the recursive one: rtol ||b|| plus what rounding adds to it.
  std::vector<double> ax(b.size());
  ref::spmv(A, x.data(), ax.data());
  std::vector<double> res(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) res[i] = b[i] - ax[i];
  EXPECT_LE(norm2(res), 10 * rtol * norm2(b)) << kind;
  EXPECT_LE(ref::backward_error(A, x.data(), b.data()), 10 * rtol) << kind;
  return rep;
}

}  // namespace hetsparse::test
