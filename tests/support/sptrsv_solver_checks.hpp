// Checks shared by the TriangularSolver suites (StarPU CPU and GPU workers, CPU modes): the test
// matrices and solves compared with ref::sptrsv(_transpose).
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::test {

struct SolverCase {
  const char* name;
  Csr lower;
};
// A 2D anchor Laplacian and an R-MAT triangle, both bigger than a warp.
const std::vector<SolverCase>& solver_cases();

// X (n x nrhs) against ref::sptrsv(_transpose) of B, column by column, relative 1e-11.
void expect_matches_reference(const Csr& T, Triangle tri, bool unit, bool transpose, const std::vector<double>& B,
                              const std::vector<double>& X, int nrhs, const std::string& what);

// Solves with s (analysed for T): plain and transposed, 1 and 3 right-hand sides, then in place.
void run_solves(sptrsv::TriangularSolver& s, const Csr& T, Triangle tri, bool unit, const std::string& what);

}  // namespace hetsparse::test
