// Permutation, elimination tree and column counts against a brute-force symbolic factorization,
// for natural, METIS and random user orderings on random patterns and generator grids.
#include <gtest/gtest.h>

#include <numeric>

#include "sparse/convert.hpp"
#include "sparse/random.hpp"
#include "symbolic/analysis.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

std::vector<index_t> subtree_sizes(const std::vector<index_t>& parent) {
  std::vector<index_t> size(parent.size(), 1);
  for (std::size_t j = 0; j < parent.size(); ++j) {
    if (parent[j] != -1) size[parent[j]] += size[j];  // parents follow their children
  }
  return size;
}

// Postorder: parents after children, and each subtree a contiguous range ending at its root
// (it suffices that every child's range lies inside its parent's). Siblings by increasing count.
void expect_weighted_postorder(const SymbolicFactor& f) {
  const std::vector<index_t> size = subtree_sizes(f.etree);
  std::vector<index_t> last_child(static_cast<std::size_t>(f.n), -1);
  for (index_t j = 0; j < f.n; ++j) {
    const index_t p = f.etree[j];
    if (p == -1) continue;
    ASSERT_GT(p, j);
    ASSERT_GE(j - size[j], p - size[p]) << "subtree of " << j << " leaves its parent's range";
    if (last_child[p] != -1) {
      ASSERT_LE(f.col_counts[last_child[p]], f.col_counts[j]) << "siblings " << j;
    }
    last_child[p] = j;
  }
}

void expect_matches_brute_force(const test::NamedMatrix& m, const AnalyzeOptions& opts) {
  SCOPED_TRACE(m.name);
  const SymbolicFactor f = analyze(triangle(m.full, Triangle::Lower), opts);
  const index_t n = m.full.rows;
  ASSERT_EQ(f.n, n);
  ASSERT_EQ(f.perm.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(f.iperm.size(), static_cast<std::size_t>(n));
  for (index_t k = 0; k < n; ++k) ASSERT_EQ(f.iperm[f.perm[k]], k);

  const test::BruteForceFactor bf = test::brute_force_factor(m.full, f.perm);
  EXPECT_EQ(f.etree, bf.etree());
  EXPECT_EQ(f.col_counts, bf.counts());
  expect_weighted_postorder(f);

  double flops = 0;
  for (const offset_t c : f.col_counts) flops += static_cast<double>(c) * static_cast<double>(c);
  EXPECT_EQ(f.nnz_L_exact, std::accumulate(f.col_counts.begin(), f.col_counts.end(), offset_t{0}));
  EXPECT_DOUBLE_EQ(f.flops, flops);
}

TEST(SymbolicTrees, NaturalOrderingMatchesBruteForce) {
  AnalyzeOptions opts;
  opts.ordering = Ordering::Natural;
  for (const auto& m : test::test_matrices()) expect_matches_brute_force(m, opts);
}

TEST(SymbolicTrees, MetisOrderingMatchesBruteForce) {
  for (const auto& m : test::test_matrices()) expect_matches_brute_force(m, AnalyzeOptions{});
}

TEST(SymbolicTrees, RandomUserOrderingMatchesBruteForceAndKeepsItsFill) {
  Rng rng(42);
  for (const auto& m : test::test_matrices()) {
    AnalyzeOptions opts;
    opts.ordering = Ordering::User;
    opts.user_perm = random_permutation(m.full.rows, rng);
    expect_matches_brute_force(m, opts);
    // The final order is the user's followed by a postorder: the same fill.
    const auto user_counts = test::brute_force_factor(m.full, opts.user_perm).counts();
    EXPECT_EQ(analyze(triangle(m.full, Triangle::Lower), opts).nnz_L_exact,
              std::accumulate(user_counts.begin(), user_counts.end(), offset_t{0}))
        << m.name;
  }
}

TEST(SymbolicTrees, AnAnalysedOrderingIsAFixedPoint) {
  // The weighted postorder of an already weighted-postordered tree is the identity.
  for (const auto& m : test::test_matrices()) {
    const Csr lower = triangle(m.full, Triangle::Lower);
    const SymbolicFactor first = analyze(lower);
    AnalyzeOptions again;
    again.ordering = Ordering::User;
    again.user_perm = first.perm;
    const SymbolicFactor second = analyze(lower, again);
    EXPECT_EQ(second.perm, first.perm) << m.name;
    EXPECT_EQ(second.rows, first.rows) << m.name;
  }
}

TEST(SymbolicTrees, MetisIsDeterministic) {
  const Csr lower = triangle(laplacian_3d(9, 8, 7), Triangle::Lower);
  EXPECT_EQ(analyze(lower).perm, analyze(lower).perm);
}

}  // namespace
}  // namespace hetsparse::cholesky
