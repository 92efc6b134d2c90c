// CUDA supernode kernels against the dense expectations: the CPU suite's cases on the device, plus
// batches of 1, 7, 40 and 70 updates, handle state given back, and argument checks. Work buffers and
// dev_info start poisoned (NaN, -1); guard entries after every panel and x must come back unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/supernode_checks.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

constexpr std::size_t kGuard = 40;  // doubles after each device array, which no kernel may change
constexpr double kGuardValue = -3.5;

// A host vector on the device followed by kGuard guard entries.
class GuardedArray {
 public:
  GuardedArray(cudaStream_t stream, const std::vector<double>& host)
      : size_(host.size()), device_(host.size() + kGuard) {
    std::vector<double> padded = host;
    padded.resize(host.size() + kGuard, kGuardValue);
    device_.upload(stream, padded);
  }
  double* get() const { return device_.get(); }
  // Copies the array back into `host`; fails the test if a guard entry changed.
  void download(cudaStream_t stream, std::vector<double>& host) const {
    const std::vector<double> padded = device_.download(stream);
    for (std::size_t i = size_; i < padded.size(); ++i) {
      EXPECT_EQ(padded[i], kGuardValue) << "guard entry " << i - size_ << " past the array was written";
    }
    host.assign(padded.begin(), padded.begin() + static_cast<std::ptrdiff_t>(size_));
  }

 private:
  std::size_t size_;
  DeviceArray<double> device_;
};

// A panel on the device: values with guards, rows as they are.
struct DevicePanel {
  DevicePanel(cudaStream_t stream, const HostPanel& p) : values(stream, p.values), rows(stream, p.rows) {}
  PanelRef ref(const HostPanel& p) const { return {values.get(), rows.get(), p.nrows(), p.ncols, p.first_col}; }
  ConstPanelRef cref(const HostPanel& p) const { return as_const(ref(p)); }
  GuardedArray values;
  DeviceArray<std::int32_t> rows;
};

// Work buffers start as NaN: a kernel that reads work before writing it spreads them.
class PoisonedWork : public DeviceArray<double> {
 public:
  PoisonedWork(cudaStream_t stream, std::size_t doubles) : DeviceArray<double>(doubles) { poison(stream); }
};

// fused_max_flops of the batches: the default, 0 (every update through cuBLAS) or infinite (every
// update through the fused kernel, single updates too).
class CudaBackend : public SupernodeBackend {
 public:
  CudaBackend(cudaStream_t stream, cublasHandle_t blas, cusolverDnHandle_t solver,
              double fused_max_flops = kFusedUpdateMaxFlops)
      : stream_(stream), blas_(blas), solver_(solver), fused_max_flops_(fused_max_flops) {}

  void update(const HostPanel& d, UpdateRange r, HostPanel& t) override {
    if (std::isinf(fused_max_flops_)) return update_batch({&d}, {r}, t);
    const DevicePanel dd(stream_, d), dt(stream_, t);
    PoisonedWork work(stream_, supernode_update_work_doubles(d.cref(), r));
    supernode_update_cuda(blas_, stream_, dd.cref(d), r, dt.ref(t), work.get());
    dt.values.download(stream_, t.values);
  }
  void update_batch(const std::vector<const HostPanel*>& ds, const std::vector<UpdateRange>& rs,
                    HostPanel& t) override {
    std::vector<std::unique_ptr<DevicePanel>> device;
    std::vector<ConstPanelRef> refs;
    for (const HostPanel* d : ds) {
      device.push_back(std::make_unique<DevicePanel>(stream_, *d));
      refs.push_back(device.back()->cref(*d));
    }
    const DevicePanel dt(stream_, t);
    const int count = static_cast<int>(refs.size());
    const std::size_t bytes = supernode_update_batch_work_bytes(refs.data(), rs.data(), count, fused_max_flops_);
    PoisonedWork work(stream_, bytes / sizeof(double) + 1);
    supernode_update_batch_cuda(blas_, stream_, refs.data(), rs.data(), count, dt.ref(t), work.get(), bytes,
                                fused_max_flops_);
    dt.values.download(stream_, t.values);
  }
  int factor(HostPanel& p) override {
    const DevicePanel dp(stream_, p);
    const std::size_t bytes = supernode_factor_cuda_work_bytes(solver_, dp.ref(p));
    PoisonedWork work(stream_, bytes / sizeof(double));
    DeviceArray<int> info(1);
    info.poison(stream_);
    supernode_factor_cuda(solver_, blas_, stream_, dp.ref(p), work.get(), bytes, info.get());
    dp.values.download(stream_, p.values);
    return info.download(stream_)[0];
  }
  void forward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override {
    sweep(p, x, nrhs, ldx, false);
  }
  void backward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override {
    sweep(p, x, nrhs, ldx, true);
  }

 private:
  void sweep(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx, bool backward) {
    const DevicePanel dp(stream_, p);
    const GuardedArray dx(stream_, x);
    PoisonedWork work(stream_, supernode_solve_work_doubles(p.cref(), nrhs));
    if (backward) {
      supernode_backward_cuda(blas_, stream_, dp.cref(p), dx.get(), nrhs, ldx, work.get());
    } else {
      supernode_forward_cuda(blas_, stream_, dp.cref(p), dx.get(), nrhs, ldx, work.get());
    }
    dx.download(stream_, x);
  }

  cudaStream_t stream_;
  cublasHandle_t blas_;
  cusolverDnHandle_t solver_;
  double fused_max_flops_;
};

class SupernodeCuda : public CudaKernelTest {
 protected:
  void SetUp() override {
    CudaKernelTest::SetUp();
    if (!IsSkipped()) backend_.emplace(stream_, cublas_, cusolver_, fused_max_flops());
  }
  virtual double fused_max_flops() const { return kFusedUpdateMaxFlops; }
  std::optional<CudaBackend> backend_;
};
class SupernodeCudaFusedOnly : public SupernodeCuda {
  double fused_max_flops() const override { return std::numeric_limits<double>::infinity(); }
};
class SupernodeCudaCublasOnly : public SupernodeCuda {
  double fused_max_flops() const override { return 0.0; }
};
// Between the sizes of check_batch's updates: one batch runs both paths into the same target.
constexpr double kMixedThreshold = 6.0e4;
class SupernodeCudaMixed : public SupernodeCuda {
  double fused_max_flops() const override { return kMixedThreshold; }
};

TEST_F(SupernodeCuda, UpdateMatchesDenseReference) { check_updates(*backend_, 111); }
TEST_F(SupernodeCuda, UpdateWithoutRowsInTargetColumnsChangesNothing) { check_empty_update(*backend_, 112); }
TEST_F(SupernodeCuda, BatchOfOneMatchesDenseReference) { check_batch(*backend_, 1, 113); }
TEST_F(SupernodeCuda, BatchOfSevenMatchesDenseReference) { check_batch(*backend_, 7, 114); }
TEST_F(SupernodeCuda, BatchOfFortyMatchesDenseReference) { check_batch(*backend_, 40, 115); }
// More jobs than one store_jobs launch carries: the job table is uploaded in two parts.
TEST_F(SupernodeCuda, BatchOfSeventyMatchesDenseReference) { check_batch(*backend_, 70, 116); }
TEST_F(SupernodeCuda, FactorMatchesPotrfAndTrsm) { check_factor(*backend_, 117); }
TEST_F(SupernodeCuda, FactorReportsNegativePivotColumn) {
  for (const int column : {0, 5, 47}) check_factor_failure(*backend_, column, false, 118 + column);
}
TEST_F(SupernodeCuda, FactorReportsNaNPivotColumn) {
  for (const int column : {0, 33, 47}) check_factor_failure(*backend_, column, true, 119 + column);
}
TEST_F(SupernodeCuda, SweepsMatchDenseTriangularSolves) { check_sweeps(*backend_, 120); }
TEST_F(SupernodeCuda, RightLookingFactorAndSolveMatchDense) { check_end_to_end(*backend_, false, 121); }
TEST_F(SupernodeCuda, LeftLookingBatchedFactorAndSolveMatchDense) { check_end_to_end(*backend_, true, 122); }

// The fused kernel (tiles of 32 x 32, inner dimension in chunks of 16) on every shape of the CPU
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
TEST_F(SupernodeCuda, HandlesKeepTheirStreamAndPointerMode) {
  check_cublas(cublasSetStream(cublas_, nullptr), "cublasSetStream");
  check_cublas(cublasSetPointerMode(cublas_, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
  Rng rng(123);
  UpdateProblem problem = random_update_problem(rng, {300, 20, 10, 0.5, 3});
  CudaBackend& b = *backend_;
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
  EXPECT_THROW(supernode_forward_cuda(nullptr, nullptr, as_const(t), work, -1, 1 << 20, work), InvalidArgument);
  EXPECT_THROW(supernode_backward_cuda(nullptr, nullptr, as_const(t), work, 1, 3, work), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
