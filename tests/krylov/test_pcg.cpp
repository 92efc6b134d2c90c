// PCG through StarPU's CPU workers: every preconditioner against the serial reference PCG, the IC(0)
// factorization task against ref::ic0, initial guesses and repeated solves, the phase split, and the
// SPD matrices of the shared folder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "krylov/ic0_factor.hpp"
#include "krylov/pcg.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/ic0_checks.hpp"
#include "tests/support/krylov_checks.hpp"

namespace hetsparse::test {
namespace {

TEST(Pcg, EveryPreconditionerMatchesTheReference) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr lap = laplacian_2d(40, 30);
  const Csr aniso = anisotropic_2d(24, 24, 0.05, 0.5);  // SPD, no M-matrix
  for (const char* kind : {"none", "jacobi", "ic0"}) {
    expect_pcg_matches_reference(r, lap, kind, rt::Where::Any);
    expect_pcg_matches_reference(r, aniso, kind, rt::Where::Cpu);
  }
  // One step of the complete factor solves the system: the first residual is rounding.
  const krylov::PcgReport rep = expect_pcg_matches_reference(r, lap, "cholesky", rt::Where::Any);
  EXPECT_LE(rep.iterations, 2);
}

TEST(Pcg, Ic0TaskMatchesTheReferenceWithAndWithoutShift) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  for (const auto& [name, A] : ic0_matrices()) {
    for (double shift : {0.0, 0.05}) {
      SCOPED_TRACE(name + " shift " + std::to_string(shift));
      krylov::Ic0Options o;
      o.shift = shift;
      const Csr L = krylov::ic0_factor(r, A, o);
      Csr shifted = A;
      for (index_t i = 0; i < A.rows; ++i)
        for (offset_t t = A.rowptr[i]; t < A.rowptr[i + 1]; ++t)
          if (A.colind[t] == i) shifted.values[t] *= 1.0 + shift;
      EXPECT_TRUE(matches_reference_ic0(shifted, L.values));
    }
  }
}

TEST(Pcg, InitialGuessesRepeatedSolvesAndPhases) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr A = variable_coefficient_3d(12, 10, 9, 50.0, 4);
  krylov::PcgSolver pcg(r, A, pcg_options("ic0", rt::Where::Any, 1e-10));
  const std::vector<double> b = random_rhs(A.rows, 3);
  std::vector<double> x = random_rhs(A.rows, 4);  // a non-zero guess: r0 = b - A x0
  const krylov::PcgReport first = pcg.solve(b.data(), x.data());
  ASSERT_TRUE(first.converged);
  EXPECT_LE(ref::backward_error(A, x.data(), b.data()), 1e-10);
  EXPECT_GT(first.spmv_s, 0);
  EXPECT_GT(first.precond_s, 0);
  EXPECT_GT(first.vector_s, 0);
  EXPECT_LE(first.spmv_s + first.precond_s + first.vector_s, first.solve_s);
  // The solution as the guess: nothing left to do.
  const krylov::PcgReport again = pcg.solve(b.data(), x.data());
  EXPECT_TRUE(again.converged);
  EXPECT_EQ(again.iterations, 0);
  // A new right-hand side on the same solver and registered vectors.
  const std::vector<double> b2 = random_rhs(A.rows, 5);
  std::vector<double> x2(A.rows, 0.0);
  EXPECT_TRUE(pcg.solve(b2.data(), x2.data()).converged);
  EXPECT_LE(ref::backward_error(A, x2.data(), b2.data()), 1e-10);
  // Without the phase waits the answer is the same.
  krylov::PcgOptions o = pcg_options("ic0", rt::Where::Any, 1e-10);
  o.time_phases = false;
  krylov::PcgSolver fast(r, A, o);
  std::vector<double> x3(A.rows, 0.0);
  EXPECT_EQ(fast.solve(b2.data(), x3.data()).iterations, pcg.report().iterations);
  for (index_t i = 0; i < A.rows; ++i) EXPECT_NEAR(x3[i], x2[i], 1e-12 * (1 + std::abs(x2[i])));
}

// The SPD matrices of the shared folder small enough for the dense reference IC(0): the reference
// PCG's iteration count within the issue's +-5% (ill-conditioned: rounding moves it by a few); with
// a shift where plain IC(0) breaks down.
TEST(Pcg, RealSpdMatrices) {
  const char* dir = std::getenv("HETSPARSE_MATRICES");
  if (!dir || !*dir) GTEST_SKIP() << "set HETSPARSE_MATRICES to the shared matrix folder";
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  struct Case {
    const char* name;
    double shift;
  };
  for (const Case& c : {Case{"bcsstk08", 0.0}, Case{"1138_bus", 0.0}, Case{"bcsstk26", 0.01}}) {
    SCOPED_TRACE(c.name);
    const Csr A = load_matrix(std::string(dir) + "/" + c.name + ".mtx");
    expect_pcg_matches_reference(r, A, "ic0", rt::Where::Any, 1e-8, c.shift, 0.05);
    expect_pcg_matches_reference(r, A, "jacobi", rt::Where::Any, 1e-8, 0, 0.05);
  }
}

}  // namespace
}  // namespace hetsparse::test
