// The supernodal Cholesky's CUDA codelets through StarPU: every factorization task forced onto the
// GPU, then a mixed CPU+GPU run; solves checked by backward error. Skips without a CUDA worker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

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

// Leaf subtrees on the CPUs, the top of the tree on the GPU (small limits for small test problems).
planners::SizeClassThresholds top_targets_on_the_gpu() {
  planners::SizeClassThresholds th;
  th.gpu_min_task_flops = 1e5;
  th.gpu_only_min_flops = 1e6;
  th.subtree_max_flops = 2e5;
  return th;
}

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
  th.gpu_whole_min_flops = -1;  // a factor this small would go to the GPU whole
  EXPECT_LE(solve_error(r, laplacian_3d(30, 30, 30), th), 1e-14);
}

// The top of the tree on the GPU where the factorization left it (Cuda homes assembled there): the
// solve's forward and backward tasks run there, for one and several right-hand sides, on host
// vectors and on handles the caller registered, before and after a refactorization.
TEST_P(CholeskyGpu, SolveWhereThePanelsLive) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const planners::SizeClassThresholds th = top_targets_on_the_gpu();
  for (const Csr& A : {laplacian_3d(24, 23, 22), rmat_spd({12, 8, 0.57, 0.19, 0.19, 0.05, 7})}) {
    cholesky::CholeskySolver chol(r);
    const Csr lower = triangle(A, Triangle::Lower);
    chol.analyze(lower);
    chol.factorize(lower, {th});
    const std::size_t n = static_cast<std::size_t>(A.rows);
    for (int round = 0; round < 2; ++round) {
      for (const int nrhs : {1, 16}) {
        const std::vector<double> B = random_rhs(n * nrhs, 40 + nrhs + round);
        std::vector<double> X = B;
        chol.solve(X.data(), nrhs, A.rows);
        for (int c = 0; c < nrhs; ++c)
          EXPECT_LE(ref::backward_error(A, X.data() + c * n, B.data() + c * n), 1e-14) << nrhs << " host";
        // ldb > n: the columns apart in the caller's array (staged), the gap left as it was.
        const std::size_t ldb = n + 3;
        std::vector<double> Y(ldb * nrhs, -7.0);
        for (int c = 0; c < nrhs; ++c) std::copy(B.begin() + c * n, B.begin() + (c + 1) * n, Y.begin() + c * ldb);
        chol.solve(Y.data(), nrhs, static_cast<int>(ldb));
        for (int c = 0; c < nrhs; ++c) {
          EXPECT_LE(ref::backward_error(A, Y.data() + c * ldb, B.data() + c * n), 1e-14) << nrhs << " host, ldb > n";
          for (std::size_t i = n; i < ldb; ++i) EXPECT_EQ(Y[c * ldb + i], -7.0) << nrhs << " gap of column " << c;
        }
        std::vector<double> b = B;
        {
          rt::DataHandle hb(r, r.register_vector({b.data(), b.size()}));
          r.prefetch_to_gpu(hb.id());  // as a vector StarPU already holds on the GPU
          chol.submit_solve(hb.id(), hb.id(), nrhs);
          r.wait_all();
        }
        for (int c = 0; c < nrhs; ++c)
          EXPECT_LE(ref::backward_error(A, b.data() + c * n, B.data() + c * n), 1e-14) << nrhs << " handles";
      }
      chol.refactorize(lower);  // same values: the same factor, assembled again where it lives
    }
    // The host copy of the factor comes back on request.
    EXPECT_EQ(chol.factor_L().nnz(), chol.symbolic().nnz_L);
    EXPECT_TRUE(std::isfinite(chol.logdet()));
  }
}

// New values on the same pattern reach the GPU: A's entries stay registered between factorizations
// (their positions stay on the GPU), so each refactorization must replace the values' GPU copy.
// Top targets on the GPU, then the whole factor as one GPU subtree.
TEST_P(CholeskyGpu, RefactorizeWithNewValues) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  planners::SizeClassThresholds whole;
  whole.gpu_subtree_only_min_flops = 1e5;
  whole.gpu_whole_max_flops_per_entry = 1e12;
  whole.host_whole_max_flops = -1;  // not on the calling thread
  const std::pair<Csr, planners::SizeClassThresholds> cases[] = {{laplacian_3d(20, 19, 18), top_targets_on_the_gpu()},
                                                                 {laplacian_2d(90, 80), whole}};
  for (const auto& [A, th] : cases) {
    cholesky::CholeskySolver chol(r);
    chol.analyze(triangle(A, Triangle::Lower));
    Csr scaled = A;
    for (int round = 0; round < 3; ++round) {
      // round 1: 3A + 2I; rounds 0 and 2: A.
      for (index_t i = 0; i < A.rows; ++i)
        for (offset_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
          scaled.values[k] = round == 1 ? 3.0 * A.values[k] + (A.colind[k] == i ? 2.0 : 0.0) : A.values[k];
      chol.factorize(triangle(scaled, Triangle::Lower), {th});
      EXPECT_GT(chol.report().groups_cuda, 0) << round;
      EXPECT_LE(random_solve_backward_error(chol, scaled, 11 + round), 1e-14) << A.rows << " round " << round;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, CholeskyGpu, ::testing::Values("eager", "dmdas", "heteroprio"),
                         [](const auto& p) { return std::string(p.param); });

}  // namespace
}  // namespace hetsparse::test
