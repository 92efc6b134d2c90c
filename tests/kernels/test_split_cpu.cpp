// The split SpTRSV's gather and scatter on the host: a random split order of 1000 rows, 3 columns
// with padded leading dimensions, against direct indexing; scatter inverts gather.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/split/split.hpp"
#include "sparse/random.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

TEST(SplitKernelsCpu, GatherThenScatterIsTheIdentity) {
  Rng rng(3);
  const index_t n1 = 377, n2 = 623, n = n1 + n2, nrhs = 3, ld = n + 5, ld1 = n1 + 2, ld2 = n2 + 1;
  const std::vector<index_t> order = random_permutation(n, rng);
  const std::vector<double> b = random_vector(rng, static_cast<std::size_t>(ld) * nrhs);
  std::vector<double> b1(static_cast<std::size_t>(ld1) * nrhs, kNaN), b2(static_cast<std::size_t>(ld2) * nrhs, kNaN);
  kernels::split_gather_cpu(order.data(), n1, n2, b.data(), ld, b1.data(), ld1, b2.data(), ld2, nrhs);
  for (index_t r = 0; r < nrhs; ++r) {
    for (index_t i = 0; i < n1; ++i) ASSERT_EQ(b1[i + r * ld1], b[order[i] + r * ld]);
    for (index_t i = 0; i < n2; ++i) ASSERT_EQ(b2[i + r * ld2], b[order[n1 + i] + r * ld]);
  }
  std::vector<double> x(b.size(), -3.5);
  kernels::split_scatter_cpu(order.data(), n1, n2, b1.data(), ld1, b2.data(), ld2, x.data(), ld, nrhs);
  for (index_t r = 0; r < nrhs; ++r) {
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(x[i + r * ld], b[i + r * ld]);
    for (index_t i = n; i < ld; ++i) ASSERT_EQ(x[i + r * ld], -3.5) << "padding untouched";
  }
}

}  // namespace
}  // namespace hetsparse::test
