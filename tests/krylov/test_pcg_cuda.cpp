// PCG on a CUDA worker (label gpu, skipped without one): every task of the iteration restricted to
// the GPU (SpMV, vector kernels, Jacobi, the IC(0) factorization's level kernels and the SpTRSV
// solves), against the serial reference PCG, launched inline and as tasks; and the IC(0) task on the GPU
// against ref::ic0.
#include <gtest/gtest.h>

#include <string>

#include "hetsparse/error.hpp"
#include "krylov/ic0_factor.hpp"
#include "krylov/pcg.hpp"
#include "runtime/starpu/runtime.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/ic0_checks.hpp"
#include "tests/support/krylov_checks.hpp"

namespace hetsparse::test {
namespace {

TEST(PcgCuda, EveryPreconditionerOnTheGpu) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr A = variable_coefficient_3d(20, 18, 16, 100.0, 2);
  for (const char* kind : {"none", "jacobi", "ic0"}) expect_pcg_matches_reference(r, A, kind, rt::Where::Cuda);
  expect_pcg_matches_reference(r, anisotropic_2d(30, 30, 0.05, 0.5), "ic0", rt::Where::Cuda, 1e-10, 0.01);
}

// The iteration launched on the calling thread's stream and as tasks: the same kernels in the same
// order, so the same residual norms, with and without the phase waits.
TEST(PcgCuda, InlineLaunchesAndTasksAgree) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr A = variable_coefficient_3d(16, 15, 14, 50.0, 3);
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(A.rows), 23);
  for (const char* kind : {"none", "jacobi", "ic0"}) {
    for (bool phases : {false, true}) {
      std::vector<std::vector<double>> norms;
      for (bool launch : {true, false}) {
        krylov::PcgOptions o = pcg_options(kind, rt::Where::Cuda, 1e-10, 0);
        o.inline_launches = launch;
        o.time_phases = phases;
        krylov::PcgSolver pcg(r, A, o);
        std::vector<double> x(b.size(), 0.0);
        const krylov::PcgReport rep = pcg.solve(b.data(), x.data());
        EXPECT_TRUE(rep.converged) << kind << (launch ? " inline" : " tasks");
        EXPECT_LE(ref::backward_error(A, x.data(), b.data()), 1e-9) << kind << (launch ? " inline" : " tasks");
        norms.push_back(rep.residual_norms);
      }
      ASSERT_EQ(norms[0].size(), norms[1].size()) << kind;
      for (std::size_t k = 0; k < norms[0].size(); ++k)
        EXPECT_NEAR(norms[0][k], norms[1][k], 1e-12 * norms[0][0]) << kind << " k=" << k;
    }
  }
}

TEST(PcgCuda, Ic0TaskOnTheGpu) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  krylov::Ic0Options o;
  o.where = rt::Where::Cuda;
  for (const auto& [name, A] : ic0_matrices()) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(matches_reference_ic0(A, krylov::ic0_factor(r, A, o).values));
  }
  EXPECT_THROW(krylov::ic0_factor(r, indefinite_at_row_2(), o), NotPositiveDefinite);
}

}  // namespace
}  // namespace hetsparse::test
