// CPU-only checks of the supernode kernels (the shared cases are in test_supernode.cpp):
// update_range, work sizes, a factor without a row list, and the argument checks (which must reject
// a call before anything is written).
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "tests/support/supernode_checks.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

TEST(SupernodeSizes, UpdateRangeFindsTheTargetColumns) {
  const std::vector<std::int32_t> rows{3, 4, 9, 10, 11, 15, 20, 31};
  const auto range = [&](int first, int ncols) {
    const UpdateRange r = update_range(rows.data(), static_cast<int>(rows.size()), first, ncols);
    return std::vector<int>{r.r0, r.r1};
  };
  EXPECT_EQ(range(9, 3), (std::vector<int>{2, 5}));   // rows 9, 10, 11
  EXPECT_EQ(range(8, 4), (std::vector<int>{2, 5}));   // columns 8 .. 11
  EXPECT_EQ(range(12, 3), (std::vector<int>{5, 5}));  // no row in 12 .. 14: empty, rows below from 15
  EXPECT_EQ(range(31, 1), (std::vector<int>{7, 8}));
  EXPECT_EQ(range(40, 5), (std::vector<int>{8, 8}));
  EXPECT_EQ(range(INT_MAX - 1, 2), (std::vector<int>{8, 8}));  // first + ncols past int32
  EXPECT_THROW(update_range(nullptr, 3, 0, 1), InvalidArgument);
  EXPECT_THROW(update_range(rows.data(), 8, 0, -1), InvalidArgument);
}

TEST(SupernodeSizes, BatchWorkHoldsATableAndEveryProduct) {
  const std::vector<std::int32_t> rows(100, 0);  // contents not read
  const std::vector<ConstPanelRef> ds{{nullptr, rows.data(), 100, 4, 0}, {nullptr, rows.data(), 50, 2, 0}};
  const std::vector<UpdateRange> rs{{10, 30}, {20, 20}};
  const std::size_t bytes = supernode_update_batch_work_bytes(ds.data(), rs.data(), 2, 0.0);
  EXPECT_GE(bytes, (90 * 20 + 0) * sizeof(double) + 2 * 32);
  EXPECT_EQ(bytes % 256, 0U);
  // Under the fused threshold (14400 flops here) a product needs no room: the job tables only.
  EXPECT_EQ(supernode_update_batch_work_bytes(ds.data(), rs.data(), 2), 256U);
  EXPECT_EQ(supernode_update_batch_work_bytes(nullptr, nullptr, 0), 0U);
  EXPECT_THROW(supernode_update_batch_work_bytes(ds.data(), rs.data(), -1), InvalidArgument);
  EXPECT_EQ(supernode_update_work_doubles(ds[0], rs[0]), 90U * 20U);
}

// A small valid problem for the argument checks.
class SupernodeCpuArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    Rng rng(99);
    problem_ = random_update_problem(rng, {200, 10, 6, 0.7, 1});
    before_ = problem_.target.values;
    work_.assign(supernode_update_work_doubles(d().cref(), problem_.ranges[0]) + 1000, 0.0);
  }
  HostPanel& d() { return problem_.descendants[0]; }
  HostPanel& t() { return problem_.target; }
  void update(UpdateRange r) { supernode_update_cpu(d().cref(), r, t().ref(), work_.data()); }
  bool target_untouched() const {
    return within_bounds(problem_.target.values, before_, std::vector<double>(before_.size(), 0.0));
  }

  UpdateProblem problem_;
  std::vector<double> before_;
  std::vector<double> work_;
};

TEST_F(SupernodeCpuArguments, UpdateRejectsBadRanges) {
  const UpdateRange r = problem_.ranges[0];
  EXPECT_THROW(update({r.r0, r.r1 - 1}), InvalidArgument);         // does not match the rows
  EXPECT_THROW(update({d().ncols - 1, r.r1}), InvalidArgument);    // reaches into d's own block
  EXPECT_THROW(update({r.r0, d().nrows() + 1}), InvalidArgument);  // past d's rows
  EXPECT_THROW(update({r.r1, r.r0 - 1}), InvalidArgument);         // r1 < r0
  EXPECT_TRUE(target_untouched());
}

TEST_F(SupernodeCpuArguments, UpdateRejectsARowMissingFromTheTarget) {
  // d gets a last row that t does not have: the structure theorem no longer holds.
  HostPanel& dd = d();
  const int nrows = dd.nrows();
  std::vector<double> values(static_cast<std::size_t>(nrows + 1) * dd.ncols, 0.5);
  for (int c = 0; c < dd.ncols; ++c) {
    for (int i = 0; i < nrows; ++i)
      values[static_cast<std::size_t>(i) + static_cast<std::size_t>(c) * (nrows + 1)] = dd.at(i, c);
  }
  dd.rows.push_back(problem_.n + 7);
  dd.values = values;
  EXPECT_THROW(update(problem_.ranges[0]), InvalidArgument);
  EXPECT_TRUE(target_untouched());
}

TEST_F(SupernodeCpuArguments, UpdateRejectsBadPanels) {
  const std::int32_t first_col = d().first_col;
  d().first_col = t().first_col;  // d no longer precedes t
  EXPECT_THROW(update(problem_.ranges[0]), InvalidArgument);
  d().first_col = first_col;
  const ConstPanelRef huge{d().values.data(), d().rows.data(), 50000, 50000, 0};  // 2.5e9 entries
  EXPECT_THROW(supernode_update_cpu(huge, {0, 0}, t().ref(), work_.data()), InvalidArgument);
  EXPECT_THROW(supernode_update_cpu(d().cref(), problem_.ranges[0], t().ref(), nullptr), InvalidArgument);
  PanelRef wide = t().ref();
  wide.ncols = wide.nrows + 1;
  EXPECT_THROW(supernode_factor_cpu(wide), InvalidArgument);
  PanelRef unsorted = t().ref();
  std::vector<std::int32_t> rows = t().rows;
  rows[0] += 1;  // no longer its own first column
  unsorted.rows = rows.data();
  EXPECT_THROW(supernode_update_cpu(d().cref(), problem_.ranges[0], unsorted, work_.data()), InvalidArgument);
  EXPECT_TRUE(target_untouched());
}

TEST_F(SupernodeCpuArguments, BatchRejectedAsAWholeWhenOneUpdateIsBad) {
  const std::vector<ConstPanelRef> ds{d().cref(), d().cref()};
  const std::vector<UpdateRange> rs{problem_.ranges[0], {problem_.ranges[0].r0, problem_.ranges[0].r0}};
  EXPECT_THROW(supernode_update_batch_cpu(ds.data(), rs.data(), 2, t().ref(), work_.data()), InvalidArgument);
  EXPECT_THROW(supernode_update_batch_cpu(ds.data(), rs.data(), -1, t().ref(), work_.data()), InvalidArgument);
  EXPECT_TRUE(target_untouched());
}

TEST_F(SupernodeCpuArguments, SolvesRejectBadShapes) {
  const ConstPanelRef p = t().cref();
  const int below_rows = p.nrows - p.ncols;
  std::vector<double> x(static_cast<std::size_t>(p.ncols) * 2, 1.0), below(static_cast<std::size_t>(below_rows) * 2);
  EXPECT_THROW(supernode_panel_forward_cpu(p, x.data(), p.ncols - 1, below.data(), below_rows, 2), InvalidArgument);
  EXPECT_THROW(supernode_panel_forward_cpu(p, x.data(), p.ncols, below.data(), below_rows - 1, 2), InvalidArgument);
  EXPECT_THROW(supernode_panel_backward_cpu(p, x.data(), p.ncols, below.data(), below_rows, -1), InvalidArgument);
  EXPECT_THROW(supernode_panel_forward_cpu(p, nullptr, p.ncols, below.data(), below_rows, 1), InvalidArgument);
  EXPECT_THROW(supernode_panel_backward_cpu(p, x.data(), p.ncols, nullptr, below_rows, 1), InvalidArgument);
  EXPECT_NO_THROW(supernode_panel_forward_cpu(p, nullptr, p.ncols, nullptr, below_rows, 0));  // nothing to solve
  // A move whose row falls outside its block, or whose positions pass ldc.
  std::vector<std::int32_t> rows{5, 9};
  std::vector<double> compact{1.0, 2.0}, block(4, 0.0);
  SolveMove m{compact.data(), rows.data(), block.data(), 0, 2, 2, 4, 4, 4};  // block holds rows 4 .. 7
  EXPECT_THROW(supernode_solve_subtract_cpu(&m, 1, 1), InvalidArgument);
  m.p1 = 3;
  EXPECT_THROW(supernode_solve_gather_cpu(&m, 1, 1), InvalidArgument);
  EXPECT_THROW(supernode_solve_store_cpu(nullptr, 2, nullptr, 1, block.data(), 4), InvalidArgument);
}

TEST(SupernodeCpuFactor, NeedsNoRowList) {
  std::vector<double> values{4.0, 2.0, 6.0, kNaN, 5.0, 3.0};  // 3 x 2: [[4, .], [2, 5], [6, 3]]
  EXPECT_EQ(supernode_factor_cpu({values.data(), nullptr, 3, 2, 0}), 0);
  EXPECT_DOUBLE_EQ(values[0], 2.0);    // sqrt(4)
  EXPECT_DOUBLE_EQ(values[1], 1.0);    // 2 / 2
  EXPECT_DOUBLE_EQ(values[2], 3.0);    // 6 / 2
  EXPECT_TRUE(std::isnan(values[3]));  // upper triangle untouched
  EXPECT_DOUBLE_EQ(values[4], 2.0);    // sqrt(5 - 1)
  EXPECT_DOUBLE_EQ(values[5], 0.0);    // (3 - 3 * 1) / 2
}

}  // namespace
}  // namespace hetsparse::test
