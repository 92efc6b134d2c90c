// Small factors on the calling thread (planners::host_takes_whole_factor): the same factor as the
// task graph's, correct solves when the factor moves between the two paths and after new values,
// the failing column of an indefinite matrix, and the task graph kept for a caller-set layout.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cholesky/cholesky_solver.hpp"
#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/support/cholesky_checks.hpp"
#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

planners::SizeClassThresholds with_host_limit(double host_whole_max_flops) {
  planners::SizeClassThresholds th;
  th.host_whole_max_flops = host_whole_max_flops;
  return th;
}

// 3A + 2I: new values on the same pattern.
Csr shifted(const Csr& A) {
  Csr B = A;
  for (index_t i = 0; i < A.rows; ++i)
    for (offset_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
      B.values[k] = 3.0 * A.values[k] + (A.colind[k] == i ? 2.0 : 0.0);
  return B;
}

// Random values (a banded matrix, a 3D problem with varying coefficients, a diagonal one: one-column
// supernodes only): the factor made here equals the task graph's entry by entry.
TEST(CholeskySmallFactor, SameFactorAsTheTaskGraph) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  Csr diagonal = random_banded(700, 0, 1.0, 4, true);
  for (const Csr& A : {random_banded(1500, 30, 0.4, 9, true), variable_coefficient_3d(9, 8, 7, 1e3, 5), diagonal}) {
    const Csr lower = triangle(A, Triangle::Lower);
    cholesky::CholeskySolver here(r), tasks(r);
    here.analyze(lower);
    tasks.analyze(lower);
    ASSERT_LT(here.symbolic().flops, 1e7);
    EXPECT_TRUE(here.factorize(lower, {with_host_limit(1e7)}).on_calling_thread);
    const auto& rep = tasks.factorize(lower, {with_host_limit(-1)});
    EXPECT_FALSE(rep.on_calling_thread);
    EXPECT_GT(rep.plan.tasks, 0);
    const Csr La = here.factor_L(), Lb = tasks.factor_L();
    ASSERT_EQ(La.nnz(), Lb.nnz());
    double most = 0, diff = 0;
    for (offset_t k = 0; k < La.nnz(); ++k) {
      EXPECT_EQ(La.colind[k], Lb.colind[k]);
      most = std::max(most, std::abs(Lb.values[k]));
      diff = std::max(diff, std::abs(La.values[k] - Lb.values[k]));
    }
    EXPECT_LE(diff, 1e-13 * most) << A.rows << " rows";
    EXPECT_NEAR(here.logdet(), tasks.logdet(), 1e-10 * std::abs(tasks.logdet()) + 1e-10);
    EXPECT_LE(random_solve_backward_error(here, A, 3), 1e-14) << A.rows << " rows";
  }
}

// One solver: here, new values here, the task graph, here again; each factor solved (its solve tasks
// read the panels wherever the last factorization left them).
TEST(CholeskySmallFactor, BetweenThePathsAndNewValues) {
  rt::Runtime r(test_runtime_options("lws", 2, 0));
  const Csr A = variable_coefficient_3d(10, 9, 8, 1e2, 11), B = shifted(A);
  cholesky::CholeskySolver chol(r);
  chol.analyze(triangle(A, Triangle::Lower));
  struct Round {
    const Csr* M;
    double host;
  };
  int i = 0;
  for (const Round& round : {Round{&A, 1e7}, Round{&B, 1e7}, Round{&A, -1}, Round{&B, -1}, Round{&A, 1e7}}) {
    const auto& rep = chol.factorize(triangle(*round.M, Triangle::Lower), {with_host_limit(round.host)});
    EXPECT_EQ(rep.on_calling_thread, round.host > 0) << "round " << i;
    EXPECT_LE(random_solve_backward_error(chol, *round.M, 20 + i), 1e-14) << "round " << i;
    ++i;
  }
}

// A 2D mesh, and a diagonal matrix (one-column supernodes only).
TEST(CholeskySmallFactor, IndefiniteMatrixNamesTheColumnOnBothPaths) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  struct Case {
    Csr spd;
    index_t bad;
  };
  for (const Case& c : {Case{laplacian_2d(20, 20), 137}, Case{random_banded(700, 0, 1.0, 4, true), 333}}) {
    Csr A = c.spd;
    for (offset_t k = A.rowptr[c.bad]; k < A.rowptr[c.bad + 1]; ++k)
      if (A.colind[k] == c.bad) A.values[k] = -1000.0;
    for (double host : {1e7, -1.0}) {
      cholesky::CholeskySolver chol(r);
      chol.analyze(triangle(A, Triangle::Lower));
      try {
        chol.factorize(triangle(A, Triangle::Lower), {with_host_limit(host)});
        FAIL() << "an indefinite matrix must not factorize";
      } catch (const NotPositiveDefinite& e) {
        EXPECT_EQ(e.column(), c.bad) << e.what() << " (host limit " << host << ")";
      }
      EXPECT_FALSE(chol.factorized());
      // The same solver then factorizes the SPD matrix of that pattern: no stale pivot status.
      EXPECT_NO_THROW(chol.factorize(triangle(c.spd, Triangle::Lower), {with_host_limit(host)}));
      EXPECT_LE(random_solve_backward_error(chol, c.spd, 4), 1e-14);
    }
  }
}

// Only an automatic layout is replaced: a caller-set subtree limit asks for its tasks.
TEST(CholeskySmallFactor, CallerSetLayoutKeepsItsTasks) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr A = random_banded(900, 20, 0.5, 3, true);
  cholesky::CholeskySolver chol(r);
  chol.analyze(triangle(A, Triangle::Lower));
  planners::SizeClassThresholds th = with_host_limit(1e12);
  th.subtree_max_flops = 0;
  const auto& rep = chol.factorize(triangle(A, Triangle::Lower), {th});
  EXPECT_FALSE(rep.on_calling_thread);
  EXPECT_GT(rep.plan.tasks, 0);
  EXPECT_LE(random_solve_backward_error(chol, A, 6), 1e-14);
}

}  // namespace
}  // namespace hetsparse::test
