// Back-end independent checks of the dense kernels against hetsparse::ref. A test supplies a runner
// that applies its kernel (CPU, or CUDA with uploads and downloads) to host operands in place; the
// check builds random operands, poisons what the kernel must not read, runs it, and compares.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {

struct GemmCase {
  char transa, transb;
  int m, n, k, padding;
  double alpha, beta;
};
struct SyrkCase {
  char uplo, trans;
  int n, k, padding;
  double alpha, beta;
};
struct TrsmCase {
  char side, uplo, transa, diag;
  int m, n, padding;
  double alpha;
};
struct PotrfCase {
  char uplo;
  int n, padding;
};

std::vector<GemmCase> gemm_cases();
std::vector<SyrkCase> syrk_cases();
std::vector<TrsmCase> trsm_cases();
std::vector<PotrfCase> potrf_cases();
std::string describe(const GemmCase& c);
std::string describe(const SyrkCase& c);
std::string describe(const TrsmCase& c);
std::string describe(const PotrfCase& c);

// Runners overwrite the output operand with the kernel's result, as the kernel does in memory.
using GemmRunner = std::function<void(const GemmCase&, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C)>;
using SyrkRunner = std::function<void(const SyrkCase&, const DenseMatrix& A, DenseMatrix& C)>;
using TrsmRunner = std::function<void(const TrsmCase&, const DenseMatrix& A, DenseMatrix& B)>;
using PotrfRunner = std::function<int(char uplo, DenseMatrix& A)>;  // returns info

// With beta == 0 the output starts as NaN, which a kernel that reads it would spread.
void check_gemm(const GemmCase& c, std::uint64_t seed, const GemmRunner& run);
// The triangle of C that is not updated holds values that must come back bit for bit.
void check_syrk(const SyrkCase& c, std::uint64_t seed, const SyrkRunner& run);
// The triangle of A that is not referenced is NaN, and so is its diagonal when diag is 'U'.
void check_trsm(const TrsmCase& c, std::uint64_t seed, const TrsmRunner& run);
// SPD input; the other triangle must come back untouched and info must be 0.
void check_potrf(const PotrfCase& c, std::uint64_t seed, const PotrfRunner& run);
// SPD input made indefinite at 0-based column `column` (its pivot is negative, or NaN when
// nan_pivot): info must be column + 1, as the reference says.
void check_potrf_failure(const PotrfCase& c, int column, bool nan_pivot, std::uint64_t seed, const PotrfRunner& run);

using AxpyRunner = std::function<void(double alpha, const std::vector<double>& x, std::vector<double>& y)>;
using DotRunner = std::function<double(const std::vector<double>& x, const std::vector<double>& y)>;
using Nrm2Runner = std::function<double(const std::vector<double>& x)>;

std::vector<int> level1_sizes();
void check_axpy(int n, std::uint64_t seed, const AxpyRunner& run);
void check_dot(int n, std::uint64_t seed, const DotRunner& run);
// x is scaled by `scale` (try 1e200 and 1e-200: a naive sum of squares overflows or underflows).
void check_nrm2(int n, double scale, std::uint64_t seed, const Nrm2Runner& run);

}  // namespace hetsparse::test
