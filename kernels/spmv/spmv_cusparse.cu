// SpMV through cuSPARSE's generic API: the vendor baseline for spmv_cuda, and its alternative.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/common/cuda_check.hpp"
#include "kernels/spmv/spmv.hpp"

namespace hetsparse::kernels {
namespace {

constexpr std::size_t kAlignment = 256;  // cudaMallocAsync alignment; keeps cuSPARSE's buffer aligned

std::size_t align_up(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

__global__ void rebase_row_offsets(std::uint32_t count, const std::uint32_t* __restrict__ rowptr,
                                   std::uint32_t first_entry, std::uint32_t* __restrict__ rebased) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    rebased[i] = rowptr[i] - first_entry;
  }
}

void rebase_into(cudaStream_t stream, const CsrView& A, void* destination) {
  constexpr unsigned threads = 256;
  const std::uint64_t count = static_cast<std::uint64_t>(A.nrows) + 1;
  const auto blocks = static_cast<unsigned>((count + threads - 1) / threads);
  rebase_row_offsets<<<blocks, threads, 0, stream>>>(static_cast<std::uint32_t>(count), A.rowptr, A.first_entry,
                                                     static_cast<std::uint32_t*>(destination));
  check_cuda(cudaGetLastError(), "rebase_row_offsets launch in spmv_cusparse");
}

void grow(cudaStream_t stream, CusparseWorkspace& ws, std::size_t bytes) {
  release_cusparse_workspace(stream, ws);
  check_cuda(cudaMallocAsync(&ws.ptr, bytes, stream), "cudaMallocAsync of the workspace in spmv_cusparse");
  ws.bytes = bytes;
}

// Descriptors and handle settings are released on every exit path, exceptions included. Destroy and
// restore calls only free host objects or write handle fields; their status is ignored because
// destructors must not throw.
template <auto Destroy>
struct DestroyWith {
  template <typename Descriptor>
  void operator()(Descriptor* descriptor) const { Destroy(descriptor); }
};
template <typename Handle, auto Destroy>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, DestroyWith<Destroy>>;
using SpMat = Owned<cusparseConstSpMatDescr_t, cusparseDestroySpMat>;
using ConstDnVec = Owned<cusparseConstDnVecDescr_t, cusparseDestroyDnVec>;
using DnVec = Owned<cusparseDnVecDescr_t, cusparseDestroyDnVec>;

// Binds the handle to the call's stream with host scalars, and gives it back as the caller had it:
// StarPU workers share their handles between tasks.
class HandleScope {
 public:
  HandleScope(cusparseHandle_t handle, cudaStream_t stream) : handle_(handle) {
    check_cusparse(cusparseGetStream(handle_, &saved_stream_), "cusparseGetStream in spmv_cusparse");
    check_cusparse(cusparseGetPointerMode(handle_, &saved_mode_), "cusparseGetPointerMode in spmv_cusparse");
    check_cusparse(cusparseSetStream(handle_, stream), "cusparseSetStream in spmv_cusparse");
    check_cusparse(cusparseSetPointerMode(handle_, CUSPARSE_POINTER_MODE_HOST),
                   "cusparseSetPointerMode in spmv_cusparse");
  }
  ~HandleScope() {
    cusparseSetPointerMode(handle_, saved_mode_);
    cusparseSetStream(handle_, saved_stream_);
  }
  HandleScope(const HandleScope&) = delete;
  HandleScope& operator=(const HandleScope&) = delete;

 private:
  cusparseHandle_t handle_;
  cudaStream_t saved_stream_ = nullptr;
  cusparsePointerMode_t saved_mode_ = CUSPARSE_POINTER_MODE_HOST;
};

SpMat make_matrix(const CsrView& A, std::uint32_t ncols, const void* rowptr) {
  cusparseConstSpMatDescr_t descriptor = nullptr;
  check_cusparse(cusparseCreateConstCsr(&descriptor, A.nrows, ncols, A.nnz, rowptr, A.colind, A.values,
                                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                        CUDA_R_64F),
                 "cusparseCreateConstCsr in spmv_cusparse");
  return SpMat(descriptor);
}

}  // namespace

void release_cusparse_workspace(cudaStream_t stream, CusparseWorkspace& ws) {
  if (ws.ptr != nullptr) {
    check_cuda(cudaFreeAsync(ws.ptr, stream), "cudaFreeAsync of the workspace in release_cusparse_workspace");
  }
  ws = CusparseWorkspace{};
}

void spmv_cusparse(cusparseHandle_t handle, cudaStream_t stream, const CsrView& A, std::uint32_t ncols,
                   const double* x, double* y, double alpha, double beta, CusparseWorkspace& ws) {
  constexpr std::uint32_t int32_max = static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max());
  // cuSPARSE sees signed 32-bit indices and (after rebasing) offsets up to nnz.
  if (A.nnz > int32_max || ncols > int32_max || A.nrows > int32_max) {
    throw InvalidArgument("spmv_cusparse: matrix of " + std::to_string(A.nrows) + " rows, " +
                          std::to_string(ncols) + " columns and " + std::to_string(A.nnz) +
                          " entries exceeds cuSPARSE's 32-bit signed indices");
  }
  if (A.nrows == 0) {
    return;
  }
  HandleScope scope(handle, stream);

  // Workspace layout: [rebased row offsets, only when first_entry != 0 | cuSPARSE's buffer].
  const bool rebase = A.first_entry != 0;
  const std::size_t offsets_bytes =
      rebase ? align_up((static_cast<std::size_t>(A.nrows) + 1) * sizeof(std::uint32_t)) : 0;
  const auto offsets = [&]() -> const void* { return rebase ? ws.ptr : A.rowptr; };
  if (rebase) {
    if (ws.bytes < offsets_bytes) {
      grow(stream, ws, offsets_bytes);
    }
    rebase_into(stream, A, ws.ptr);
  }

  SpMat matrix = make_matrix(A, ncols, offsets());
  cusparseConstDnVecDescr_t x_raw = nullptr;
  check_cusparse(cusparseCreateConstDnVec(&x_raw, ncols, x, CUDA_R_64F),
                 "cusparseCreateConstDnVec in spmv_cusparse");
  ConstDnVec x_vec(x_raw);
  cusparseDnVecDescr_t y_raw = nullptr;
  check_cusparse(cusparseCreateDnVec(&y_raw, A.nrows, y, CUDA_R_64F), "cusparseCreateDnVec in spmv_cusparse");
  DnVec y_vec(y_raw);

  std::size_t buffer_bytes = 0;
  check_cusparse(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix.get(),
                                         x_vec.get(), &beta, y_vec.get(), CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1,
                                         &buffer_bytes),
                 "cusparseSpMV_bufferSize in spmv_cusparse");
  if (ws.bytes < offsets_bytes + buffer_bytes) {
    // Growing drops the rebased offsets with the old block: write them again and re-point the matrix.
    grow(stream, ws, offsets_bytes + buffer_bytes);
    if (rebase) {
      rebase_into(stream, A, ws.ptr);
      matrix = make_matrix(A, ncols, offsets());
    }
  }
  void* buffer = buffer_bytes == 0 ? nullptr : static_cast<char*>(ws.ptr) + offsets_bytes;
  check_cusparse(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix.get(), x_vec.get(), &beta,
                              y_vec.get(), CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, buffer),
                 "cusparseSpMV in spmv_cusparse");
}

}  // namespace hetsparse::kernels
