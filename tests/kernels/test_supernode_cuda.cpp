// CUDA-only checks of the supernode kernels (the shared cases are in test_supernode.cpp): batches with
// every update through the fused kernel, every update through cuBLAS, and both in one batch; handle
// state given back; argument checks made before any device work.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "tests/kernels/backend_cuda.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/supernode_checks.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

// Batches whose updates go through the fused kernel up to fused_max_flops() and through cuBLAS above.
class SupernodeCudaThreshold : public CudaKernelTest {
 protected:
  void SetUp() override {
    CudaKernelTest::SetUp();
    if (!IsSkipped()) backend_.emplace(stream_, cublas_, cusolver_, fused_max_flops());
  }
  virtual double fused_max_flops() const = 0;
  std::optional<CudaSupernodeBackend> backend_;
};
class SupernodeCudaFusedOnly : public SupernodeCudaThreshold {
  double fused_max_flops() const override { return std::numeric_limits<double>::infinity(); }
};
class SupernodeCudaCublasOnly : public SupernodeCudaThreshold {
  double fused_max_flops() const override { return 0.0; }
};
// Between the sizes of check_batch's updates: one batch runs both paths into the same target.
constexpr double kMixedThreshold = 6.0e4;
class SupernodeCudaMixed : public SupernodeCudaThreshold {
  double fused_max_flops() const override { return kMixedThreshold; }
};

// The fused kernel (tiles of 32 x 32, inner dimension in chunks of 16) on every shape of the shared
// suite, single updates included, and on batches.
TEST_F(SupernodeCudaFusedOnly, UpdateMatchesDenseReference) { check_updates(*backend_, 131); }
TEST_F(SupernodeCudaFusedOnly, UpdateWithoutRowsInTargetColumnsChangesNothing) { check_empty_update(*backend_, 132); }
TEST_F(SupernodeCudaFusedOnly, BatchOfSevenMatchesDenseReference) { check_batch(*backend_, 7, 133); }
TEST_F(SupernodeCudaFusedOnly, BatchOfSeventyMatchesDenseReference) { check_batch(*backend_, 70, 134); }
TEST_F(SupernodeCudaFusedOnly, LeftLookingBatchedFactorAndSolveMatchDense) { check_end_to_end(*backend_, true, 135); }
TEST_F(SupernodeCudaCublasOnly, BatchOfSevenMatchesDenseReference) { check_batch(*backend_, 7, 136); }
TEST_F(SupernodeCudaCublasOnly, BatchOfSeventyMatchesDenseReference) { check_batch(*backend_, 70, 137); }
TEST_F(SupernodeCudaCublasOnly, LeftLookingBatchedFactorAndSolveMatchDense) { check_end_to_end(*backend_, true, 138); }
TEST_F(SupernodeCudaMixed, BatchOfFortyMatchesDenseReference) { check_batch(*backend_, 40, 139); }
TEST_F(SupernodeCudaMixed, LeftLookingBatchedFactorAndSolveMatchDense) { check_end_to_end(*backend_, true, 140); }

// The mixed fixture's threshold does split check_batch's updates (a host-only check).
TEST(SupernodeCudaArguments, MixedThresholdSplitsTheBatch) {
  Rng rng(139);
  const UpdateProblem problem = random_update_problem(rng, {500, 48, 40, 0.5, 40});
  int fused = 0;
  for (std::size_t u = 0; u < problem.descendants.size(); ++u) {
    fused += supernode_detail::is_fused(problem.descendants[u].cref(), problem.ranges[u], kMixedThreshold);
  }
  EXPECT_GT(fused, 0);
  EXPECT_LT(fused, static_cast<int>(problem.descendants.size()));
}

// StarPU workers share handles between tasks: the kernels must give them back as they found them.
using SupernodeCuda = CudaKernelTest;
TEST_F(SupernodeCuda, HandlesKeepTheirStreamAndPointerMode) {
  check_cublas(cublasSetStream(cublas_, nullptr), "cublasSetStream");
  check_cublas(cublasSetPointerMode(cublas_, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
  Rng rng(123);
  UpdateProblem problem = random_update_problem(rng, {300, 20, 10, 0.5, 3});
  SupernodeBackend& b = backend().supernode();
  b.update(problem.descendants[0], problem.ranges[0], problem.target);
  b.factor(problem.target);
  std::vector<double> x(static_cast<std::size_t>(problem.n) * 2, 1.0);
  b.forward(problem.target, x, 2, problem.n);
  b.backward(problem.target, x, 1, problem.n);
  cudaStream_t bound = stream_;
  cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
  check_cublas(cublasGetStream(cublas_, &bound), "cublasGetStream");
  check_cublas(cublasGetPointerMode(cublas_, &mode), "cublasGetPointerMode");
  EXPECT_EQ(bound, nullptr);
  EXPECT_EQ(mode, CUBLAS_POINTER_MODE_DEVICE);
  check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

// Assembly where the panel lives: the poisoned group is zeroed, entries repeating a position add up,
// positions outside the group are skipped.
TEST_F(SupernodeCuda, AssemblyZeroesThenAddsEveryEntry) {
  Rng rng(125);
  constexpr std::int64_t kCount = 5000;
  std::vector<std::int64_t> positions;
  std::vector<double> a;
  for (int e = 0; e < 3000; ++e) {
    positions.push_back(static_cast<std::int64_t>(uniform(rng, 0.0, 2999.99)));  // repeats, and untouched entries
    a.push_back(uniform(rng, -1.0, 1.0));
  }
  positions.push_back(-1);
  positions.push_back(kCount);
  a.push_back(100.0);
  a.push_back(200.0);
  std::vector<double> want(kCount, 0.0), bounds(kCount, 0.0);
  for (std::size_t e = 0; e + 2 < positions.size(); ++e) {
    want[static_cast<std::size_t>(positions[e])] += a[e];
    bounds[static_cast<std::size_t>(positions[e])] += 4e-16 * 8;  // the atomic additions' order varies
  }
  DeviceArray<double> values(kCount);
  values.poison(stream_);
  const DeviceArray<double> da(stream_, a);
  const DeviceArray<std::int64_t> dp(stream_, positions);
  supernode_assemble_cuda(stream_, values.get(), kCount, da.get(), dp.get(), static_cast<std::int64_t>(a.size()));
  EXPECT_TRUE(within_bounds(values.download(stream_), want, bounds));
}

// Checks that happen on the host before any CUDA call: they run, and must pass, without a device.
TEST(SupernodeCudaArguments, RejectedBeforeAnyDeviceWork) {
  Rng rng(124);
  UpdateProblem problem = random_update_problem(rng, {200, 10, 6, 0.7, 2});
  const ConstPanelRef d = problem.descendants[0].cref();  // host pointers: never dereferenced here
  const PanelRef t = problem.target.ref();
  const UpdateRange r = problem.ranges[0];
  double* work = problem.target.values.data();
  EXPECT_THROW(supernode_update_cuda(nullptr, nullptr, d, {d.ncols - 1, r.r1}, t, work), InvalidArgument);
  EXPECT_THROW(supernode_update_cuda(nullptr, nullptr, d, r, t, nullptr), InvalidArgument);
  std::vector<ConstPanelRef> ds{problem.descendants[0].cref(), problem.descendants[1].cref()};
  const std::size_t bytes = supernode_update_batch_work_bytes(ds.data(), problem.ranges.data(), 2);
  EXPECT_THROW(supernode_update_batch_cuda(nullptr, nullptr, ds.data(), problem.ranges.data(), 2, t, work, bytes - 8),
               InvalidArgument);
  EXPECT_THROW(supernode_update_batch_cuda(nullptr, nullptr, ds.data(), problem.ranges.data(), 2, t,
                                           reinterpret_cast<char*>(work) + 4, bytes),
               InvalidArgument);
  EXPECT_THROW(supernode_update_batch_cuda(nullptr, nullptr, ds.data(), problem.ranges.data(), -2, t, work, bytes),
               InvalidArgument);
  PanelRef wide = t;
  wide.ncols = wide.nrows + 1;
  EXPECT_THROW(supernode_factor_cuda(nullptr, nullptr, nullptr, wide, work, 1 << 20, nullptr), InvalidArgument);
  EXPECT_THROW(supernode_panel_forward_cuda(nullptr, nullptr, as_const(t), work, t.ncols, work, t.nrows, -1),
               InvalidArgument);
  EXPECT_THROW(supernode_panel_backward_cuda(nullptr, nullptr, as_const(t), work, t.ncols - 1, work, t.nrows, 1),
               InvalidArgument);
  const SolveMove bad{work, t.rows, work, 3, 2, 8, 0, 8, 8};  // p1 < p0
  EXPECT_THROW(supernode_solve_subtract_cuda(nullptr, &bad, 1, 1), InvalidArgument);
  EXPECT_THROW(supernode_solve_permute_cuda(nullptr, work, 4, nullptr, 5, 1, work, 4), InvalidArgument);
  EXPECT_THROW(supernode_assemble_cuda(nullptr, work, 10, nullptr, nullptr, 3), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
