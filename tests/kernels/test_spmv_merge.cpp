// The merge of partial SpMV results (kernels/spmv/spmv_merge.hpp) on every back end: full-length
// partials (pCSC), a segment plus single cut rows (pCOO), more sources than one CUDA launch takes,
// beta == 0 with y poisoned, and no sources at all.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {
namespace {

using SpmvMerge = KernelTest;
using Range = KernelBackend::MergeRange;

// y = beta y + sources, summed in order on the host: the expectation (up to rounding: a GPU may
// fuse the first product and sum).
std::vector<double> merged(std::vector<double> y, double beta, const std::vector<std::vector<double>>& sources,
                           const std::vector<Range>& ranges) {
  for (double& v : y) v = beta == 0.0 ? 0.0 : beta * v;
  for (std::size_t j = 0; j < sources.size(); ++j)
    for (std::uint32_t i = 0; i < ranges[j].count; ++i) y[ranges[j].dst + i] += sources[j][ranges[j].src + i];
  return y;
}

void check(KernelBackend& b, Rng& rng, std::size_t n, double beta, const std::vector<std::vector<double>>& sources,
           const std::vector<Range>& ranges) {
  std::vector<double> y = random_vector(rng, n);
  if (beta == 0.0) y.assign(n, kNaN);  // must be written without being read
  const std::vector<double> expect = merged(y, beta, sources, ranges);
  b.spmv_merge(y, beta, sources, ranges);
  ASSERT_EQ(y.size(), expect.size());
  // At most 38 terms of magnitude <= 2.5: a few ulps of 100 each.
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(y[i], expect[i], 1e-12) << "entry " << i;
}

TEST_F(SpmvMerge, FullLengthPartials) {
  Rng rng(71);
  const std::uint32_t n = 3001;
  std::vector<std::vector<double>> sources;
  std::vector<Range> ranges;
  for (int j = 0; j < 5; ++j) {
    sources.push_back(random_vector(rng, n));
    ranges.push_back({0, 0, n});
  }
  for (const double beta : {0.0, 1.0, -0.75}) check(backend(), rng, n, beta, sources, ranges);
}

TEST_F(SpmvMerge, SegmentAndCutRows) {
  Rng rng(72);
  // An owner's rows 0..499 from its segment (whose row 0 is an earlier part's: src 1), plus the
  // pieces of its last row that three later parts computed.
  std::vector<std::vector<double>> sources{random_vector(rng, 501), random_vector(rng, 40), random_vector(rng, 1),
                                           random_vector(rng, 9)};
  std::vector<Range> ranges{{1, 0, 500}, {0, 499, 1}, {0, 499, 1}, {0, 499, 1}};
  for (const double beta : {0.0, 2.5}) check(backend(), rng, 500, beta, sources, ranges);
}

TEST_F(SpmvMerge, ManySourcesAndNone) {
  Rng rng(73);
  const std::uint32_t n = 777;
  std::vector<std::vector<double>> sources;
  std::vector<Range> ranges;
  for (std::uint32_t j = 0; j < 37; ++j) {  // more than one launch's batch, overlapping ranges
    sources.push_back(random_vector(rng, 100));
    ranges.push_back({j % 7, (j * 53) % (n - 93), 93});
  }
  check(backend(), rng, n, 0.0, sources, ranges);
  check(backend(), rng, n, 0.5, sources, ranges);
  check(backend(), rng, n, -2.0, {}, {});  // y = beta y
  check(backend(), rng, n, 0.0, {}, {});   // y = 0
}

}  // namespace
}  // namespace hetsparse::test
