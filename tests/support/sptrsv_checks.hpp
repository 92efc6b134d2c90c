// Shared by the SpTRSV CPU and CUDA tests: the list of test triangles, turning one into a solver
// input (upper by reversal, unit by row scaling, entries shuffled so the diagonal lands anywhere),
// and the comparisons against ref::sptrsv.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::test {

// Names of the lower triangles every kernel is checked on: anchor Laplacian and R-MAT, random
// banded triangles, diagonal only, a bidiagonal chain (one row per level), a dense-ish 300 x 300
// triangle and a power-law triangle with hub rows of more than 2000 entries.
const std::vector<std::string>& sptrsv_matrix_names();
// The named lower triangle, sorted rows, nonsingular; built once per process. Also
// "dense_lower_1200" (not in the list: a full triangle for the split-rule tests).
const Csr& sptrsv_matrix(const std::string& name);

struct NamedTriangle {
  std::string name;
  Csr lower;
};
// What the device scheme tests solve: every sptrsv_matrix_names() triangle, then the anchor 3D
// Laplacian of 40^3 (64,000 rows, 118 levels of up to ~1200 rows).
std::vector<NamedTriangle> scheme_test_triangles();

// The solver input for `lower`: for Upper, the reversal J L J (row i of the result is row n-1-i of
// L mirrored), which keeps row lengths and dominance; for a unit diagonal, rows scaled by the
// inverse diagonal with the diagonal then set to 2.5 (must be ignored) in even rows and removed in
// odd ones; finally each row's entries shuffled (seeded).
Csr solver_input(const Csr& lower, Triangle tri, bool unit_diagonal, std::uint64_t seed);

// Uniform on [-1, 1), seeded.
std::vector<double> random_values(std::size_t count, std::uint64_t seed);

// ||x - expected||_inf / ||expected||_inf; infinity when x holds a NaN.
double relative_error(const double* x, const std::vector<double>& expected);
constexpr double kSolveTolerance = 1e-12;

// Passes when x is within kSolveTolerance of `expected` (normwise).
::testing::AssertionResult close_to(const double* x, const std::vector<double>& expected);

// Every (triangle, unit diagonal) combination.
struct SolveCase {
  Triangle tri;
  bool unit_diagonal;
  std::string label() const;
};
const std::vector<SolveCase>& solve_cases();

}  // namespace hetsparse::test
