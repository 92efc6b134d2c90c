// dpotrf through cuSOLVER's dense API, asynchronous on the caller's stream.
#include "kernels/potrf/potrf.hpp"

#include <climits>
#include <cstddef>
#include <string>
#include <unordered_map>

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {
namespace {

// Binds the handle to a stream for one call and restores the caller's binding, since StarPU workers
// share their handles between tasks.
class CusolverStreamScope {
 public:
  CusolverStreamScope(cusolverDnHandle_t handle, cudaStream_t stream) : handle_(handle) {
    check_cusolver(cusolverDnGetStream(handle_, &saved_), "cusolverDnGetStream in potrf_cuda");
    check_cusolver(cusolverDnSetStream(handle_, stream), "cusolverDnSetStream in potrf_cuda");
  }
  // Rebinding cannot fail for a handle just used; a destructor must not throw.
  ~CusolverStreamScope() { cusolverDnSetStream(handle_, saved_); }
  CusolverStreamScope(const CusolverStreamScope&) = delete;
  CusolverStreamScope& operator=(const CusolverStreamScope&) = delete;

 private:
  cusolverDnHandle_t handle_;
  cudaStream_t saved_ = nullptr;
};

// cuSOLVER 13.0 reports a NaN pivot for uplo 'L' but lets it through with info = 0 for 'U'. A NaN
// pivot makes every later pivot NaN, so when info is 0 the first NaN on the diagonal is the failing
// column: report it as LAPACK does, for both triangles. One block; n is a tile size.
constexpr int kScanThreads = 256;

__global__ void __launch_bounds__(kScanThreads)
    report_nan_pivot(int n, const double* __restrict__ A, int lda, int* __restrict__ info) {
  __shared__ int first_nan;
  if (threadIdx.x == 0) {
    first_nan = INT_MAX;
  }
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < n; j += kScanThreads) {
    if (isnan(A[static_cast<std::size_t>(j) * (static_cast<std::size_t>(lda) + 1)])) {
      atomicMin(&first_nan, j);
      break;  // this thread's later columns cannot hold an earlier NaN
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && first_nan != INT_MAX && *info == 0) {
    *info = first_nan + 1;
  }
}

}  // namespace

int potrf_cuda_workspace_size(cusolverDnHandle_t handle, char uplo, int n, double* A, int lda) {
  constexpr const char* routine = "potrf_cuda_workspace_size";
  const cublasFillMode_t fill = cublas_fill_mode(uplo, routine);
  require_nonnegative(routine, "n", n);
  require_leading_dimension(routine, "lda", lda, n);
  // cusolverDnDpotrf_bufferSize took ~0.1 ms of host time per call on the H100 node (inferred from
  // the GPU subtree's host phases: 521 calls, ~55 ms), and the supernodal Cholesky asks once or twice
  // per panel: the answer depends only on the handle and the shape, so each thread keeps the last ones.
  struct Key {
    cusolverDnHandle_t handle;
    int fill, n, lda;
    bool operator==(const Key& o) const { return handle == o.handle && fill == o.fill && n == o.n && lda == o.lda; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.handle) ^ (std::size_t(k.n) * 0x9E3779B97F4A7C15ull) ^
             (std::size_t(k.lda) << 20) ^ std::size_t(k.fill);
    }
  };
  thread_local std::unordered_map<Key, int, KeyHash> known;
  const Key key{handle, static_cast<int>(fill), n, lda};
  if (const auto it = known.find(key); it != known.end()) return it->second;
  if (known.size() > 4096) known.clear();  // shapes repeat within a factorization; bound the memory
  int elems = 0;
  check_cusolver(cusolverDnDpotrf_bufferSize(handle, fill, n, A, lda, &elems),
                 "cusolverDnDpotrf_bufferSize in potrf_cuda_workspace_size");
  if (elems < 0 || elems > INT_MAX / static_cast<int>(sizeof(double))) {
    throw InvalidArgument("potrf_cuda_workspace_size: workspace of " + std::to_string(elems) +
                          " doubles does not fit an int byte count (n=" + std::to_string(n) + ")");
  }
  const int bytes = elems * static_cast<int>(sizeof(double));
  known.emplace(key, bytes);
  return bytes;
}

void potrf_cuda(cusolverDnHandle_t handle, cudaStream_t stream, char uplo, int n, double* A, int lda,
                double* workspace, int workspace_elems, int* dev_info) {
  constexpr const char* routine = "potrf_cuda";
  const cublasFillMode_t fill = cublas_fill_mode(uplo, routine);
  require_nonnegative(routine, "n", n);
  require_leading_dimension(routine, "lda", lda, n);
  CusolverStreamScope bound(handle, stream);
  check_cusolver(cusolverDnDpotrf(handle, fill, n, A, lda, workspace, workspace_elems, dev_info),
                 "cusolverDnDpotrf in potrf_cuda");
  if (n > 0) {
    report_nan_pivot<<<1, kScanThreads, 0, stream>>>(n, A, lda, dev_info);
    check_cuda(cudaGetLastError(), "report_nan_pivot launch in potrf_cuda");
  }
}

int potrf_cuda_info(cudaStream_t stream, const int* dev_info) {
  int info = 0;
  check_cuda(cudaMemcpyAsync(&info, dev_info, sizeof(int), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync of devInfo in potrf_cuda_info");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in potrf_cuda_info");
  if (info < 0) {
    throw InvalidArgument("potrf_cuda: cusolverDnDpotrf rejected argument " + std::to_string(-info));
  }
  return info;
}

}  // namespace hetsparse::kernels
