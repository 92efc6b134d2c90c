// Right-hand sides and the solve check the Cholesky suites share (CPU, GPU, auto-tuner).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "cholesky/cholesky_solver.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::test {

// n values uniform in [-1, 1) from a seeded generator.
inline std::vector<double> random_rhs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

// Solves with chol, factorized for A (full symmetric), on random_rhs(A.rows, seed) and returns the
// backward error ||b - A x|| / (||A|| ||x|| + ||b||).
inline double random_solve_backward_error(cholesky::CholeskySolver& chol, const Csr& A, std::uint64_t seed) {
  const std::vector<double> b = random_rhs(static_cast<std::size_t>(A.rows), seed);
  std::vector<double> x = b;
  chol.solve(x);
  return ref::backward_error(A, x.data(), b.data());
}

}  // namespace hetsparse::test
