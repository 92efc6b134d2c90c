// IC(0) and the Krylov vector kernels on the GPU: ic0_cuda against ref::ic0 and ic0_cpu (on a 3D
// Laplacian with hundreds of levels), the first failing pivot through atomicMin, a repeated run on
// one info word; xpby, diag_scale and fill against the host loops.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/ic0/ic0.hpp"
#include "kernels/krylov/krylov.hpp"
#include "sparse/random.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/ic0_checks.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using Ic0Cuda = CudaStreamTest;

// Runs ic0_cuda on L (values in place) and returns info.
int run_ic0_cuda(cudaStream_t s, Lower32& L) {
  const kernels::Ic0Levels lv = kernels::ic0_levels(L.n, L.rowptr.data(), L.colind.data());
  DeviceArray<std::uint32_t> rowptr(s, L.rowptr), colind(s, L.colind), rows(s, lv.rows);
  DeviceArray<double> values(s, L.values);
  DeviceArray<int> info(1);
  info.poison(s);
  kernels::ic0_cuda(s, rowptr.get(), colind.get(), values.get(), rows.get(), lv.level_ptr.data(), lv.num_levels(),
                    info.get());
  L.values = values.download(s);
  return info.download(s)[0];
}

TEST_F(Ic0Cuda, MatchesReference) {
  for (const auto& [name, A] : ic0_matrices()) {
    SCOPED_TRACE(name);
    Lower32 L(A);
    ASSERT_EQ(run_ic0_cuda(stream_, L), 0);
    EXPECT_TRUE(matches_reference_ic0(A, L.values));
    EXPECT_TRUE(reproduces_a_on_pattern(A, L));
  }
}

TEST_F(Ic0Cuda, MatchesTheCpuKernelOnManyLevels) {
  const Csr A = variable_coefficient_3d(24, 20, 18, 100.0, 9);  // 8640 rows, 60 levels
  Lower32 gpu(A), cpu(A);
  ASSERT_EQ(kernels::ic0_cpu(cpu.n, cpu.rowptr.data(), cpu.colind.data(), cpu.values.data()), 0);
  ASSERT_EQ(run_ic0_cuda(stream_, gpu), 0);
  for (std::size_t t = 0; t < cpu.values.size(); ++t)
    ASSERT_NEAR(gpu.values[t], cpu.values[t], 1e-12 * std::abs(cpu.values[t])) << "entry " << t;
}

TEST_F(Ic0Cuda, ReportsTheFirstNonPositivePivot) {
  Lower32 L(indefinite_at_row_2());
  EXPECT_EQ(run_ic0_cuda(stream_, L), 3);
  Lower32 ok(laplacian_2d(9, 9));  // a fresh run must clear the previous failure
  EXPECT_EQ(run_ic0_cuda(stream_, ok), 0);
}

TEST_F(Ic0Cuda, XpbyDiagScaleAndFill) {
  Rng rng(6);
  const int n = 100003;
  std::vector<double> x(n), y(n), d(n);
  for (int i = 0; i < n; ++i) {
    x[i] = uniform(rng, -1, 1);
    y[i] = uniform(rng, -1, 1);
    d[i] = uniform(rng, 0.5, 2);
  }
  DeviceArray<double> dx(stream_, x), dy(stream_, y), dd(stream_, d), out(n);
  kernels::xpby_cuda(stream_, n, dx.get(), 1.5, dy.get());
  const std::vector<double> got = dy.download(stream_);
  // The GPU may fuse the multiply-add: one rounding instead of two.
  for (int i = 0; i < n; ++i)
    ASSERT_NEAR(got[i], x[i] + 1.5 * y[i], 2 * kEps * (std::abs(x[i]) + std::abs(1.5 * y[i]))) << i;
  out.poison(stream_);
  kernels::xpby_cuda(stream_, n, dx.get(), 0.0, out.get());
  EXPECT_EQ(out.download(stream_), x);
  kernels::diag_scale_cuda(stream_, n, dd.get(), dx.get(), out.get());
  const std::vector<double> scaled = out.download(stream_);
  for (int i = 0; i < n; ++i) ASSERT_DOUBLE_EQ(scaled[i], d[i] * x[i]) << i;
  out.poison(stream_);
  kernels::fill_cuda(stream_, n, 0.0, out.get());
  EXPECT_EQ(out.download(stream_), std::vector<double>(n, 0.0));
}

}  // namespace
}  // namespace hetsparse::test
