// Random supernodal structures for the supernode kernel tests, and what the kernels must produce,
// computed densely with plain loops and hetsparse::ref (no code shared with the kernels: no row
// merges, no position searches, no BLAS).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/supernode/supernode.hpp"
#include "sparse/random.hpp"

namespace hetsparse::test {

// A supernode held on the host: rows[0 .. ncols) are its own columns, values is nrows x ncols.
struct HostPanel {
  std::int32_t first_col = 0;
  std::int32_t ncols = 0;
  std::vector<std::int32_t> rows;
  std::vector<double> values;

  int nrows() const { return static_cast<int>(rows.size()); }
  double& at(int i, int c) { return values[static_cast<std::size_t>(i) + static_cast<std::size_t>(c) * rows.size()]; }
  double at(int i, int c) const {
    return values[static_cast<std::size_t>(i) + static_cast<std::size_t>(c) * rows.size()];
  }
  kernels::PanelRef ref() { return {values.data(), rows.data(), nrows(), ncols, first_col}; }
  kernels::ConstPanelRef cref() const { return {values.data(), rows.data(), nrows(), ncols, first_col}; }
};

// Descendants updating one target; ranges[u] is where descendants[u]'s rows meet the target.
struct UpdateProblem {
  int n = 0;  // global dimension
  HostPanel target;
  std::vector<HostPanel> descendants;
  std::vector<kernels::UpdateRange> ranges;
};

struct UpdateShape {
  int n;               // global dimension; the target starts at column n / 2
  int t_ncols;         // target columns
  int d_ncols_max;     // descendant columns drawn from [1, d_ncols_max]
  double row_density;  // chance that a row of the target is also a row of a descendant
  int count;           // descendants
};

// Every descendant has at least one row in the target's columns (k >= 1), and its rows from r0 on
// are target rows (structure theorem). Values uniform on [-1, 1); the strict upper triangles of the
// diagonal blocks are NaN, which the kernels must neither read nor overwrite.
UpdateProblem random_update_problem(Rng& rng, const UpdateShape& shape);

// Target values after subtracting every update, and an error bound per entry. Upper-triangle NaNs
// are expected back bit for bit. Fails the current test if a descendant reaches a row the target
// does not have (a generator bug: the kernels would be tested on an illegal structure).
struct Expectation {
  std::vector<double> values;
  std::vector<double> bounds;
};
Expectation expected_update(const UpdateProblem& problem);

// A panel to factor: SPD diagonal block (eigenvalues in [1, ncols + 1)), random rows below, rows
// drawn from [first_col + ncols, n); strict upper triangle of the diagonal block NaN.
HostPanel random_spd_panel(Rng& rng, int n, int first_col, int nrows, int ncols);
// ref::potrf then ref::trsm on a copy; bounds relative to the factor's entries.
Expectation expected_factor(const HostPanel& panel);

// A factored-looking panel for the solves: well-conditioned lower-triangular diagonal block, strict
// upper triangle NaN, rows below drawn from [first_col + ncols, n).
HostPanel random_factor_panel(Rng& rng, int n, int first_col, int nrows, int ncols);
// x (n x nrhs, leading dimension ldx) after the forward (transposed = false) or backward sweep,
// by a dense n x n triangular solve with the identity plus the panel's columns. Entries the sweep
// must not change get a zero bound, so they must come back exactly.
Expectation expected_sweep(const HostPanel& panel, int n, const std::vector<double>& x, int nrhs, int ldx,
                           bool transposed);

// Symmetric positive definite n x n, column-major, eigenvalues in [1, n + 1).
std::vector<double> random_spd_matrix(Rng& rng, int n);

}  // namespace hetsparse::test
