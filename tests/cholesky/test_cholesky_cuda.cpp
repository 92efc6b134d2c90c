// The supernodal Cholesky's CUDA codelets through StarPU: every factorization task forced onto the
// GPU, then a mixed CPU+GPU run; solves checked by backward error. Skips without a CUDA worker.
#include <gtest/gtest.h>


#include "cholesky/cholesky_solver.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

double solve_error(rt::Runtime& r, const Csr& A, const planners::SizeClassThresholds& th) {
  cholesky::CholeskySolver chol(r);
  chol.analyze(triangle(A, Triangle::Lower));
  chol.factorize(triangle(A, Triangle::Lower), {th});
  return random_solve_backward_error(chol, A, 5);
}

class CholeskyGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(CholeskyGpu, AllTasksOnTheGpu) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  planners::SizeClassThresholds th;
  th.inst_max_flops = 1e3;
  th.dpq_min_flops = 1e5;
  th.restrict_to = rt::Where::Cuda;
  th.gpu_subtree_min_flops = 0;  // subtree tasks too (level-batched kernel)
  // No subtree tasks: every task on the GPU; then GPU subtrees below GPU tasks.
  for (double subtree_max : {0.0, 2e5}) {
    th.subtree_max_flops = subtree_max;
    EXPECT_LE(solve_error(r, laplacian_3d(12, 11, 10), th), 1e-14) << subtree_max;
    EXPECT_LE(solve_error(r, elasticity_3d(7, 6, 6), th), 1e-14) << subtree_max;
    EXPECT_LE(solve_error(r, rmat_spd({11, 8, 0.57, 0.19, 0.19, 0.05, 3}), th), 1e-14) << subtree_max;
  }
}

TEST_P(CholeskyGpu, MixedCpuGpu) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  planners::SizeClassThresholds th;
  th.gpu_min_task_flops = 1e6;
  EXPECT_LE(solve_error(r, laplacian_3d(30, 30, 30), th), 1e-14);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, CholeskyGpu, ::testing::Values("eager", "dmdas", "heteroprio"),
                         [](const auto& p) { return std::string(p.param); });

}  // namespace
}  // namespace hetsparse::test
