// Every CPU SpTRSV kernel against ref::sptrsv / ref::sptrsv_transpose, on every test matrix, lower
// and upper, unit and non-unit, three right-hand sides with padded leading dimensions. Outputs
// start as NaN; the padding rows must come back untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using kernels::TriangularView;

constexpr index_t kRhs = 3;
constexpr index_t kPadding = 5;  // ld = n + kPadding
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One solve case: the analysed input, a padded B, and the reference columns (plain or transposed).
struct Problem {
  Csr input;
  sptrsv::TriangularPattern pattern;
  index_t ld;
  std::vector<double> b;
  std::vector<std::vector<double>> expected;

  Problem(const std::string& name, const SolveCase& c, bool transposed, bool level_copy = true)
      : input(solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 11)),
        pattern(input, c.tri, c.unit_diagonal, options(level_copy)),
        ld(input.rows + kPadding),
        b(random_values(static_cast<std::size_t>(ld) * kRhs, 12)) {
    for (index_t r = 0; r < kRhs; ++r) {
      std::vector<double> x(static_cast<std::size_t>(input.rows));
      const double* column = b.data() + static_cast<std::size_t>(r) * ld;
      if (transposed) {
        ref::sptrsv_transpose(input, c.tri, c.unit_diagonal, column, x.data());
      } else {
        ref::sptrsv(input, c.tri, c.unit_diagonal, column, x.data());
      }
      expected.push_back(std::move(x));
    }
  }

  static sptrsv::AnalysisOptions options(bool level_copy) {
    sptrsv::AnalysisOptions o;
    o.level_ordered_copy = level_copy;
    return o;
  }

  std::vector<double> poisoned_x() const { return std::vector<double>(b.size(), kNaN); }

  // Each column within tolerance; padding still NaN.
  void check(const std::vector<double>& x) const {
    for (index_t r = 0; r < kRhs; ++r) {
      const double* column = x.data() + static_cast<std::size_t>(r) * ld;
      EXPECT_TRUE(close_to(column, expected[static_cast<std::size_t>(r)])) << "right-hand side " << r;
      for (index_t i = input.rows; i < ld; ++i) EXPECT_TRUE(std::isnan(column[i])) << "padding written";
    }
  }
};

class SptrsvCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(SptrsvCpu, SerialSubstitution) {
  for (const SolveCase& c : solve_cases()) {
    SCOPED_TRACE(c.label());
    const Problem p(GetParam(), c, false);
    std::vector<double> x = p.poisoned_x();
    kernels::sptrsv_cpu(p.pattern.host_view(), p.b.data(), p.ld, x.data(), p.ld, kRhs);
    p.check(x);
  }
}

TEST_P(SptrsvCpu, TransposeSolve) {
  for (const SolveCase& c : solve_cases()) {
    SCOPED_TRACE(c.label());
    const Problem p(GetParam(), c, true);
    std::vector<double> x = p.poisoned_x();
    kernels::sptrsv_cpu_transpose(p.pattern.host_view(), p.b.data(), p.ld, x.data(), p.ld, kRhs);
    p.check(x);
  }
}

TEST_P(SptrsvCpu, InPlaceSolves) {
  for (const SolveCase& c : solve_cases()) {
    SCOPED_TRACE(c.label());
    for (const bool transposed : {false, true}) {
      const Problem p(GetParam(), c, transposed);
      std::vector<double> x = p.b;
      for (index_t r = 0; r < kRhs; ++r) {
        for (index_t i = p.input.rows; i < p.ld; ++i) x[static_cast<std::size_t>(r * p.ld + i)] = kNaN;
      }
      const TriangularView v = p.pattern.host_view();
      if (transposed) {
        kernels::sptrsv_cpu_transpose(v, x.data(), p.ld, x.data(), p.ld, kRhs);
      } else {
        kernels::sptrsv_cpu(v, x.data(), p.ld, x.data(), p.ld, kRhs);
      }
      p.check(x);
    }
  }
}

// The level-scheduled kernels run with and without the level-ordered copy of the rows.
struct LevelCase {
  SolveCase solve;
  bool copy;
  std::string label() const { return solve.label() + (copy ? " level-ordered copy" : " no copy"); }
};
std::vector<LevelCase> level_cases() {
  std::vector<LevelCase> cases;
  for (const SolveCase& c : solve_cases()) {
    for (const bool copy : {true, false}) cases.push_back({c, copy});
  }
  return cases;
}

// One call per level, as one StarPU task per level would make them.
TEST_P(SptrsvCpu, LevelByLevel) {
  for (const LevelCase& c : level_cases()) {
    SCOPED_TRACE(c.label());
    const Problem p(GetParam(), c.solve, false, c.copy);
    ASSERT_EQ(p.pattern.has_level_ordered_copy(), c.copy);
    std::vector<double> x = p.poisoned_x();
    const TriangularView v = p.pattern.host_view();
    for (index_t l = 0; l < v.num_levels; ++l) {
      kernels::sptrsv_cpu_level(v, v.level_ptr[l], v.level_ptr[l + 1], p.b.data(), p.ld, x.data(), p.ld, kRhs);
    }
    p.check(x);
  }
}

// Each level cut into three shares run last-first: rows of a level must not depend on each other.
TEST_P(SptrsvCpu, LevelSharesInAnyOrder) {
  for (const LevelCase& c : level_cases()) {
    SCOPED_TRACE(c.label());
    const Problem p(GetParam(), c.solve, false, c.copy);
    std::vector<double> x = p.poisoned_x();
    const TriangularView v = p.pattern.host_view();
    for (index_t l = 0; l < v.num_levels; ++l) {
      const index_t begin = v.level_ptr[l], size = v.level_ptr[l + 1] - begin;
      for (index_t share = 2; share >= 0; --share) {
        kernels::sptrsv_cpu_level(v, begin + size * share / 3, begin + size * (share + 1) / 3, p.b.data(), p.ld,
                                  x.data(), p.ld, kRhs);
      }
    }
    p.check(x);
  }
}

// Sharing forced (min 1 entry per thread: every level with enough rows is split) and at the default
// threshold (these matrices are small: mostly serial runs).
TEST_P(SptrsvCpu, ThreadedLevels) {
  for (const LevelCase& c : level_cases()) {
    SCOPED_TRACE(c.label());
    const Problem p(GetParam(), c.solve, false, c.copy);
    for (const int threads : {1, 2, 3}) {
      for (const std::int64_t min_entries : {std::int64_t{1}, kernels::kDefaultMinEntriesPerThread}) {
        SCOPED_TRACE(std::to_string(threads) + " threads, min entries " + std::to_string(min_entries));
        std::vector<double> x = p.poisoned_x();
        kernels::sptrsv_cpu_levels(p.pattern.host_view(), p.b.data(), p.ld, x.data(), p.ld, kRhs, threads,
                                   min_entries);
        p.check(x);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, SptrsvCpu, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& matrix) { return matrix.param; });

// A matrix big enough for the default threshold to share its levels.
TEST(SptrsvCpuLarge, ThreadedLevelsAtDefaultThreshold) {
  const Csr lower = anchor_laplacian_lower(3, 60, 9);  // 216k rows, 178 levels
  const sptrsv::TriangularPattern p(lower, Triangle::Lower, false);
  const std::vector<double> b = random_values(static_cast<std::size_t>(lower.rows), 13);
  std::vector<double> expected(b.size());
  ref::sptrsv(lower, Triangle::Lower, false, b.data(), expected.data());
  for (const int threads : {2, 4}) {
    std::vector<double> x(b.size(), kNaN);
    kernels::sptrsv_cpu_levels(p.host_view(), b.data(), lower.rows, x.data(), lower.rows, 1, threads);
    EXPECT_TRUE(close_to(x.data(), expected)) << threads << " threads";
  }
}

TEST(SptrsvCpuArguments, ThreadCountMustBePositive) {
  const sptrsv::TriangularPattern p(sptrsv_matrix("chain_5000"), Triangle::Lower, false);
  std::vector<double> b(5000, 1.0), x(5000);
  EXPECT_THROW(kernels::sptrsv_cpu_levels(p.host_view(), b.data(), 5000, x.data(), 5000, 1, 0), InvalidArgument);
  EXPECT_THROW(kernels::sptrsv_cpu_levels(p.host_view(), b.data(), 5000, x.data(), 5000, 1, 2, 0), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
