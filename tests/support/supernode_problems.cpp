// Random supernodal structures and their dense expectations.
#include "tests/support/supernode_problems.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reference/dense_reference.hpp"

namespace hetsparse::test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Rounding-error factor for a sum of `terms` products, with a factor 2 of slack.
double gamma(int terms) { return 2.0 * (terms + 2) * kEps; }

std::size_t at(int i, int j, int ld) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld; }

// `count` distinct values of [lo, hi), increasing (selection sampling: each value is taken with
// probability still-needed / still-available).
std::vector<std::int32_t> sorted_sample(Rng& rng, int lo, int hi, int count) {
  std::vector<std::int32_t> out;
  for (int g = lo; g < hi && static_cast<int>(out.size()) < count; ++g) {
    const auto needed = static_cast<std::uint64_t>(count - static_cast<int>(out.size()));
    if (uniform_below(rng, static_cast<std::uint64_t>(hi - g)) < needed) out.push_back(g);
  }
  return out;
}

HostPanel empty_panel(int first_col, int ncols) {
  HostPanel p;
  p.first_col = first_col;
  p.ncols = ncols;
  for (int c = 0; c < ncols; ++c) p.rows.push_back(first_col + c);
  return p;
}

// Random values on [-1, 1), NaN above the diagonal of the diagonal block.
void fill_random(Rng& rng, HostPanel& p) {
  p.values.assign(p.rows.size() * static_cast<std::size_t>(p.ncols), 0.0);
  for (int c = 0; c < p.ncols; ++c) {
    for (int i = 0; i < p.nrows(); ++i) p.at(i, c) = i < c ? kNaN : uniform(rng, -1.0, 1.0);
  }
}

// The panel as an n x ncols block of L: zero in the rows the supernode does not have.
std::vector<double> expand(const HostPanel& p, int n) {
  std::vector<double> dense(static_cast<std::size_t>(n) * p.ncols, 0.0);
  for (int c = 0; c < p.ncols; ++c) {
    for (int i = c; i < p.nrows(); ++i) dense[at(p.rows[i], c, n)] = p.at(i, c);
  }
  return dense;
}

HostPanel random_descendant(Rng& rng, const UpdateShape& shape, const HostPanel& t) {
  const int ncols = 1 + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(shape.d_ncols_max)));
  const int first_col = static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(t.first_col - ncols + 1)));
  HostPanel d = empty_panel(first_col, ncols);
  for (int g = first_col + ncols; g < t.first_col; ++g) {  // rows between d and t: before r0
    if (uniform01(rng) < 0.3) d.rows.push_back(g);
  }
  const std::size_t r0 = d.rows.size();
  for (int c = 0; c < t.ncols; ++c) {
    if (uniform01(rng) < shape.row_density) d.rows.push_back(t.first_col + c);
  }
  if (d.rows.size() == r0) {  // at least one row in t's columns, so that d really updates t
    d.rows.push_back(t.first_col + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(t.ncols))));
  }
  for (int i = t.ncols; i < t.nrows(); ++i) {
    if (uniform01(rng) < shape.row_density) d.rows.push_back(t.rows[i]);
  }
  fill_random(rng, d);
  return d;
}

}  // namespace

UpdateProblem random_update_problem(Rng& rng, const UpdateShape& shape) {
  UpdateProblem problem;
  problem.n = shape.n;
  HostPanel& t = problem.target;
  t = empty_panel(shape.n / 2, shape.t_ncols);
  for (int g = t.first_col + t.ncols; g < shape.n; ++g) {
    if (uniform01(rng) < 0.6) t.rows.push_back(g);
  }
  fill_random(rng, t);
  for (int u = 0; u < shape.count; ++u) {
    HostPanel d = random_descendant(rng, shape, t);
    // Counted here with plain loops, not with kernels::update_range, which is under test.
    kernels::UpdateRange r{0, 0};
    for (const std::int32_t row : d.rows) {
      r.r0 += row < t.first_col ? 1 : 0;
      r.r1 += row < t.first_col + t.ncols ? 1 : 0;
    }
    problem.descendants.push_back(std::move(d));
    problem.ranges.push_back(r);
  }
  return problem;
}

Expectation expected_update(const UpdateProblem& problem) {
  const int n = problem.n;
  const HostPanel& t = problem.target;
  std::vector<double> dense = expand(t, n);  // lower part of t as an n x ncols block of L
  std::vector<double> magnitude(dense.size(), 0.0);
  std::vector<bool> in_target(static_cast<std::size_t>(n), false);
  for (const std::int32_t row : t.rows) in_target[static_cast<std::size_t>(row)] = true;
  int max_ncols = 0;
  for (const HostPanel& d : problem.descendants) {
    max_ncols = std::max(max_ncols, d.ncols);
    const std::vector<double> D = expand(d, n);
    for (int c = 0; c < t.ncols; ++c) {
      const int h = t.first_col + c;
      for (int g = h; g < n; ++g) {
        double sum = 0.0;
        double sum_abs = 0.0;
        for (int q = 0; q < d.ncols; ++q) {
          sum += D[at(g, q, n)] * D[at(h, q, n)];
          sum_abs += std::fabs(D[at(g, q, n)] * D[at(h, q, n)]);
        }
        if (sum_abs != 0.0 && !in_target[static_cast<std::size_t>(g)]) {
          ADD_FAILURE() << "test generator bug: descendant at column " << d.first_col << " reaches row " << g
                        << ", which the target does not have";
        }
        dense[at(g, c, n)] -= sum;
        magnitude[at(g, c, n)] += sum_abs;
      }
    }
  }
  const double factor = gamma(max_ncols + static_cast<int>(problem.descendants.size()));
  Expectation e{t.values, std::vector<double>(t.values.size(), 0.0)};
  for (int c = 0; c < t.ncols; ++c) {
    for (int i = c; i < t.nrows(); ++i) {
      const std::size_t entry = at(i, c, t.nrows());
      e.values[entry] = dense[at(t.rows[i], c, n)];
      e.bounds[entry] = factor * (std::fabs(t.values[entry]) + magnitude[at(t.rows[i], c, n)]);
    }
  }
  return e;
}

std::vector<double> random_spd_matrix(Rng& rng, int n) {
  std::vector<double> M(static_cast<std::size_t>(n) * n);
  for (double& v : M) v = uniform(rng, -1.0, 1.0);
  std::vector<double> A(M.size());
  ref::gemm('N', 'T', n, n, n, 1.0 / n, M.data(), n, M.data(), n, 0.0, A.data(), n);
  for (int i = 0; i < n; ++i) A[at(i, i, n)] += 1.0;
  return A;
}

HostPanel random_spd_panel(Rng& rng, int n, int first_col, int nrows, int ncols) {
  HostPanel p = empty_panel(first_col, ncols);
  for (const std::int32_t row : sorted_sample(rng, first_col + ncols, n, nrows - ncols)) p.rows.push_back(row);
  fill_random(rng, p);
  const std::vector<double> A = random_spd_matrix(rng, ncols);
  for (int c = 0; c < ncols; ++c) {
    for (int i = c; i < ncols; ++i) p.at(i, c) = A[at(i, c, ncols)];
  }
  return p;
}

Expectation expected_factor(const HostPanel& panel) {
  const int nrows = panel.nrows();
  const int ncols = panel.ncols;
  Expectation e{panel.values, std::vector<double>(panel.values.size(), 0.0)};
  EXPECT_EQ(ref::potrf('L', ncols, e.values.data(), nrows), 0) << "test panel is not SPD";
  ref::trsm('R', 'L', 'T', 'N', nrows - ncols, ncols, 1.0, e.values.data(), nrows, e.values.data() + ncols, nrows);
  // Forward error of a Cholesky factor of condition <= ncols + 1, with room for blocked orderings.
  const double factor = 8.0 * (ncols + 2.0) * (ncols + 2.0) * kEps;
  for (int c = 0; c < ncols; ++c) {
    for (int i = c; i < nrows; ++i) e.bounds[at(i, c, nrows)] = factor * (1.0 + std::fabs(e.values[at(i, c, nrows)]));
  }
  return e;
}

HostPanel random_factor_panel(Rng& rng, int n, int first_col, int nrows, int ncols) {
  HostPanel p = empty_panel(first_col, ncols);
  for (const std::int32_t row : sorted_sample(rng, first_col + ncols, n, nrows - ncols)) p.rows.push_back(row);
  fill_random(rng, p);
  for (int c = 0; c < ncols; ++c) {  // diagonally dominant L11: a well-conditioned triangle
    p.at(c, c) = uniform(rng, 1.0, 2.0);
    for (int i = c + 1; i < ncols; ++i) p.at(i, c) /= ncols;
  }
  return p;
}

Expectation expected_sweep(const HostPanel& panel, int n, const std::vector<double>& x, int nrhs, int ldx,
                           bool transposed) {
  // Identity, except that the supernode's columns are the panel's (lower part, by global row).
  std::vector<double> M(static_cast<std::size_t>(n) * n, 0.0);
  for (int j = 0; j < n; ++j) M[at(j, j, n)] = 1.0;
  for (int c = 0; c < panel.ncols; ++c) {
    for (int i = c; i < panel.nrows(); ++i) M[at(panel.rows[i], panel.first_col + c, n)] = panel.at(i, c);
  }
  Expectation e{x, std::vector<double>(x.size(), 0.0)};
  ref::trsm('L', 'L', transposed ? 'T' : 'N', 'N', n, nrhs, 1.0, M.data(), n, e.values.data(), ldx);
  // The forward sweep changes the panel's rows, the backward sweep only its own ones.
  const int changed = transposed ? panel.ncols : panel.nrows();
  double scale = 1.0;
  for (int r = 0; r < nrhs; ++r) {
    for (int i = 0; i < changed; ++i) scale = std::max(scale, std::fabs(e.values[at(panel.rows[i], r, ldx)]));
  }
  for (int r = 0; r < nrhs; ++r) {
    for (int i = 0; i < changed; ++i) e.bounds[at(panel.rows[i], r, ldx)] = 4.0 * gamma(panel.nrows()) * scale;
  }
  return e;
}

}  // namespace hetsparse::test
