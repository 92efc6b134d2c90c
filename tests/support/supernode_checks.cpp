// Back-end independent checks of the supernode kernels against dense expectations.
#include "tests/support/supernode_checks.hpp"

#include <cmath>
#include <sstream>

#include "reference/dense_reference.hpp"

namespace hetsparse::test {
namespace {

constexpr double kPadding = -7.25;  // x rows past n: no sweep may touch them

std::string describe(const UpdateShape& s) {
  std::ostringstream out;
  out << "n " << s.n << ", target columns " << s.t_ncols << ", descendant columns <= " << s.d_ncols_max
      << ", row density " << s.row_density << ", updates " << s.count;
  return out.str();
}

// A descendant whose rows skip the target's columns (k = 0) but reach rows below them.
HostPanel empty_descendant(Rng& rng, const HostPanel& t) {
  HostPanel d;
  d.first_col = 0;
  d.ncols = 2;
  d.rows = {0, 1};
  for (int i = t.ncols; i < t.nrows(); i += 2) d.rows.push_back(t.rows[i]);
  d.values.resize(d.rows.size() * 2);
  for (double& v : d.values) v = uniform(rng, -1.0, 1.0);
  d.at(0, 1) = kNaN;
  return d;
}

void run_batch(SupernodeBackend& backend, UpdateProblem& problem) {
  std::vector<const HostPanel*> ds;
  for (const HostPanel& d : problem.descendants) ds.push_back(&d);
  backend.update_batch(ds, problem.ranges, problem.target);
}

// x: n x nrhs, ld n + 5, random with padding rows set to kPadding.
std::vector<double> random_rhs(Rng& rng, int n, int nrhs, int ldx) {
  std::vector<double> x(static_cast<std::size_t>(ldx) * nrhs, kPadding);
  for (int r = 0; r < nrhs; ++r) {
    for (int i = 0; i < n; ++i)
      x[static_cast<std::size_t>(i) + static_cast<std::size_t>(r) * ldx] = uniform(rng, -1, 1);
  }
  return x;
}

}  // namespace

std::vector<UpdateShape> update_shapes() {
  return {
      {120, 1, 1, 0.5, 1},      // a single entry of C
      {200, 5, 3, 0.3, 1},      // a few rows, narrow descendant
      {400, 40, 50, 0.6, 1},    // C taller than a warp, k past one column tile of 32
      {1000, 64, 40, 0.95, 1},  // m past two row tiles of 128, k two column tiles
      {600, 33, 33, 1.0, 1},    // d has every target row: m = t.nrows, k = t.ncols
  };
}

void check_updates(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  for (const UpdateShape& shape : update_shapes()) {
    SCOPED_TRACE(describe(shape));
    UpdateProblem problem = random_update_problem(rng, shape);
    const Expectation e = expected_update(problem);
    backend.update(problem.descendants[0], problem.ranges[0], problem.target);
    EXPECT_TRUE(within_bounds(problem.target.values, e.values, e.bounds));
  }
}

void check_batch(SupernodeBackend& backend, int count, std::uint64_t seed) {
  Rng rng(seed);
  const UpdateShape shape{500, 48, 40, 0.5, count};
  SCOPED_TRACE(describe(shape));
  UpdateProblem problem = random_update_problem(rng, shape);
  if (count >= 3) {  // one update of the batch has nothing in t's columns
    problem.descendants[1] = empty_descendant(rng, problem.target);
    problem.ranges[1] = {2, 2};
  }
  const Expectation e = expected_update(problem);
  run_batch(backend, problem);
  EXPECT_TRUE(within_bounds(problem.target.values, e.values, e.bounds));
}

void check_empty_update(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  UpdateProblem problem = random_update_problem(rng, {300, 20, 5, 0.5, 1});
  const HostPanel d = empty_descendant(rng, problem.target);
  const std::vector<double> before = problem.target.values;
  backend.update(d, {2, 2}, problem.target);
  EXPECT_TRUE(within_bounds(problem.target.values, before, std::vector<double>(before.size(), 0.0)));
}

void check_factor(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  struct Shape {
    int nrows, ncols;
  };
  for (const Shape s : {Shape{1, 1}, Shape{9, 1}, Shape{70, 3}, Shape{45, 8}, Shape{40, 40}, Shape{300, 37},
                         Shape{257, 100}, Shape{90, 64}}) {
    SCOPED_TRACE("nrows " + std::to_string(s.nrows) + ", ncols " + std::to_string(s.ncols));
    HostPanel panel = random_spd_panel(rng, s.nrows + 60, 7, s.nrows, s.ncols);
    const Expectation e = expected_factor(panel);
    EXPECT_EQ(backend.factor(panel), 0);
    EXPECT_TRUE(within_bounds(panel.values, e.values, e.bounds));
  }
}

void check_factor_failure(SupernodeBackend& backend, int column, bool nan_pivot, std::uint64_t seed, int kCols) {
  Rng rng(seed);
  constexpr int kRows = 150;
  HostPanel panel = random_spd_panel(rng, 400, 3, kRows, kCols);
  panel.at(column, column) = nan_pivot ? kNaN : -1.0;
  std::vector<double> diagonal_block(static_cast<std::size_t>(kCols) * kCols);
  for (int c = 0; c < kCols; ++c) {
    for (int i = 0; i < kCols; ++i) diagonal_block[static_cast<std::size_t>(i) + c * kCols] = panel.at(i, c);
  }
  const int expected = ref::potrf('L', kCols, diagonal_block.data(), kCols);
  ASSERT_EQ(expected, column + 1) << "reference disagrees with the test's construction";
  EXPECT_EQ(backend.factor(panel), expected);
}

void check_sweeps(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  constexpr int kN = 420;
  constexpr int kLdx = kN + 5;
  struct Shape {
    int nrows, ncols;
  };
  // 300 columns: two of the CUDA panel solve's column blocks.
  for (const Shape s : {Shape{1, 1}, Shape{40, 40}, Shape{300, 37}, Shape{200, 70}, Shape{400, 300}}) {
    for (const int nrhs : {1, 3}) {
      for (const bool backward : {false, true}) {
        SCOPED_TRACE("nrows " + std::to_string(s.nrows) + ", ncols " + std::to_string(s.ncols) + ", nrhs " +
                     std::to_string(nrhs) + (backward ? ", backward" : ", forward"));
        const HostPanel panel = random_factor_panel(rng, kN, 11, s.nrows, s.ncols);
        std::vector<double> x = random_rhs(rng, kN, nrhs, kLdx);
        const Expectation e = expected_sweep(panel, kN, x, nrhs, kLdx, backward);
        if (backward) {
          backend.backward(panel, x, nrhs, kLdx);
        } else {
          backend.forward(panel, x, nrhs, kLdx);
        }
        EXPECT_TRUE(within_bounds(x, e.values, e.bounds));
      }
    }
  }
}

void check_end_to_end(SupernodeBackend& backend, bool left_looking, std::uint64_t seed) {
  Rng rng(seed);
  constexpr int kN = 200;
  const std::vector<int> bounds{0, 30, 70, 110, 165, 200};  // widths 30, 40, 40, 55, 35
  const std::vector<double> A = random_spd_matrix(rng, kN);
  const auto entry = [](int i, int j, int ld) {
    return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld;
  };
  std::vector<HostPanel> panels(bounds.size() - 1);
  for (std::size_t s = 0; s < panels.size(); ++s) {  // full structure: every row from the first column down
    HostPanel& p = panels[s];
    p.first_col = bounds[s];
    p.ncols = bounds[s + 1] - bounds[s];
    for (int g = p.first_col; g < kN; ++g) p.rows.push_back(g);
    p.values.resize(p.rows.size() * static_cast<std::size_t>(p.ncols));
    for (int c = 0; c < p.ncols; ++c) {
      for (int i = 0; i < p.nrows(); ++i) p.at(i, c) = i < c ? kNaN : A[entry(p.rows[i], p.first_col + c, kN)];
    }
  }
  const auto range = [&](const HostPanel& d, const HostPanel& t) {
    return kernels::update_range(d.rows.data(), d.nrows(), t.first_col, t.ncols);
  };
  for (std::size_t t = 0; t < panels.size(); ++t) {
    if (left_looking && t > 0) {  // pull every descendant's update in one batch, then factor
      std::vector<const HostPanel*> ds;
      std::vector<kernels::UpdateRange> rs;
      for (std::size_t d = 0; d < t; ++d) {
        ds.push_back(&panels[d]);
        rs.push_back(range(panels[d], panels[t]));
      }
      backend.update_batch(ds, rs, panels[t]);
    }
    ASSERT_EQ(backend.factor(panels[t]), 0) << "supernode " << t;
    for (std::size_t later = t + 1; !left_looking && later < panels.size(); ++later) {  // push to the right
      backend.update(panels[t], range(panels[t], panels[later]), panels[later]);
    }
  }
  std::vector<double> L = A;
  ASSERT_EQ(ref::potrf('L', kN, L.data(), kN), 0);
  const double factor = 8.0 * (kN + 2.0) * (kN + 2.0) * kEps;
  for (std::size_t s = 0; s < panels.size(); ++s) {
    SCOPED_TRACE("supernode " + std::to_string(s));
    const HostPanel& p = panels[s];
    Expectation e{p.values, std::vector<double>(p.values.size(), 0.0)};
    for (int c = 0; c < p.ncols; ++c) {
      for (int i = c; i < p.nrows(); ++i) {
        const double l = L[entry(p.rows[i], p.first_col + c, kN)];
        e.values[entry(i, c, p.nrows())] = l;
        e.bounds[entry(i, c, p.nrows())] = factor * (1.0 + std::fabs(l));
      }
    }
    EXPECT_TRUE(within_bounds(p.values, e.values, e.bounds));
  }

  constexpr int kNrhs = 2;
  constexpr int kLdx = kN + 3;
  std::vector<double> x = random_rhs(rng, kN, kNrhs, kLdx);
  std::vector<double> solution = x;
  ref::trsm('L', 'L', 'N', 'N', kN, kNrhs, 1.0, L.data(), kN, solution.data(), kLdx);
  ref::trsm('L', 'L', 'T', 'N', kN, kNrhs, 1.0, L.data(), kN, solution.data(), kLdx);
  for (const HostPanel& p : panels) backend.forward(p, x, kNrhs, kLdx);
  for (auto p = panels.rbegin(); p != panels.rend(); ++p) backend.backward(*p, x, kNrhs, kLdx);
  std::vector<double> solution_bounds(x.size(), 0.0);  // padding rows: exact
  for (int r = 0; r < kNrhs; ++r) {
    for (int i = 0; i < kN; ++i)
      solution_bounds[entry(i, r, kLdx)] = factor * (1.0 + std::fabs(solution[entry(i, r, kLdx)]));
  }
  EXPECT_TRUE(within_bounds(x, solution, solution_bounds));
}

}  // namespace hetsparse::test
