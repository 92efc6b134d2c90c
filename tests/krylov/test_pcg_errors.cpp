// What a user can get wrong with PCG: an IC(0) or Jacobi preconditioner of a matrix that is not
// positive definite (the column named), a non-square matrix, bad tolerances, too few iterations, and
// a breakdown on a negative definite matrix.
#include <gtest/gtest.h>

#include <vector>

#include "hetsparse/error.hpp"
#include "krylov/ic0_factor.hpp"
#include "krylov/pcg.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/convert.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/ic0_checks.hpp"
#include "tests/support/krylov_checks.hpp"

namespace hetsparse::test {
namespace {

template <class F>
std::int64_t failing_column(F&& f) {
  try {
    f();
  } catch (const NotPositiveDefinite& e) {
    return e.column();
  }
  return -1;
}

TEST(PcgErrors, NotPositiveDefiniteNamesTheColumn) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  const Csr A = indefinite_at_row_2();
  EXPECT_EQ(failing_column([&] { krylov::ic0_factor(r, A); }), 2);
  EXPECT_EQ(failing_column([&] { krylov::PcgSolver(r, A, pcg_options("ic0", rt::Where::Any, 1e-8)); }), 2);
  EXPECT_EQ(failing_column([&] { krylov::PcgSolver(r, A, pcg_options("jacobi", rt::Where::Any, 1e-8)); }), 2);
  EXPECT_EQ(failing_column([&] { krylov::PcgSolver(r, A, pcg_options("cholesky", rt::Where::Any, 1e-8)); }), 2);
  try {
    krylov::ic0_factor(r, A);
  } catch (const NotPositiveDefinite& e) {
    EXPECT_NE(std::string(e.what()).find("IC(0)"), std::string::npos) << e.what();
  }
}

TEST(PcgErrors, BadArguments) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  Csr rect = laplacian_2d(4, 4);
  rect.cols += 1;
  EXPECT_THROW(krylov::PcgSolver(r, rect, {}), InvalidArgument);
  EXPECT_THROW(krylov::ic0_factor(r, rect), InvalidArgument);
  krylov::PcgOptions o;
  o.rtol = -1;
  EXPECT_THROW(krylov::PcgSolver(r, laplacian_2d(4, 4), o), InvalidArgument);
  EXPECT_THROW(krylov::parse_preconditioner("ilu"), InvalidArgument);
  Csr no_diag = triangle(laplacian_2d(5, 5), Triangle::Lower, false);
  no_diag = full_from_triangle(no_diag);
  EXPECT_THROW(krylov::ic0_factor(r, no_diag), StructureError);
}

TEST(PcgErrors, StopsAtTheIterationLimitAndOnBreakdown) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  const Csr A = laplacian_2d(30, 30);
  krylov::PcgOptions o = pcg_options("none", rt::Where::Any, 1e-12);
  o.max_iterations = 7;
  krylov::PcgSolver pcg(r, A, o);
  const std::vector<double> b = random_rhs(A.rows, 1);
  std::vector<double> x(A.rows, 0.0);
  const krylov::PcgReport& rep = pcg.solve(b.data(), x.data());
  EXPECT_FALSE(rep.converged);
  EXPECT_EQ(rep.iterations, 7);
  EXPECT_EQ(rep.residual_norms.size(), 8u);
  EXPECT_LT(rep.residual_norms.back(), rep.residual_norms.front());
  // -A is negative definite: p.q < 0 at once.
  Csr neg = A;
  for (double& v : neg.values) v = -v;
  krylov::PcgSolver bad(r, neg, pcg_options("none", rt::Where::Any, 1e-8));
  std::vector<double> y(A.rows, 0.0);
  const krylov::PcgReport& brep = bad.solve(b.data(), y.data());
  EXPECT_TRUE(brep.breakdown);
  EXPECT_FALSE(brep.converged);
  EXPECT_EQ(brep.iterations, 0);
}

}  // namespace
}  // namespace hetsparse::test
