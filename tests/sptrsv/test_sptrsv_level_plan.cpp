// The level plan shared by the threaded kernel, the StarPU parallel task and the per-level tasks:
// every position in exactly one step, shared steps are whole levels cut in order, and threads that
// each plan for themselves (as the members of an SPMD task do) solve correctly with one barrier.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

sptrsv::AnalysisOptions with_copy(bool copy) {
  sptrsv::AnalysisOptions o;
  o.level_ordered_copy = copy;
  return o;
}

class SptrsvLevelPlan : public ::testing::TestWithParam<std::string> {};

TEST_P(SptrsvLevelPlan, StepsCoverEveryPositionOnceAndCutWholeLevels) {
  for (const bool copy : {true, false}) {
    const sptrsv::TriangularPattern p(sptrsv_matrix(GetParam()), Triangle::Lower, false, with_copy(copy));
    const kernels::TriangularView v = p.host_view();
    for (const int shares : {1, 2, 3, 5}) {
      for (const std::int64_t min_entries : {std::int64_t{1}, std::int64_t{64}, std::int64_t{2048}}) {
        SCOPED_TRACE(std::to_string(shares) + " shares, min " + std::to_string(min_entries) +
                     (copy ? ", level copy" : ", no copy"));
        const std::vector<kernels::LevelStep> steps = kernels::plan_level_steps(v, 1, shares, min_entries);
        index_t next = 0;
        for (const kernels::LevelStep& s : steps) {
          ASSERT_EQ(s.begin, next);
          ASSERT_LT(s.begin, s.end);
          // Steps start and end on level boundaries.
          const auto level = std::upper_bound(p.level_ptr().begin(), p.level_ptr().end(), s.begin) - 1;
          ASSERT_EQ(*level, s.begin);
          ASSERT_TRUE(std::binary_search(p.level_ptr().begin(), p.level_ptr().end(), s.end));
          if (s.shared()) {
            EXPECT_GT(shares, 1);
            EXPECT_EQ(*(level + 1), s.end) << "a shared step is one level";
            const auto cut = static_cast<std::int64_t>(s.cuts.size()) - 1;
            EXPECT_GE(cut, 2);
            EXPECT_LE(cut, shares);
            EXPECT_LE(cut, s.end - s.begin);
            EXPECT_EQ(s.cuts.front(), s.begin);
            EXPECT_EQ(s.cuts.back(), s.end);
            EXPECT_TRUE(std::is_sorted(s.cuts.begin(), s.cuts.end()));
            EXPECT_GE(p.level_nnz()[static_cast<std::size_t>(level - p.level_ptr().begin())], min_entries * cut);
          }
          if (!s.shared()) {  // every level of a run is too small for 2 shares
            for (auto l = level; *l < s.end; ++l) {
              const std::int64_t rows = *(l + 1) - *l;
              const std::int64_t entries = p.level_nnz()[static_cast<std::size_t>(l - p.level_ptr().begin())];
              EXPECT_TRUE(shares < 2 || rows < 2 || entries < 2 * min_entries) << "level at " << *l;
            }
          }
          next = s.end;
        }
        EXPECT_EQ(next, p.rows());
        if (shares == 1) {
          EXPECT_EQ(steps.size(), 1u);
        }
      }
    }
  }
}

// As the members of a StarPU SPMD task: each thread makes its own plan, one zeroed barrier.
TEST_P(SptrsvLevelPlan, ThreadsPlanningForThemselvesSolveCorrectly) {
  constexpr index_t kRhs = 2;
  for (const SolveCase& c : solve_cases()) {
    SCOPED_TRACE(c.label());
    const Csr input = solver_input(sptrsv_matrix(GetParam()), c.tri, c.unit_diagonal, 21);
    const sptrsv::TriangularPattern p(input, c.tri, c.unit_diagonal);
    const auto n = static_cast<std::size_t>(p.rows());
    const std::vector<double> b = random_values(n * kRhs, 22);
    for (const int threads : {2, 3}) {
      std::vector<double> x(b.size(), std::numeric_limits<double>::quiet_NaN());
      kernels::LevelBarrier barrier{0, 0};
      std::vector<std::thread> team;
      for (int id = 0; id < threads; ++id) {
        team.emplace_back([&, id] {
          const auto steps = kernels::plan_level_steps(p.host_view(), kRhs, threads, 1);
          kernels::solve_level_steps(p.host_view(), steps, id, threads, barrier, b.data(), p.rows(), x.data(),
                                     p.rows(), kRhs);
        });
      }
      for (std::thread& t : team) t.join();
      for (index_t r = 0; r < kRhs; ++r) {
        std::vector<double> expected(n);
        ref::sptrsv(input, c.tri, c.unit_diagonal, b.data() + r * n, expected.data());
        EXPECT_TRUE(close_to(x.data() + r * n, expected)) << threads << " threads, column " << r;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, SptrsvLevelPlan, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& matrix) { return matrix.param; });

TEST(SptrsvLevelPlanArguments, SharesAndMinimumMustBePositiveAndLevelsPresent) {
  const sptrsv::TriangularPattern p(sptrsv_matrix("chain_5000"), Triangle::Lower, false);
  EXPECT_THROW(kernels::plan_level_steps(p.host_view(), 1, 0, 1), InvalidArgument);
  EXPECT_THROW(kernels::plan_level_steps(p.host_view(), 1, 2, 0), InvalidArgument);
  kernels::TriangularView no_levels = p.host_view();
  no_levels.level_ptr = nullptr;
  EXPECT_THROW(kernels::plan_level_steps(no_levels, 1, 2, 1), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
