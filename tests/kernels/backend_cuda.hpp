// The CUDA back end of the shared kernel suites, and what the CUDA-only tests of test_kernels_cuda
// reach through it: its stream and library handles, and supernode back ends with other fused-kernel
// thresholds. Plain C++ (host API calls only), compiled by the host compiler.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <cusparse.h>

#include "kernels/spmv/spmv.hpp"
#include "kernels/supernode/supernode.hpp"
#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {

// The supernode kernels on the device. Work buffers and dev_info start poisoned (NaN, -1); guard
// entries after every panel and x must come back unchanged. fused_max_flops of the batches: the
// default, 0 (every update through cuBLAS) or infinite (every update through the fused kernel,
// single updates too).
class CudaSupernodeBackend : public SupernodeBackend {
 public:
  CudaSupernodeBackend(cudaStream_t stream, cublasHandle_t blas, cusolverDnHandle_t solver,
                       double fused_max_flops = kernels::kFusedUpdateMaxFlops)
      : stream_(stream), blas_(blas), solver_(solver), fused_max_flops_(fused_max_flops) {}

  void update(const HostPanel& d, kernels::UpdateRange r, HostPanel& t) override;
  void update_batch(const std::vector<const HostPanel*>& ds, const std::vector<kernels::UpdateRange>& rs,
                    HostPanel& t) override;
  int factor(HostPanel& p) override;
  void forward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override;
  void backward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override;
  void solve_moves(HostSolveMoves& m, bool gather) override;
  void permute(const std::vector<double>& in, int ldi, const std::vector<std::int32_t>& perm, int n, int nrhs,
               std::vector<double>& out, int ldo) override;
  void store(const std::vector<std::vector<double>>& xs, const std::vector<std::array<int, 2>>& cols,
             const std::vector<std::int32_t>& perm, int nrhs, std::vector<double>& out, int ldo) override;

 private:
  void sweep(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx, bool backward);

  cudaStream_t stream_;
  cublasHandle_t blas_;
  cusolverDnHandle_t solver_;
  double fused_max_flops_;
};

// A non-blocking stream with cuBLAS bound to it, and cuSPARSE and cuSOLVER handles left unbound (as
// StarPU's workers hand them out: a kernel binds them for its call and gives them back). The
// destructor checks that the stream finished without an error.
struct CudaHandles {
  CudaHandles();
  ~CudaHandles();
  CudaHandles(const CudaHandles&) = delete;
  CudaHandles& operator=(const CudaHandles&) = delete;

  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  cusparseHandle_t cusparse = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
};

class CudaKernelBackend : public KernelBackend {
 public:
  CudaKernelBackend() = default;
  ~CudaKernelBackend() override;

  void gemm(const GemmCase& c, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) override;
  void syrk(const SyrkCase& c, const DenseMatrix& A, DenseMatrix& C) override;
  void trsm(const TrsmCase& c, const DenseMatrix& A, DenseMatrix& B) override;
  int potrf(char uplo, DenseMatrix& A) override;
  void axpy(double alpha, const std::vector<double>& x, std::vector<double>& y) override;
  double dot(const std::vector<double>& x, const std::vector<double>& y) override;
  double nrm2(const std::vector<double>& x) override;
  std::vector<std::string> spmv_kernels() const override;
  void spmv(const std::string& kernel, const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
            const std::vector<double>& x, std::vector<double>& y, double alpha, double beta) override;
  void spmv_merge(std::vector<double>& y, double beta, const std::vector<std::vector<double>>& sources,
                  const std::vector<MergeRange>& ranges) override;
  SupernodeBackend& supernode() override { return supernode_; }

  const CudaHandles& handles() const { return h_; }
  // spmv_cusparse's scratch, reused by every call on this back end.
  const kernels::CusparseWorkspace& cusparse_workspace() const { return workspace_; }

 private:
  CudaHandles h_;
  kernels::CusparseWorkspace workspace_;
  CudaSupernodeBackend supernode_{h_.stream, h_.cublas, h_.cusolver};
};

// The CUDA-only tests: KernelTest's back end (so they skip the same way) with its stream and handles.
class CudaKernelTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (IsSkipped()) return;
    const CudaHandles& h = cuda().handles();
    stream_ = h.stream;
    cublas_ = h.cublas;
    cusparse_ = h.cusparse;
    cusolver_ = h.cusolver;
  }
  CudaKernelBackend& cuda() { return dynamic_cast<CudaKernelBackend&>(backend()); }

  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  cusparseHandle_t cusparse_ = nullptr;
  cusolverDnHandle_t cusolver_ = nullptr;
};

}  // namespace hetsparse::test
