// The split SpTRSV's gather and scatter on the GPU, against the host kernels: a random split order
// of 70,000 rows (more than one grid pass), 2 columns with padded leading dimensions.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/split/split.hpp"
#include "sparse/random.hpp"
#include "tests/kernels/backend_cuda.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {
namespace {

using SplitKernelsCuda = CudaKernelTest;

TEST_F(SplitKernelsCuda, MatchTheHostKernels) {
  Rng rng(8);
  const index_t n1 = 20011, n2 = 49989, n = n1 + n2, nrhs = 2, ld = n + 3, ld1 = n1 + 1, ld2 = n2 + 7;
  const std::vector<index_t> order = random_permutation(n, rng);
  const std::vector<double> b = random_vector(rng, static_cast<std::size_t>(ld) * nrhs);
  std::vector<double> b1(static_cast<std::size_t>(ld1) * nrhs, kNaN), b2(static_cast<std::size_t>(ld2) * nrhs, kNaN);
  std::vector<double> e1 = b1, e2 = b2;
  kernels::split_gather_cpu(order.data(), n1, n2, b.data(), ld, e1.data(), ld1, e2.data(), ld2, nrhs);
  DeviceArray<index_t> d_order(stream_, order);
  DeviceArray<double> d_b(stream_, b), d_b1(stream_, b1), d_b2(stream_, b2);
  kernels::split_gather_cuda(stream_, d_order.get(), n1, n2, d_b.get(), ld, d_b1.get(), ld1, d_b2.get(), ld2, nrhs);
  const std::vector<double> g1 = d_b1.download(stream_), g2 = d_b2.download(stream_);
  for (std::size_t k = 0; k < g1.size(); ++k) ASSERT_TRUE(same_bits(g1[k], e1[k])) << k;
  for (std::size_t k = 0; k < g2.size(); ++k) ASSERT_TRUE(same_bits(g2[k], e2[k])) << k;
  std::vector<double> x(b.size(), -1.25);
  DeviceArray<double> d_x(stream_, x);
  kernels::split_scatter_cuda(stream_, d_order.get(), n1, n2, d_b1.get(), ld1, d_b2.get(), ld2, d_x.get(), ld, nrhs);
  kernels::split_scatter_cpu(order.data(), n1, n2, e1.data(), ld1, e2.data(), ld2, x.data(), ld, nrhs);
  const std::vector<double> gx = d_x.download(stream_);
  for (std::size_t k = 0; k < gx.size(); ++k) ASSERT_TRUE(same_bits(gx[k], x[k])) << k;
}

}  // namespace
}  // namespace hetsparse::test
