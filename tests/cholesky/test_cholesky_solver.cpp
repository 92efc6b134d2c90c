// Cholesky end to end through StarPU on CPU workers: factorize and solve generated and real SPD
// matrices to a backward error of 1e-14, multiple right-hand sides, refactorize, logdet, and the
// failing column of an indefinite matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "cholesky/cholesky_solver.hpp"
#include "hetsparse/error.hpp"
#include "reference/dense_reference.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/matrix_market.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

// Factorizes A (full symmetric) through its lower triangle and checks the solve's backward error.
// Once with a task per supernode, once with leaf subtrees as single tasks below the rest.
void expect_solves(rt::Runtime& r, const Csr& A, double tol, const char* what) {
  for (double subtree_max : {0.0, 2e5}) {
    cholesky::CholeskySolver chol(r);
    planners::SizeClassThresholds th;
    th.inst_max_flops = 1e3;  // small matrices: still exercise all three update classes
    th.dpq_min_flops = 1e5;
    th.subtree_max_flops = subtree_max;
    chol.analyze(triangle(A, Triangle::Lower));
    const auto& rep = chol.factorize(triangle(A, Triangle::Lower), {th});
    if (subtree_max > 0) {
      EXPECT_GT(rep.plan.subtree_tasks, 0) << what;
    }
    EXPECT_LE(random_solve_backward_error(chol, A, 7), tol) << what << ", subtree_max_flops " << subtree_max;
  }
}

class CholeskyCpu : public ::testing::TestWithParam<const char*> {};

TEST_P(CholeskyCpu, GeneratedProblems) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 0));
  expect_solves(r, laplacian_2d(40, 37), 1e-14, "lap2d");
  expect_solves(r, laplacian_3d(11, 10, 9), 1e-14, "lap3d");
  expect_solves(r, elasticity_3d(6, 6, 5), 1e-14, "elast3d");
  expect_solves(r, variable_coefficient_3d(8, 8, 8, 1e4, 3), 1e-14, "varcoef3d");
  expect_solves(r, rmat_spd({10, 8, 0.57, 0.19, 0.19, 0.05, 5}), 1e-14, "rmat-spd");
  expect_solves(r, random_banded(1500, 30, 0.4, 9, true), 1e-14, "banded");
}

INSTANTIATE_TEST_SUITE_P(Schedulers, CholeskyCpu, ::testing::Values("eager", "dmdas", "heteroprio"),
                         [](const auto& p) { return std::string(p.param); });

// The command line shuts the runtime down (for its trace) while the solver still holds handles:
// the solver's destruction then has nothing left to release, and must not throw.
TEST(Cholesky, RuntimeShutDownBeforeTheSolver) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  const Csr A = laplacian_3d(9, 8, 7);
  {
    cholesky::CholeskySolver chol(r);
    chol.analyze(triangle(A, Triangle::Lower));
    chol.factorize(triangle(A, Triangle::Lower));
    EXPECT_LE(random_solve_backward_error(chol, A, 8), 1e-14);
    r.shutdown();
  }
  SUCCEED();
}

TEST(Cholesky, ManyRightHandSidesRefactorizeAndLogdet) {
  rt::Runtime r(test_runtime_options("lws", 2, 0));
  Csr A = laplacian_3d(8, 7, 6);
  cholesky::CholeskySolver chol(r);
  chol.analyze(triangle(A, Triangle::Lower));
  chol.factorize(triangle(A, Triangle::Lower));
  const int nrhs = 3;
  std::vector<double> B = random_rhs(std::size_t(A.rows) * nrhs, 3), X = B;
  chol.solve(X.data(), nrhs, A.rows);
  for (int c = 0; c < nrhs; ++c)
    EXPECT_LE(ref::backward_error(A, X.data() + std::size_t(c) * A.rows, B.data() + std::size_t(c) * A.rows), 1e-14);

  // logdet against a dense Cholesky of the same matrix.
  const int n = A.rows;
  std::vector<double> D(std::size_t(n) * n, 0.0);
  for (index_t i = 0; i < n; ++i)
    for (offset_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) D[i + std::size_t(A.colind[k]) * n] = A.values[k];
  ASSERT_EQ(ref::potrf('L', n, D.data(), n), 0);
  double logdet = 0;
  for (int i = 0; i < n; ++i) logdet += 2.0 * std::log(D[i + std::size_t(i) * n]);
  EXPECT_NEAR(chol.logdet(), logdet, 1e-10 * std::abs(logdet));

  // New values on the same pattern: A2 = 2A + I.
  Csr A2 = A;
  for (index_t i = 0; i < A2.rows; ++i)
    for (offset_t k = A2.rowptr[i]; k < A2.rowptr[i + 1]; ++k)
      A2.values[k] = 2.0 * A2.values[k] + (A2.colind[k] == i ? 1.0 : 0.0);
  chol.refactorize(triangle(A2, Triangle::Lower));
  std::vector<double> b = random_rhs(A.rows, 4), x = b;
  chol.solve(x);
  EXPECT_LE(ref::backward_error(A2, x.data(), b.data()), 1e-14);
  // L really is a factor: its CSR has the diagonal and nnz(L) of the analysis.
  const Csr L = chol.factor_L();
  EXPECT_EQ(L.nnz(), chol.symbolic().nnz_L);
}

// The solve on handles the caller registered (submit_solve): nrhs 1 and more, x apart from b and in
// place, interleaved with host solves and a refactorization; random SPD matrices well past a warp.
TEST(Cholesky, SubmitSolveOnRegisteredHandles) {
  rt::Runtime r(test_runtime_options("lws", 2, 0));
  for (const Csr& A : {rmat_spd({10, 8, 0.57, 0.19, 0.19, 0.05, 11}), random_banded(700, 25, 0.5, 13, true)}) {
    cholesky::CholeskySolver chol(r);
    chol.analyze(triangle(A, Triangle::Lower));
    planners::SizeClassThresholds th;
    th.subtree_max_flops = 1e5;
    chol.factorize(triangle(A, Triangle::Lower), {th});
    const std::size_t n = static_cast<std::size_t>(A.rows);
    for (const int nrhs : {1, 4, 1}) {
      for (const bool in_place : {false, true}) {
        const std::vector<double> B = random_rhs(n * nrhs, 20 + nrhs);
        std::vector<double> b = B, x(n * nrhs, -1.0);
        {
          rt::DataHandle hb(r, r.register_vector({b.data(), b.size()}));
          rt::DataHandle hx(r, r.register_vector({x.data(), x.size()}));
          chol.submit_solve(hb.id(), in_place ? hb.id() : hx.id(), nrhs);
          r.wait_all();
        }
        const std::vector<double>& X = in_place ? b : x;
        if (!in_place) {
          EXPECT_EQ(b, B);  // b is only read
        }
        for (int c = 0; c < nrhs; ++c)
          EXPECT_LE(ref::backward_error(A, X.data() + c * n, B.data() + c * n), 1e-14) << nrhs << " " << in_place;
      }
      EXPECT_LE(random_solve_backward_error(chol, A, 30 + nrhs), 1e-14);  // host solves in between
    }
  }
}

TEST(Cholesky, TargetsWithHundredsOfDescendantsAreSplitIntoSeveralTasks) {
  // Every update in InstQ (or every one in TPQ): the top separators of a 2D grid have far more
  // descendants than one task may take (rt::kMaxTaskData handles).
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr A = laplacian_2d(90, 90);
  for (double inst_max : {1e15, 0.0}) {
    planners::SizeClassThresholds th;
    th.inst_max_flops = inst_max;
    th.dpq_min_flops = 1e15;
    th.subtree_max_flops = 0;  // every supernode its own group, so targets have hundreds of sources
    cholesky::CholeskySolver chol(r);
    cholesky::AnalyzeOptions narrow;  // CHOLMOD's widths: more, smaller supernodes, more sources
    narrow.amalgamation = {{{4, 0.99}, {16, 0.8}, {48, 0.1}, {1023, 0.05}}};
    chol.analyze(triangle(A, Triangle::Lower), narrow);
    const auto by_t = planners::updates_by_target(chol.symbolic());
    std::size_t most = 0;
    for (const auto& v : by_t) most = std::max(most, v.size());
    ASSERT_GT(most, rt::kMaxTaskData / 2);
    chol.factorize(triangle(A, Triangle::Lower), {th});
    EXPECT_LE(random_solve_backward_error(chol, A, 8), 1e-14) << "inst_max_flops " << inst_max;
  }
}

TEST(Cholesky, SupernodesCutIntoPiecesGiveTheSameFactor) {
  // Narrow pieces (symbolic/supernode_split.hpp): the top separators become chains of many targets,
  // each updated by the pieces below it and by every descendant of the original.
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  for (const Csr& A : {laplacian_3d(12, 11, 10), elasticity_3d(6, 5, 5)}) {
    cholesky::AnalyzeOptions whole_opts, cut_opts;
    whole_opts.max_supernode_cols = 0;
    cut_opts.max_supernode_cols = 7;
    cholesky::CholeskySolver whole(r), cut(r);
    whole.analyze(triangle(A, Triangle::Lower), whole_opts);
    cut.analyze(triangle(A, Triangle::Lower), cut_opts);
    ASSERT_GT(cut.symbolic().num_supernodes(), whole.symbolic().num_supernodes() + 10);
    for (double subtree_max : {0.0, 2e5}) {
      planners::SizeClassThresholds th;
      th.subtree_max_flops = subtree_max;
      whole.factorize(triangle(A, Triangle::Lower), {th});
      cut.factorize(triangle(A, Triangle::Lower), {th});
      const Csr a = whole.factor_L(), b = cut.factor_L();
      ASSERT_EQ(a.rowptr, b.rowptr);
      ASSERT_EQ(a.colind, b.colind);
      double most = 0, diff = 0;
      for (std::size_t k = 0; k < a.values.size(); ++k) {
        most = std::max(most, std::abs(a.values[k]));
        diff = std::max(diff, std::abs(a.values[k] - b.values[k]));
      }
      EXPECT_LE(diff, 1e-12 * most) << "subtree_max_flops " << subtree_max;
      EXPECT_LE(random_solve_backward_error(cut, A, 11), 1e-14) << "subtree_max_flops " << subtree_max;
    }
  }
}

TEST(Cholesky, IndefiniteMatrixNamesTheColumn) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  Csr A = laplacian_2d(20, 20);
  const index_t bad = 137;
  for (offset_t k = A.rowptr[bad]; k < A.rowptr[bad + 1]; ++k)
    if (A.colind[k] == bad) A.values[k] = -1000.0;
  cholesky::CholeskySolver chol(r);
  chol.analyze(triangle(A, Triangle::Lower));
  try {
    chol.factorize(triangle(A, Triangle::Lower));
    FAIL() << "an indefinite matrix must not factorize";
  } catch (const NotPositiveDefinite& e) {
    EXPECT_EQ(e.column(), bad) << e.what();
  }
  EXPECT_FALSE(chol.factorized());
  std::vector<double> b(A.rows, 1.0);
  EXPECT_THROW(chol.solve(b), InvalidArgument);
}

TEST(Cholesky, RealSpdMatrices) {
  const char* dir = std::getenv("HETSPARSE_MATRICES");
  if (!dir) GTEST_SKIP() << "set HETSPARSE_MATRICES to the shared matrix folder";
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  for (const char* name : {"bcsstk13", "bcsstk16", "Dubcova1", "1138_bus", "bcsstk08"}) {
    const auto path = std::filesystem::path(dir) / (std::string(name) + ".mtx");
    if (!std::filesystem::exists(path)) continue;
    expect_solves(r, load_matrix(path.string()), 1e-14, name);
  }
}

}  // namespace
}  // namespace hetsparse::test
