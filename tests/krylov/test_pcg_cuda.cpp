// PCG on a CUDA worker (label gpu, skipped without one): every task of the iteration restricted to
// the GPU (SpMV, vector kernels, Jacobi, the IC(0) factorization's level kernels and the SpTRSV
// solves), against the serial reference PCG; and the IC(0) task on the GPU against ref::ic0.
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
