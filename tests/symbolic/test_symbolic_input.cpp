// Input forms (lower, upper, full; duplicates; unsorted rows; missing diagonal) give the same
// analysis, malformed inputs and options are reported with the offending entry, degenerate sizes work.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analysis.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

using test::expect_same_analysis;

AnalyzeOptions with_input(InputTriangle input) {
  AnalyzeOptions opts;
  opts.input = input;
  return opts;
}

TEST(SymbolicInput, LowerUpperAndFullGiveTheSameAnalysis) {
  for (const auto& m : test::test_matrices()) {
    SCOPED_TRACE(m.name);
    const SymbolicFactor lower = analyze(triangle(m.full, Triangle::Lower));
    expect_same_analysis(lower, analyze(triangle(m.full, Triangle::Upper), with_input(InputTriangle::Upper)));
    expect_same_analysis(lower, analyze(m.full, with_input(InputTriangle::Full)));
  }
}

// Rows whose kept entries rise take symmetric_graph's path without sorting; the same rows reversed
// take the sorting one. Both give the same graph, on a matrix large enough for several threads.
TEST(SymbolicInput, RisingAndReversedRowsGiveTheSameGraph) {
  const Csr full = random_banded(70000, 300, 0.03, 5, true);
  const auto reversed = [](Csr m) {
    for (index_t i = 0; i < m.rows; ++i) {
      std::reverse(m.colind.begin() + m.rowptr[i], m.colind.begin() + m.rowptr[i + 1]);
      std::reverse(m.values.begin() + m.rowptr[i], m.values.begin() + m.rowptr[i + 1]);
    }
    return m;
  };
  const std::pair<Csr, InputTriangle> inputs[] = {{triangle(full, Triangle::Lower), InputTriangle::Lower},
                                                  {triangle(full, Triangle::Upper), InputTriangle::Upper},
                                                  {full, InputTriangle::Full}};
  const AdjacencyGraph first = symmetric_graph(inputs[0].first, InputTriangle::Lower);
  ASSERT_GT(first.num_arcs(), 4 * static_cast<offset_t>(full.rows));
  for (index_t v = 0; v < first.n; ++v) {  // rising lists without the vertex itself
    for (offset_t p = first.xadj[v]; p < first.xadj[v + 1]; ++p) {
      ASSERT_NE(first.adj[p], v);
      if (p > first.xadj[v]) {
        ASSERT_LT(first.adj[p - 1], first.adj[p]);
      }
    }
  }
  for (const auto& [a, input] : inputs) {
    SCOPED_TRACE(static_cast<int>(input));
    for (const Csr& m : {a, reversed(a)}) {
      const AdjacencyGraph g = symmetric_graph(m, input);
      EXPECT_EQ(g.n, first.n);
      EXPECT_EQ(g.xadj, first.xadj);
      EXPECT_EQ(g.adj, first.adj);
    }
  }
}

TEST(SymbolicInput, DuplicatesUnsortedRowsAndMissingDiagonalsDoNotMatter) {
  const Csr full = test::random_spd(200, 0.02, 31);
  const SymbolicFactor reference = analyze(triangle(full, Triangle::Lower));
  // Every entry stored twice (both copies halved: the full matrix stays symmetric), rows shuffled.
  Coo doubled = to_coo(full);
  const std::size_t entries = doubled.row.size();
  for (std::size_t k = 0; k < entries; ++k) {
    doubled.val[k] /= 2;
    doubled.row.push_back(doubled.row[k]);
    doubled.col.push_back(doubled.col[k]);
    doubled.val.push_back(doubled.val[k]);
  }
  Csr messy;
  messy.rows = messy.cols = full.rows;
  messy.rowptr.assign(static_cast<std::size_t>(full.rows) + 1, 0);
  for (const index_t r : doubled.row) ++messy.rowptr[r + 1];
  for (index_t r = 0; r < full.rows; ++r) messy.rowptr[r + 1] += messy.rowptr[r];
  std::vector<offset_t> next(messy.rowptr.begin(), messy.rowptr.end() - 1);
  messy.colind.resize(doubled.row.size());
  messy.values.resize(doubled.row.size());
  std::mt19937_64 rng(3);
  std::vector<std::size_t> order(doubled.row.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::shuffle(order.begin(), order.end(), rng);
  for (const std::size_t k : order) {
    messy.colind[next[doubled.row[k]]] = doubled.col[k];
    messy.values[next[doubled.row[k]]++] = doubled.val[k];
  }
  expect_same_analysis(reference, analyze(messy, with_input(InputTriangle::Full)));
  expect_same_analysis(reference, analyze(triangle(messy, Triangle::Lower)));

  const Csr no_diagonal = triangle(full, Triangle::Lower, false);
  expect_same_analysis(reference, analyze(no_diagonal));
}

// The entry the error names, or (-1, -1) when nothing is thrown.
std::pair<std::int64_t, std::int64_t> reported_entry(const Csr& a, InputTriangle input) {
  try {
    analyze(a, with_input(input));
  } catch (const StructureError& e) {
    return {e.row(), e.col()};
  }
  return {-1, -1};
}

Csr with_extra_entry(const Csr& a, index_t row, index_t col, double value) {
  Coo coo = to_coo(a);
  coo.row.push_back(row);
  coo.col.push_back(col);
  coo.val.push_back(value);
  return to_csr(coo);
}

TEST(SymbolicInput, EntriesOnTheWrongSideAreReportedFirstInRowMajorOrder) {
  const Csr full = laplacian_2d(6, 5);  // 30 rows
  const Csr lower = triangle(full, Triangle::Lower);
  const Csr upper = triangle(full, Triangle::Upper);
  EXPECT_EQ(reported_entry(with_extra_entry(with_extra_entry(lower, 20, 27, 1.0), 7, 9, 1.0), InputTriangle::Lower),
            std::make_pair(std::int64_t{7}, std::int64_t{9}));
  EXPECT_EQ(reported_entry(with_extra_entry(upper, 12, 3, 1.0), InputTriangle::Upper),
            std::make_pair(std::int64_t{12}, std::int64_t{3}));
  EXPECT_EQ(reported_entry(full, InputTriangle::Lower), std::make_pair(std::int64_t{0}, std::int64_t{1}));
}

TEST(SymbolicInput, AsymmetricFullInputIsReportedNotSymmetrised) {
  const Csr full = laplacian_2d(6, 5);
  // Structural: (17, 4) without (4, 17) is first met at row 4, column 17.
  EXPECT_EQ(reported_entry(with_extra_entry(full, 17, 4, 0.5), InputTriangle::Full),
            std::make_pair(std::int64_t{4}, std::int64_t{17}));
  // Numerical: A(9, 8) changed, A(8, 9) not.
  Csr skewed = full;
  for (offset_t p = skewed.rowptr[9]; p < skewed.rowptr[10]; ++p) {
    if (skewed.colind[p] == 8) skewed.values[p] = -0.75;
  }
  EXPECT_EQ(reported_entry(skewed, InputTriangle::Full), std::make_pair(std::int64_t{8}, std::int64_t{9}));
  // A stored explicit zero still needs its mirror.
  EXPECT_EQ(reported_entry(with_extra_entry(full, 0, 29, 0.0), InputTriangle::Full),
            std::make_pair(std::int64_t{0}, std::int64_t{29}));
}

TEST(SymbolicInput, BadMatricesAndOptionsAreInvalidArguments) {
  const Csr lower = triangle(laplacian_2d(4, 4), Triangle::Lower);
  Csr rectangular = lower;
  rectangular.cols = 17;
  EXPECT_THROW(analyze(rectangular), InvalidArgument);
  Csr broken = lower;
  broken.rowptr[3] = broken.rowptr[4] + 1;
  EXPECT_THROW(analyze(broken), InvalidArgument);

  AnalyzeOptions opts;
  opts.ordering = Ordering::User;
  opts.user_perm = {0, 1, 2};  // wrong length
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
  opts.user_perm.resize(16);
  for (index_t k = 0; k < 16; ++k) opts.user_perm[k] = 15 - k;
  EXPECT_NO_THROW(analyze(lower, opts));
  opts.user_perm[5] = 16;  // out of range
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
  opts.user_perm[5] = 3;  // repeats user_perm[12]
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
  opts.user_perm[5] = -1;
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
  opts.user_perm[5] = 10;
  opts.ordering = Ordering::Metis;  // a permutation that would be ignored
  EXPECT_THROW(analyze(lower, opts), InvalidArgument);
}

TEST(SymbolicInput, DegenerateSizes) {
  const SymbolicFactor empty = analyze(Csr{});
  EXPECT_EQ(empty.n, 0);
  EXPECT_EQ(empty.num_supernodes(), 0);
  EXPECT_EQ(empty.nnz_L, 0);

  // Diagonal matrix: no edges, every column its own tree and supernode.
  Coo diag;
  diag.rows = diag.cols = 5;
  for (index_t i = 0; i < 5; ++i) {
    diag.row.push_back(i);
    diag.col.push_back(i);
    diag.val.push_back(2.0);
  }
  const SymbolicFactor d = analyze(to_csr(diag));
  EXPECT_EQ(d.num_supernodes(), 5);
  EXPECT_EQ(d.nnz_L, 5);
  EXPECT_EQ(d.etree, std::vector<index_t>(5, -1));

  const SymbolicFactor one = analyze(triangle(laplacian_2d(1, 1), Triangle::Lower));
  EXPECT_EQ(one.num_supernodes(), 1);
  EXPECT_EQ(one.rows, std::vector<index_t>{0});
  EXPECT_DOUBLE_EQ(one.flops, 1.0);
}

}  // namespace
}  // namespace hetsparse::cholesky
