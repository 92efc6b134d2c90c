// Features on hand-counted matrices, the papers' parallel granularity values, fusion segments,
// update_values and the empty matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using sptrsv::AnalysisOptions;
using sptrsv::TriangularPattern;

// Lower 4 x 4: rows {0}, {1}, {0, 2}, {1, 2, 3} (diagonal last). Levels {0, 1}, {2}, {3}.
Csr tiny_lower() {
  Csr a;
  a.rows = a.cols = 4;
  a.rowptr = {0, 1, 2, 4, 7};
  a.colind = {0, 1, 0, 2, 1, 2, 3};
  a.values = {2.0, 3.0, -1.0, 4.0, 0.5, -0.5, 5.0};
  return a;
}

void expect_tiny_features(const sptrsv::TriangularFeatures& f) {
  constexpr double tol = 1e-12;
  EXPECT_EQ(f.m, 4);
  EXPECT_EQ(f.nnz, 7);
  EXPECT_NEAR(f.alpha, 1.75, tol);
  EXPECT_NEAR(f.beta, 4.0 / 3.0, tol);
  EXPECT_NEAR(f.delta, std::log10(std::log10(4.0 / 3.0) / std::log10(1.76) + 0.01), tol);
  EXPECT_NEAR(f.rnnz, 1.75, tol);
  EXPECT_EQ(f.rnnz_max, 3);
  EXPECT_NEAR(f.rnnz_cov, std::sqrt(2.75 / 4.0) / 1.75, tol);  // lengths 1, 1, 2, 3
  EXPECT_NEAR(f.lnnz, 7.0 / 3.0, tol);
  EXPECT_EQ(f.lnnz_max, 3);
  EXPECT_NEAR(f.lnnz_cov, std::sqrt(2.0 / 9.0) / (7.0 / 3.0), tol);  // level entries 2, 2, 3
  EXPECT_EQ(f.layer_num, 3);
  EXPECT_NEAR(f.dep_dist, (1.0 / 2.0 + 1.0 / 1.0) / 4.0, tol);  // rows 2 (to 0) and 3 (to 2)
  EXPECT_EQ(f.nl, 3);
  EXPECT_NEAR(f.ap, 4.0 / 3.0, tol);
  EXPECT_NEAR(f.pfl, 100.0 / 3.0, tol);  // pf_min_rows 2: only level 0
  EXPECT_NEAR(f.pfr, 50.0, tol);
  EXPECT_EQ(f.mcl, 2);
  EXPECT_EQ(f.mrl, 3);
  EXPECT_NEAR(f.arl, 1.75, tol);
  EXPECT_EQ(f.pf_min_rows, 2);
}

TEST(SptrsvFeatures, TinyLowerHandCounted) {
  AnalysisOptions options;
  options.parallel_friendly_rows = 2;
  const TriangularPattern p(tiny_lower(), Triangle::Lower, false, options);
  expect_tiny_features(p.features());
  EXPECT_GE(p.features().analysis_ms, 0.0);
  EXPECT_DOUBLE_EQ(p.analysis_seconds(), p.features().analysis_ms * 1e-3);
}

TEST(SptrsvFeatures, ReversedUpperHasTheSameFeatures) {
  AnalysisOptions options;
  options.parallel_friendly_rows = 2;
  const TriangularPattern p(solver_input(tiny_lower(), Triangle::Upper, false, 1), Triangle::Upper, false, options);
  expect_tiny_features(p.features());
}

TEST(SptrsvFeatures, ListTextAndJsonAgree) {
  const TriangularPattern p(tiny_lower(), Triangle::Lower, false);
  const auto list = p.features().as_list();
  const std::vector<std::string> names{"delta", "alpha", "beta", "m", "nnz", "rnnz", "rnnz_max", "rnnz_cov",
                                       "lnnz", "lnnz_max", "lnnz_cov", "layer_num", "dep_dist", "NL", "AP", "PFL",
                                       "PFR", "MCL", "MRL", "ARL", "pf_min_rows", "analysis_ms"};
  ASSERT_EQ(list.size(), names.size());
  for (std::size_t k = 0; k < names.size(); ++k) EXPECT_EQ(list[k].first, names[k]);
  const std::string json = p.features().to_json();
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
  EXPECT_NE(json.find("\"MRL\": 3,"), std::string::npos) << json;
  EXPECT_NE(p.features().to_text().find("nnz 7\n"), std::string::npos);
}

// Table 8 of the YuenyeungSpTRSV paper prints delta to two decimals for (alpha, beta).
TEST(SptrsvFeatures, ParallelGranularityMatchesThePaper) {
  EXPECT_NEAR(sptrsv::parallel_granularity(2000.0, 4.00), 0.73, 0.01);     // cvxbqp1
  EXPECT_NEAR(sptrsv::parallel_granularity(3000.0, 4.00), 0.76, 0.01);     // ncvxqp3
  EXPECT_NEAR(sptrsv::parallel_granularity(14636.23, 4.89), 0.78, 0.01);  // rajat29
  EXPECT_NEAR(sptrsv::parallel_granularity(9622.50, 3.39), 0.87, 0.01);   // bayer01
  EXPECT_THROW(sptrsv::parallel_granularity(0.5, 2.0), InvalidArgument);
}

// 70 rows: 32 of length 1, 32 of length 17 (>= 16), 6 of length 1.
Csr light_heavy_light() {
  Csr a;
  a.rows = a.cols = 70;
  a.rowptr.push_back(0);
  for (index_t i = 0; i < 70; ++i) {
    if (i >= 32 && i < 64) {
      for (index_t j = 0; j < 16; ++j) {
        a.colind.push_back(j);
        a.values.push_back(-0.01);
      }
    }
    a.colind.push_back(i);
    a.values.push_back(1.0);
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

TEST(SptrsvFeatures, FusionSegmentsFollowAlgorithm6) {
  AnalysisOptions sixteen;  // the arithmetic below is for threshold 16
  sixteen.fusion_threshold = 16.0;
  TriangularPattern p(light_heavy_light(), Triangle::Lower, false, sixteen);
  std::vector<index_t> expected{0, 32};
  for (index_t k = 33; k <= 64; ++k) expected.push_back(k);
  expected.push_back(70);
  expected.insert(expected.end(), 34, 0);  // no split rows: every part code 0
  EXPECT_EQ(p.segments(), expected);
  EXPECT_EQ(p.host_view().num_segments, 34);
  // Upper (reversed): solve order is rows 69..0, so the chunks are the same rows in the same order.
  const TriangularPattern u(solver_input(light_heavy_light(), Triangle::Upper, false, 2), Triangle::Upper, false,
                            sixteen);
  EXPECT_EQ(u.segments(), expected);
  // Level order: positions 0..37 are the light rows 0..31, 64..69 (level 0), 38..69 the heavy rows.
  // Chunk [32, 64) has 6 light and 26 heavy rows: (6 + 26 * 17) / 32 = 14 < 16, thread-level;
  // chunk [64, 70) is all heavy: warp-level.
  EXPECT_EQ(p.level_segments(), (std::vector<index_t>{0, 32, 64, 65, 66, 67, 68, 69, 70, 0, 0, 0, 0, 0, 0, 0, 0}));
  p.set_fusion_threshold(0.0);  // every chunk warp-level
  EXPECT_EQ(p.segments().size(), 141u);
  EXPECT_EQ(p.level_segments().size(), 141u);
  p.set_fusion_threshold(std::numeric_limits<double>::infinity());  // every chunk thread-level
  EXPECT_EQ(p.segments(), (std::vector<index_t>{0, 32, 64, 70, 0, 0, 0}));
  EXPECT_THROW(p.set_fusion_threshold(-1.0), InvalidArgument);
}

// A warp-level row of at least SegmentPart::kSplitRowMin off-diagonals becomes k part segments:
// [p, p) k - 1 times then [p, p + 1), with consecutive codes over k partial slots.
TEST(SptrsvFeatures, LongWarpRowsAreSplitIntoParts) {
  using kernels::SegmentPart;
  const auto short_row = static_cast<index_t>(SegmentPart::kSplitRowMin - 1);       // stays whole
  const auto split_a = static_cast<index_t>(SegmentPart::kSplitRowMin);             // 2 parts
  const auto split_b = static_cast<index_t>(3 * SegmentPart::kEntriesPerPart + 1);  // 4 parts
  const index_t n = split_b + 100;
  const auto parts = [](index_t off) {
    return static_cast<int>((off + SegmentPart::kEntriesPerPart - 1) / SegmentPart::kEntriesPerPart);
  };
  Csr a;
  a.rows = a.cols = n;
  a.rowptr.push_back(0);
  for (index_t i = 0; i < n; ++i) {
    const index_t off = i == short_row ? short_row : i == split_a + 1 ? split_a : i == split_b ? split_b : 0;
    for (index_t j = 0; j < off; ++j) {
      a.colind.push_back(j);
      a.values.push_back(-1e-5);
    }
    a.colind.push_back(i);
    a.values.push_back(1.0);
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  AnalysisOptions every_row_warp_level;
  every_row_warp_level.fusion_threshold = 0.0;
  const TriangularPattern p(a, Triangle::Lower, false, every_row_warp_level);
  const kernels::TriangularView v = p.host_view();
  ASSERT_EQ(v.num_segments, n + parts(split_a) - 1 + parts(split_b) - 1);
  const index_t* codes = v.segments + v.num_segments + 1;
  std::vector<index_t> split_positions;
  int slot = 0;
  for (index_t s = 0; s < v.num_segments; ++s) {
    if (codes[s] == 0) {
      EXPECT_EQ(v.segments[s + 1] - v.segments[s], 1) << s;
      continue;
    }
    const SegmentPart part = SegmentPart::decode(codes[s]);
    EXPECT_EQ(part.slot, slot - part.q) << s;
    EXPECT_EQ(v.segments[s + 1] - v.segments[s], part.q + 1 == part.k ? 1 : 0) << s;
    if (part.q == 0) {
      split_positions.push_back(v.segments[s]);
      EXPECT_EQ(part.k, parts(v.segments[s] == split_a + 1 ? split_a : split_b));
    }
    ++slot;
  }
  EXPECT_EQ(split_positions, (std::vector<index_t>{split_a + 1, split_b}));
  EXPECT_EQ(slot, parts(split_a) + parts(split_b));
}

// With parts of one entry (rule 1/1) a dense 1200-row triangle asks for more partial slots than a
// workspace has: rows are split while the slots asked for up to and including them fit, and none
// after the first that does not (the prefix rule the GPU analysis computes by a scan).
TEST(SptrsvFeatures, SplittingStopsWhenThePartialSlotsRunOut) {
  using kernels::SegmentPart;
  const Csr& a = sptrsv_matrix("dense_lower_1200");
  const index_t n = a.rows;
  AnalysisOptions o;
  o.fusion_threshold = 0.0;
  o.split_rule = {1, 1};
  const TriangularPattern p(a, Triangle::Lower, false, o);
  const kernels::TriangularView v = p.host_view();
  const index_t* codes = v.segments + v.num_segments + 1;
  std::int64_t asked = 0;
  index_t s = 0;
  for (index_t i = 0; i < n; ++i) {  // walk the rows and the segments side by side
    const int parts = static_cast<int>(std::min<index_t>(SegmentPart::kMaxParts, i));
    const bool candidate = parts >= 2;  // a row of one part stays whole
    if (candidate) asked += parts;
    const bool split = candidate && asked <= SegmentPart::kSlots;
    ASSERT_EQ(codes[s] != 0, split) << "row " << i;
    if (split) {
      EXPECT_EQ(SegmentPart::decode(codes[s]).slot, asked - parts) << "row " << i;
    }
    s += split ? parts : 1;
  }
  EXPECT_EQ(s, v.num_segments);
  EXPECT_GT(asked, SegmentPart::kSlots);  // else the test shows nothing
  EXPECT_THROW(TriangularPattern(a, Triangle::Lower, false, [] {
                 AnalysisOptions bad;
                 bad.split_rule = {0, 1};
                 return bad;
               }()),
               InvalidArgument);
}

TEST(SptrsvFeatures, UpdateValuesKeepsThePattern) {
  const Csr input = solver_input(sptrsv_matrix("banded_wide"), Triangle::Lower, false, 5);
  TriangularPattern p(input, Triangle::Lower, false);
  const std::vector<index_t> levels = p.row_level();
  Csr scaled = input;
  for (double& v : scaled.values) v *= -3.0;
  p.update_values(scaled);
  EXPECT_EQ(p.row_level(), levels);
  const std::vector<double> b = random_values(static_cast<std::size_t>(input.rows), 6);
  std::vector<double> expected(b.size()), x(b.size(), std::numeric_limits<double>::quiet_NaN());
  ref::sptrsv(scaled, Triangle::Lower, false, b.data(), expected.data());
  kernels::sptrsv_cpu(p.host_view(), b.data(), input.rows, x.data(), input.rows, 1);
  EXPECT_TRUE(close_to(x.data(), expected));
  std::fill(x.begin(), x.end(), std::numeric_limits<double>::quiet_NaN());
  kernels::sptrsv_cpu_levels(p.host_view(), b.data(), input.rows, x.data(), input.rows, 1, 2, 1);
  EXPECT_TRUE(close_to(x.data(), expected)) << "level-ordered copy not updated";

  const std::vector<double> before = p.values();
  Csr moved = scaled;
  moved.colind[moved.rowptr[100]] = moved.colind[moved.rowptr[100]] == 100 ? 99 : 100;
  EXPECT_THROW(p.update_values(moved), InvalidArgument);
  Csr poisoned = scaled;
  poisoned.values[poisoned.rowptr[200]] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(p.update_values(poisoned), StructureError);
  EXPECT_EQ(p.values(), before);  // unchanged after a failed update
}

TEST(SptrsvFeatures, EmptyMatrix) {
  const TriangularPattern p(Csr{}, Triangle::Lower, false);
  EXPECT_EQ(p.rows(), 0);
  EXPECT_EQ(p.num_levels(), 0);
  EXPECT_EQ(p.features().nnz, 0);
  kernels::sptrsv_cpu(p.host_view(), nullptr, 1, nullptr, 1, 1);
  kernels::sptrsv_cpu_levels(p.host_view(), nullptr, 1, nullptr, 1, 1, 2);
}

}  // namespace
}  // namespace hetsparse::test
