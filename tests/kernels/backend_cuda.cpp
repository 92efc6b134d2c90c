// The CUDA back end of the shared kernel suites: operands uploaded, the kernel run on the back end's
// stream and handles, results downloaded.
#include "tests/kernels/backend_cuda.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/spmv/spmv_merge.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"
#include "kernels/vector/vector.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {

using namespace hetsparse::kernels;

namespace {

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

// A CSR matrix on the device, cut into StarPU-style row blocks exactly as CsrMatrix::rows_view does.
class DeviceCsr {
 public:
  DeviceCsr(cudaStream_t stream, const CsrMatrix& A)
      : host_(A), rowptr_(stream, A.rowptr), colind_(stream, A.colind), values_(stream, A.values) {}
  CsrView rows_view(std::uint32_t first, std::uint32_t last) const {
    const std::uint32_t first_entry = host_.rowptr[first];
    return {last - first, host_.rowptr[last] - first_entry, rowptr_.get() + first, colind_.get() + first_entry,
            values_.get() + first_entry, first_entry};
  }

 private:
  const CsrMatrix& host_;
  DeviceArray<std::uint32_t> rowptr_, colind_;
  DeviceArray<double> values_;
};

// A kernel that writes one double to device memory, run on a poisoned result.
double run_scalar(cudaStream_t stream, const std::function<void(double* result)>& kernel) {
  DeviceArray<double> result(1);
  result.poison(stream);
  kernel(result.get());
  return result.download(stream)[0];
}

}  // namespace

void CudaSupernodeBackend::update(const HostPanel& d, UpdateRange r, HostPanel& t) {
  if (std::isinf(fused_max_flops_)) return update_batch({&d}, {r}, t);
  const DevicePanel dd(stream_, d), dt(stream_, t);
  PoisonedWork work(stream_, supernode_update_work_doubles(d.cref(), r));
  supernode_update_cuda(blas_, stream_, dd.cref(d), r, dt.ref(t), work.get());
  dt.values.download(stream_, t.values);
}

void CudaSupernodeBackend::update_batch(const std::vector<const HostPanel*>& ds, const std::vector<UpdateRange>& rs,
                                        HostPanel& t) {
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

int CudaSupernodeBackend::factor(HostPanel& p) {
  const DevicePanel dp(stream_, p);
  const std::size_t bytes = supernode_factor_cuda_work_bytes(solver_, dp.ref(p));
  PoisonedWork work(stream_, bytes / sizeof(double));
  DeviceArray<int> info(1);
  info.poison(stream_);
  supernode_factor_cuda(solver_, blas_, stream_, dp.ref(p), work.get(), bytes, info.get());
  dp.values.download(stream_, p.values);
  return info.download(stream_)[0];
}

void CudaSupernodeBackend::forward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) {
  sweep(p, x, nrhs, ldx, false);
}

void CudaSupernodeBackend::backward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) {
  sweep(p, x, nrhs, ldx, true);
}

// The panel solve on x's own rows (a device copy of them) and the rows below moved against all of x.
void CudaSupernodeBackend::sweep(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx, bool backward) {
  const DevicePanel dp(stream_, p);
  const GuardedArray dx(stream_, x);
  const int m = p.nrows() - p.ncols;
  PoisonedWork below(stream_, static_cast<std::size_t>(std::max(1, m)) * nrhs);
  const SolveMove move{below.get(), dp.rows.get() + p.ncols, dx.get(), 0, m, std::max(1, m), 0, ldx, ldx};
  double* own = dx.get() + p.first_col;
  if (backward) {
    supernode_solve_gather_cuda(stream_, &move, 1, nrhs);
    supernode_panel_backward_cuda(blas_, stream_, dp.cref(p), own, ldx, below.get(), std::max(1, m), nrhs);
  } else {
    supernode_panel_forward_cuda(blas_, stream_, dp.cref(p), own, ldx, below.get(), std::max(1, m), nrhs);
    supernode_solve_subtract_cuda(stream_, &move, 1, nrhs);
  }
  dx.download(stream_, x);
}

void CudaSupernodeBackend::solve_moves(HostSolveMoves& m, bool gather) {
  const GuardedArray compact(stream_, m.compact), block(stream_, m.block);
  const DeviceArray<std::int32_t> rows(stream_, m.rows);
  std::vector<SolveMove> moves;
  for (const auto& r : m.ranges)
    moves.push_back({compact.get(), rows.get(), block.get(), r[0], r[1], m.ldc, m.c0, m.ldb, m.block_rows});
  const int count = static_cast<int>(moves.size());
  if (gather) {
    supernode_solve_gather_cuda(stream_, moves.data(), count, m.nrhs);
  } else {
    supernode_solve_subtract_cuda(stream_, moves.data(), count, m.nrhs);
  }
  compact.download(stream_, m.compact);
  block.download(stream_, m.block);
}

void CudaSupernodeBackend::permute(const std::vector<double>& in, int ldi, const std::vector<std::int32_t>& perm,
                                   int n, int nrhs, std::vector<double>& out, int ldo) {
  const GuardedArray din(stream_, in), dout(stream_, out);
  const DeviceArray<std::int32_t> dperm(stream_, perm.empty() ? std::vector<std::int32_t>{0} : perm);
  supernode_solve_permute_cuda(stream_, din.get(), ldi, perm.empty() ? nullptr : dperm.get(), n, nrhs, dout.get(), ldo);
  dout.download(stream_, out);
}

void CudaSupernodeBackend::store(const std::vector<std::vector<double>>& xs, const std::vector<std::array<int, 2>>& cols,
                                 const std::vector<std::int32_t>& perm, int nrhs, std::vector<double>& out, int ldo) {
  std::vector<std::unique_ptr<GuardedArray>> device;
  std::vector<SolveBlock> blocks;
  for (std::size_t b = 0; b < xs.size(); ++b) {
    device.push_back(std::make_unique<GuardedArray>(stream_, xs[b]));
    blocks.push_back({device.back()->get(), cols[b][0], cols[b][1]});
  }
  const DeviceArray<std::int32_t> dperm(stream_, perm.empty() ? std::vector<std::int32_t>{0} : perm);
  const GuardedArray dout(stream_, out);
  supernode_solve_store_cuda(stream_, blocks.data(), static_cast<int>(blocks.size()), perm.empty() ? nullptr : dperm.get(),
                             nrhs, dout.get(), ldo);
  dout.download(stream_, out);
}

CudaHandles::CudaHandles() {
  check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check_cublas(cublasCreate(&cublas), "cublasCreate");
  check_cublas(cublasSetStream(cublas, stream), "cublasSetStream");
  check_cusparse(cusparseCreate(&cusparse), "cusparseCreate");
  check_cusolver(cusolverDnCreate(&cusolver), "cusolverDnCreate");
}

CudaHandles::~CudaHandles() {
  if (stream != nullptr) {
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  }
  if (cusolver != nullptr) cusolverDnDestroy(cusolver);
  if (cusparse != nullptr) cusparseDestroy(cusparse);
  if (cublas != nullptr) cublasDestroy(cublas);
  if (stream != nullptr) cudaStreamDestroy(stream);
}

CudaKernelBackend::~CudaKernelBackend() { release_cusparse_workspace(h_.stream, workspace_); }

void CudaKernelBackend::gemm(const GemmCase& g, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) {
  DeviceArray<double> a(h_.stream, A.data), b(h_.stream, B.data), out(h_.stream, C.data);
  gemm_cuda(h_.cublas, g.transa, g.transb, g.m, g.n, g.k, g.alpha, a.get(), A.ld, b.get(), B.ld, g.beta, out.get(),
            C.ld);
  C.data = out.download(h_.stream);
}

void CudaKernelBackend::syrk(const SyrkCase& s, const DenseMatrix& A, DenseMatrix& C) {
  DeviceArray<double> a(h_.stream, A.data), out(h_.stream, C.data);
  syrk_cuda(h_.cublas, s.uplo, s.trans, s.n, s.k, s.alpha, a.get(), A.ld, s.beta, out.get(), C.ld);
  C.data = out.download(h_.stream);
}

void CudaKernelBackend::trsm(const TrsmCase& t, const DenseMatrix& A, DenseMatrix& B) {
  DeviceArray<double> a(h_.stream, A.data), b(h_.stream, B.data);
  trsm_cuda(h_.cublas, t.side, t.uplo, t.transa, t.diag, t.m, t.n, t.alpha, a.get(), A.ld, b.get(), B.ld);
  B.data = b.download(h_.stream);
}

int CudaKernelBackend::potrf(char uplo, DenseMatrix& A) {
  DeviceArray<double> a(h_.stream, A.data);
  const int bytes = potrf_cuda_workspace_size(h_.cusolver, uplo, A.rows, a.get(), A.ld);
  const int elems = bytes / static_cast<int>(sizeof(double));
  DeviceArray<double> workspace(static_cast<std::size_t>(elems));
  DeviceArray<int> info(1);
  info.poison(h_.stream);
  potrf_cuda(h_.cusolver, h_.stream, uplo, A.rows, a.get(), A.ld, workspace.get(), elems, info.get());
  const int result = potrf_cuda_info(h_.stream, info.get());
  A.data = a.download(h_.stream);
  return result;
}

void CudaKernelBackend::axpy(double alpha, const std::vector<double>& x, std::vector<double>& y) {
  DeviceArray<double> dx(h_.stream, x), dy(h_.stream, y);
  axpy_cuda(h_.cublas, static_cast<int>(x.size()), alpha, dx.get(), dy.get());
  y = dy.download(h_.stream);
}

double CudaKernelBackend::dot(const std::vector<double>& x, const std::vector<double>& y) {
  DeviceArray<double> dx(h_.stream, x), dy(h_.stream, y);
  return run_scalar(h_.stream, [&](double* result) {
    dot_cuda(h_.cublas, static_cast<int>(x.size()), dx.get(), dy.get(), result);
  });
}

double CudaKernelBackend::nrm2(const std::vector<double>& x) {
  DeviceArray<double> dx(h_.stream, x);
  return run_scalar(h_.stream,
                    [&](double* result) { nrm2_cuda(h_.cublas, static_cast<int>(x.size()), dx.get(), result); });
}

std::vector<std::string> CudaKernelBackend::spmv_kernels() const {
  return {"spmv_cuda", "spmv_cusparse", "spmv_tiled", "spmv_tiled_small", "spmv_tiled_balanced"};
}

void CudaKernelBackend::spmv(const std::string& kernel, const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                             const std::vector<double>& x, std::vector<double>& y, double alpha, double beta) {
  const DeviceCsr device_A(h_.stream, A);
  DeviceArray<double> dx(h_.stream, x), dy(h_.stream, y);
  if (beta == 0.0) {
    dy.poison(h_.stream);  // y must be written without being read
  }
  const CsrView view = device_A.rows_view(first, last);
  if (kernel == "spmv_cuda") {
    spmv_cuda(h_.stream, view, dx.get(), dy.get() + first, alpha, beta);
  } else if (kernel.rfind("spmv_tiled", 0) == 0) {
    // The plan from the host offsets, its words on the device; the workspace starts poisoned.
    const TilePlan plan(A.rowptr.data() + first, last - first, A.rowptr[first], tile_options(kernel));
    const DeviceArray<std::uint32_t> words(h_.stream, plan.words());
    PoisonedWork workspace(h_.stream, plan.workspace_bytes() / sizeof(double) + 1);
    spmv_tiled_cuda(h_.stream, plan.view_at(words.get()), view, dx.get(), dy.get() + first, alpha, beta,
                    workspace.get());
  } else {
    ASSERT_EQ(kernel, "spmv_cusparse");
    spmv_cusparse(h_.cusparse, h_.stream, view, A.ncols, dx.get(), dy.get() + first, alpha, beta, workspace_);
  }
  y = dy.download(h_.stream);
}

void CudaKernelBackend::spmv_merge(std::vector<double>& y, double beta, const std::vector<std::vector<double>>& sources,
                                   const std::vector<MergeRange>& ranges) {
  GuardedArray dy(h_.stream, y);
  std::vector<std::unique_ptr<DeviceArray<double>>> device_sources;
  std::vector<MergeSource> s;
  for (std::size_t j = 0; j < sources.size(); ++j) {
    device_sources.push_back(std::make_unique<DeviceArray<double>>(h_.stream, sources[j]));
    s.push_back({device_sources.back()->get(), ranges[j].src, ranges[j].dst, ranges[j].count});
  }
  spmv_merge_cuda(h_.stream, dy.get(), static_cast<std::uint32_t>(y.size()), beta, s.data(),
                  static_cast<std::uint32_t>(s.size()));
  dy.download(h_.stream, y);
}

std::unique_ptr<KernelBackend> make_kernel_backend(std::string& why_not) {
  if (!cuda_device_available()) {
    why_not = "no CUDA device";
    return nullptr;
  }
  return std::make_unique<CudaKernelBackend>();
}

}  // namespace hetsparse::test
