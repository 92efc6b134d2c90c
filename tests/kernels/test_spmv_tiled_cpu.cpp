// The tile plans of the tiled SpMV (kernels/spmv/spmv_tiled.hpp) and the choice of the own CUDA path:
// every plan covers each row once, in order, with tiles that are full (the next row did not fit),
// rows over solo_entries alone and long rows cut into pieces of at most a tile; uneven tiles marked
// for the balanced reduction; the host path of the algorithm rejects a plan of another matrix. (The
// product itself runs in the shared suite, test_spmv.cpp, on both back ends.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using kernels::kBalancedTile;
using kernels::kNotLongRow;
using kernels::TilePlan;
using kernels::TilePlanOptions;

void expect_valid_plan(const std::vector<std::uint32_t>& rowptr, const TilePlan& plan, TilePlanOptions o) {
  const kernels::TilePlanView v = plan.view();
  const auto nrows = static_cast<std::uint32_t>(rowptr.size() - 1);
  const auto length = [&](std::uint32_t r) { return rowptr[r + 1] - rowptr[r]; };
  const std::uint32_t solo = o.solo_entries == 0 ? o.max_entries : o.solo_entries;
  ASSERT_EQ(v.tile_row[v.tiles], nrows);
  ASSERT_EQ(v.tile_entry[v.tiles], rowptr.back());
  std::uint32_t row = 0, long_rows = 0;
  for (std::uint32_t t = 0; t < v.tiles;) {
    ASSERT_EQ(v.tile_row[t], row) << "tile " << t;
    ASSERT_EQ(v.tile_entry[t], rowptr[row]) << "tile " << t;
    if (kernels::is_piece(v.tile_long[t])) {
      const std::uint32_t l = v.tile_long[t];
      ASSERT_EQ(l, long_rows++);
      ASSERT_EQ(v.long_first[l], t);
      ASSERT_GT(length(row), o.max_entries);
      ASSERT_EQ(v.long_count[l], (length(row) + o.max_entries - 1) / o.max_entries);
      for (std::uint32_t p = 0; p < v.long_count[l]; ++p, ++t) {
        EXPECT_EQ(v.tile_long[t], l);
        EXPECT_EQ(v.tile_entry[t], rowptr[row] + p * o.max_entries);
        EXPECT_LE(v.tile_entry[t + 1] - v.tile_entry[t], o.max_entries);
      }
      EXPECT_EQ(v.tile_entry[t], rowptr[row + 1]);
      ++row;
      continue;
    }
    const std::uint32_t end = v.tile_row[t + 1];
    ASSERT_GT(end, row) << "tile " << t;
    EXPECT_LE(end - row, o.max_rows);
    EXPECT_LE(rowptr[end] - rowptr[row], o.max_entries);
    if (end - row == 1) {
      EXPECT_EQ(v.tile_long[t], kNotLongRow) << "tile " << t;  // one row: no balancing
    }
    if (length(row) > solo) {
      EXPECT_EQ(end, row + 1) << "tile " << t << ": a row over solo_entries is alone";
    } else {
      for (std::uint32_t r = row; r < end; ++r) EXPECT_LE(length(r), solo);
      // Full: the next row is long or solo, would pass a limit, or there is none.
      if (end < nrows && length(end) <= solo) {
        EXPECT_TRUE(end - row == o.max_rows || rowptr[end + 1] - rowptr[row] > o.max_entries) << "tile " << t;
      }
    }
    row = end;
    ++t;
  }
  EXPECT_EQ(row, nrows);
  EXPECT_EQ(plan.long_rows(), long_rows);
  EXPECT_EQ(plan.workspace_bytes(), long_rows == 0 ? 0 : plan.tiles() * sizeof(double) + long_rows * 4);
}

TEST(TilePlan, CoversEveryRowOnceWithFullTiles) {
  Rng rng(31);
  for (const auto& [min_len, max_len] : {std::pair{0u, 6u}, {0u, 200u}, {5u, 9u}, {0u, 3000u}}) {
    const CsrMatrix A = random_csr(rng, 4000, random_row_lengths(rng, 1500, min_len, max_len));
    for (const TilePlanOptions o : {TilePlanOptions{}, TilePlanOptions{1, 1}, TilePlanOptions{5, 3},
                                    TilePlanOptions{48, 7}, TilePlanOptions{4096, 1024, 0, 0},
                                    TilePlanOptions{1024, 300, 128, 64}}) {
      SCOPED_TRACE("rows of " + std::to_string(min_len) + ".." + std::to_string(max_len) + ", tiles of " +
                   std::to_string(o.max_entries) + " entries, " + std::to_string(o.max_rows) + " rows");
      expect_valid_plan(A.rowptr, TilePlan(A.rowptr.data(), A.nrows, 0, o), o);
    }
  }
}

TEST(TilePlan, SubBlockOffsetsAndEdgeCases) {
  Rng rng(32);
  std::vector<std::uint32_t> lengths = random_row_lengths(rng, 900, 0, 30);
  lengths[0] = lengths[1] = 0;
  lengths[400] = 9000;  // pieces of default tiles
  lengths[899] = 0;
  const CsrMatrix A = random_csr(rng, 9500, lengths);
  // Rows 100..899 as StarPU hands a block out: offsets start at rowptr[100].
  const std::vector<std::uint32_t> block(A.rowptr.begin() + 100, A.rowptr.end());
  std::vector<std::uint32_t> rebased;
  for (std::uint32_t v : block) rebased.push_back(v - block.front());
  const TilePlan plan(block.data(), 800, block.front(), {});
  expect_valid_plan(rebased, plan, {});
  EXPECT_EQ(plan.long_rows(), 1u);

  const std::vector<std::uint32_t> empty_rows(50, 0);  // 49 rows, no entries: tiles of max_rows rows
  const TilePlan empty(empty_rows.data(), 49, 0, {10, 8});
  expect_valid_plan(empty_rows, empty, {10, 8});
  EXPECT_EQ(empty.tiles(), 7u);
  const std::vector<std::uint32_t> no_rows{0};
  EXPECT_EQ(TilePlan(no_rows.data(), 0, 0).tiles(), 0u);
}

TEST(TilePlan, RejectsBadOptionsAndForeignMatrices) {
  const std::vector<std::uint32_t> rowptr{0, 2, 5, 5, 9};
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {0, 4}), InvalidArgument);
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {kernels::kTileMaxEntries + 1, 4}), InvalidArgument);
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {8, 0}), InvalidArgument);
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {8, kernels::kTileMaxRows + 1}), InvalidArgument);
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {8, 4, 64}), InvalidArgument);     // not 128, 256 or 512 threads
  EXPECT_THROW(TilePlan(rowptr.data(), 4, 0, {4096, 4, 128}), InvalidArgument);  // 32 entries a thread
  // A plan of this 4-row matrix applied to another one must not run.
  const TilePlan plan(rowptr.data(), 4, 0, {3, 2});
  Rng rng(33);
  const CsrMatrix other = random_csr(rng, 10, random_row_lengths(rng, 4, 1, 3));
  const std::vector<double> x(10, 1.0);
  std::vector<double> y(4, 0.0);
  EXPECT_THROW(kernels::spmv_tiled_cpu(plan.view(), other.view(), x.data(), y.data(), 1.0, 0.0), InvalidArgument);
}

TEST(TilePlan, UnevenTilesAreBalanced) {
  // 200 rows of 4 with one of 150 in the middle: under Auto that tile is balanced (its long row
  // would keep one lane busy for 150 steps); 200 even rows are not; forced modes mark every
  // multi-row tile with entries one way.
  std::vector<std::uint32_t> uneven{0}, even{0};
  for (int r = 0; r < 200; ++r) {
    uneven.push_back(uneven.back() + (r == 100 ? 150 : 4));
    even.push_back(even.back() + 4);
  }
  const auto marks = [](const std::vector<std::uint32_t>& rowptr, TilePlanOptions o) {
    const TilePlan plan(rowptr.data(), 200, 0, o);
    std::vector<std::uint32_t> m(plan.view().tile_long, plan.view().tile_long + plan.tiles());
    return m;
  };
  EXPECT_EQ(marks(uneven, {}), std::vector<std::uint32_t>{kBalancedTile});
  EXPECT_EQ(marks(even, {}), std::vector<std::uint32_t>{kNotLongRow});
  TilePlanOptions forced;
  forced.reduce = kernels::TileReduce::Balanced;
  EXPECT_EQ(marks(even, forced), std::vector<std::uint32_t>{kBalancedTile});
  forced.reduce = kernels::TileReduce::Grouped;
  EXPECT_EQ(marks(uneven, forced), std::vector<std::uint32_t>{kNotLongRow});
  // With solo_entries 100 the long row is a tile alone, and the rest even again.
  forced.reduce = kernels::TileReduce::Auto;
  forced.solo_entries = 100;
  EXPECT_EQ(marks(uneven, forced), (std::vector<std::uint32_t>{kNotLongRow, kNotLongRow, kNotLongRow}));
}

TEST(SpmvPathChoice, RowProfilesPickTheKernel) {
  // Even rows of 7 (a 3D 7-point stencil's shape): the sub-warp kernel.
  std::vector<std::uint32_t> even{0};
  for (int r = 0; r < 1000; ++r) even.push_back(even.back() + 7);
  const kernels::RowProfile p = kernels::row_profile(even.data(), 1000);
  EXPECT_DOUBLE_EQ(p.mean, 7.0);
  EXPECT_EQ(p.max, 7u);
  EXPECT_DOUBLE_EQ(p.cv, 0.0);
  EXPECT_EQ(kernels::choose_spmv(p).path, kernels::SpmvPath::Subwarp);
  // Short even rows (triangles of meshes) too.
  std::vector<std::uint32_t> shorter{0}, hub{0}, holes{0};
  for (int r = 0; r < 1000; ++r) {
    shorter.push_back(shorter.back() + 3 + r % 2);
    hub.push_back(hub.back() + (r == 500 ? 5000 : 8));
    holes.push_back(holes.back() + (r % 4 == 0 ? 0 : 10));
  }
  EXPECT_EQ(kernels::choose_spmv(kernels::row_profile(shorter.data(), 1000)).path, kernels::SpmvPath::Subwarp);
  // Skew (a hub row), many empty rows: the tiled kernel.
  for (const auto* rowptr : {&hub, &holes}) {
    const kernels::RowProfile q = kernels::row_profile(rowptr->data(), 1000);
    const kernels::SpmvChoice c = kernels::choose_spmv(q);
    EXPECT_EQ(c.path, kernels::SpmvPath::Tiled) << "mean " << q.mean << " max " << q.max;
    EXPECT_EQ(c.tiles.max_entries, kernels::TilePlanOptions{}.max_entries) << "short skewed rows: tiles of 1024";
  }
  EXPECT_NEAR(kernels::row_profile(holes.data(), 1000).empty_share, 0.25, 1e-12);
}

TEST(SpmvPathChoice, SkewedRowsOf24EntriesOrMoreGetTilesOf2048) {
  kernels::RowProfile wide{2'000'000, 60'000'000, 30.0, 30'000, 9.9, 0.0};  // an R-MAT graph's shape
  EXPECT_EQ(kernels::choose_spmv(wide).path, kernels::SpmvPath::Tiled);
  EXPECT_EQ(kernels::choose_spmv(wide).tiles.max_entries, 2048u);
  kernels::RowProfile narrow = wide;
  narrow.mean = 15.0;
  narrow.nnz = 30'000'000;
  EXPECT_EQ(kernels::choose_spmv(narrow).path, kernels::SpmvPath::Tiled);
  EXPECT_EQ(kernels::choose_spmv(narrow).tiles.max_entries, 1024u);
}

// A profile of even rows: `rows` rows of `len` entries.
kernels::RowProfile even_rows(std::uint32_t rows, std::uint32_t len) {
  return {rows, std::uint64_t{rows} * len, static_cast<double>(len), len, 0.0, 0.0};
}

TEST(SpmvPathChoice, EvenRowsThatIdleTheSubwarpGoTiledOnceTheMatrixOutgrowsL2) {
  EXPECT_EQ(kernels::subwarp_row_slots(5 * 1000, 1000), 8u);
  EXPECT_EQ(kernels::subwarp_row_slots(17 * 1000, 1000), 32u);
  EXPECT_EQ(kernels::subwarp_row_slots(81 * 1000, 1000), 128u);
  EXPECT_EQ(kernels::subwarp_row_slots(0, 1000), 4u);
  struct Case {
    std::uint32_t rows, len;
    kernels::SpmvPath path;
    std::uint32_t tile_entries;
  };
  const std::uint32_t plain = kernels::TilePlanOptions{}.max_entries;
  for (const Case& c : {
           Case{3'000'000, 17, kernels::SpmvPath::Tiled, 2048},   // 17 of 32 slots, 51M nonzeros
           Case{500'000, 17, kernels::SpmvPath::Tiled, 2048},     // 8.5M
           Case{400'000, 17, kernels::SpmvPath::Subwarp, plain},  // 6.8M: largely served from L2
           Case{4'000'000, 7, kernels::SpmvPath::Subwarp, 2048},  // 7 of 8 slots
           Case{2'000'000, 27, kernels::SpmvPath::Subwarp, 2048}, // 27 of 32
           Case{3'000'000, 21, kernels::SpmvPath::Tiled, 2048},   // 21 of 32 (3-dof 7-point)
           Case{700'000, 81, kernels::SpmvPath::Subwarp, 2048},   // past the sub-warp's first passes
       }) {
    SCOPED_TRACE(std::to_string(c.rows) + " rows of " + std::to_string(c.len));
    const kernels::SpmvChoice got = kernels::choose_spmv(even_rows(c.rows, c.len));
    EXPECT_EQ(got.path, c.path);
    EXPECT_EQ(got.tiles.max_entries, c.tile_entries);
  }
}

}  // namespace
}  // namespace hetsparse::test
