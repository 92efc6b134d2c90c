// Factors bigger than the machine (issue 15, item 4): a factor L the host cannot hold is refused by
// factorize() before L is allocated, with the bytes it needs; the solver stays usable for a smaller
// problem afterwards.
#include <gtest/gtest.h>

#include "cholesky/cholesky_solver.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/bad_input/scoped_env.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

TEST(CholeskyMemory, FactorBeyondTheHostLimitIsRefusedWithTheBytesNeeded) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr A = laplacian_3d(40, 40, 40);
  const Csr lower = triangle(A, Triangle::Lower);
  cholesky::CholeskySolver chol(r);
  const cholesky::SymbolicFactor& sym = chol.analyze(lower);
  std::uint64_t panel_entries = 0;  // L is stored as dense supernode panels
  for (const cholesky::Supernode& s : sym.supernodes) panel_entries += std::uint64_t(s.nrows) * s.ncols;
  const std::uint64_t needed = panel_entries * sizeof(double);
  ASSERT_GT(needed, std::uint64_t{64} << 20);  // far above the limit below (and the 16 MiB unchecked)
  {
    ScopedEnv env;
    env.set("HETSPARSE_MEMORY_LIMIT", "32M");
    try {
      chol.factorize(lower);
      FAIL() << "a " << needed << "-byte factor passed a 32 MiB limit";
    } catch (const InsufficientMemory& e) {
      EXPECT_EQ(e.needed(), needed);
      EXPECT_LE(e.available(), std::uint64_t{32} << 20);
      const std::string what = e.what();
      EXPECT_NE(what.find("the Cholesky factor L (" + std::to_string(panel_entries) + " entries"), std::string::npos)
          << what;
      EXPECT_NE(what.find(InsufficientMemory::bytes_text(needed)), std::string::npos) << what;
    }
    EXPECT_FALSE(chol.factorized());
  }
  chol.factorize(lower);  // the limit lifted: the same solver goes on
  EXPECT_LE(random_solve_backward_error(chol, A, 3), 1e-14);
}

// analyze() prepares L for the default options only when it fits: under the limit the analysis still
// succeeds, and factorize() gives the typed error.
TEST(CholeskyMemory, AnalysisUnderTheLimitLeavesTheRefusalToFactorize) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr A = laplacian_3d(40, 40, 40);
  const Csr lower = triangle(A, Triangle::Lower);
  cholesky::CholeskySolver chol(r);
  {
    ScopedEnv env;
    env.set("HETSPARSE_MEMORY_LIMIT", "32M");
    EXPECT_GT(chol.analyze(lower).nnz_L, 0);
    EXPECT_THROW(chol.factorize(lower), InsufficientMemory);
  }
  chol.factorize(lower);
  EXPECT_LE(random_solve_backward_error(chol, A, 4), 1e-14);
}

}  // namespace
}  // namespace hetsparse::test
