// cuSPARSE SpSV wrapper (see sptrsv_cusparse.hpp).
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <chrono>
#include <cstdint>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_cusparse.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

CusparseSpsv::CusparseSpsv(cudaStream_t stream, const TriangularDeviceView& t) : stream_(stream), n_(t.n) {
  if (t.n < 0 || (t.n > 0 && (t.rowptr == nullptr || t.colind == nullptr || t.values == nullptr))) {
    throw InvalidArgument("CusparseSpsv: the view needs n >= 0 and device rowptr, colind and values");
  }
  void* scratch = nullptr;
  try {
    // nnz is rowptr[n], which only the device holds.
    index_t nnz = 0;
    if (t.n > 0) {
      check_cuda(cudaMemcpyAsync(&nnz, t.rowptr + t.n, sizeof(index_t), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync (nnz) in CusparseSpsv");
      check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (nnz) in CusparseSpsv");
    }
    check_cusparse(cusparseCreate(&handle_), "cusparseCreate in CusparseSpsv");
    check_cusparse(cusparseSetStream(handle_, stream), "cusparseSetStream in CusparseSpsv");
    // cusparseSpMatSetAttribute wants a non-const descriptor; cuSPARSE never writes the matrix.
    check_cusparse(cusparseCreateCsr(&matrix_, t.n, t.n, nnz, const_cast<index_t*>(t.rowptr),
                                     const_cast<index_t*>(t.colind), const_cast<double*>(t.values),
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                   "cusparseCreateCsr in CusparseSpsv");
    cusparseFillMode_t fill = t.upper ? CUSPARSE_FILL_MODE_UPPER : CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;  // a unit diagonal is stored as 1.0
    check_cusparse(cusparseSpMatSetAttribute(matrix_, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)),
                   "cusparseSpMatSetAttribute (fill mode) in CusparseSpsv");
    check_cusparse(cusparseSpMatSetAttribute(matrix_, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)),
                   "cusparseSpMatSetAttribute (diag type) in CusparseSpsv");
    // Scratch vectors for the size and analysis calls (not every cuSPARSE release takes a null
    // vector there); solve() points the descriptors at b and x, and the scratch is freed below.
    check_cuda(cudaMalloc(&scratch, 2 * (static_cast<std::size_t>(t.n) + 1) * sizeof(double)),
               "cudaMalloc (scratch vectors) in CusparseSpsv");
    double* scratch_b = static_cast<double*>(scratch);
    double* scratch_x = scratch_b + t.n + 1;
    check_cusparse(cusparseCreateDnVec(&vec_b_, t.n, scratch_b, CUDA_R_64F), "cusparseCreateDnVec (b) in CusparseSpsv");
    check_cusparse(cusparseCreateDnVec(&vec_x_, t.n, scratch_x, CUDA_R_64F), "cusparseCreateDnVec (x) in CusparseSpsv");
    check_cusparse(cusparseSpSV_createDescr(&spsv_), "cusparseSpSV_createDescr in CusparseSpsv");
    const double one = 1.0;
    check_cusparse(cusparseSpSV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix_, vec_b_, vec_x_,
                                           CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_, &buffer_bytes_),
                   "cusparseSpSV_bufferSize in CusparseSpsv");
    check_cuda(cudaMalloc(&buffer_, buffer_bytes_ > 0 ? buffer_bytes_ : 1), "cudaMalloc (buffer) in CusparseSpsv");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (before analysis) in CusparseSpsv");
    const auto t0 = std::chrono::steady_clock::now();
    check_cusparse(cusparseSpSV_analysis(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix_, vec_b_, vec_x_,
                                         CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_, buffer_),
                   "cusparseSpSV_analysis in CusparseSpsv");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (analysis) in CusparseSpsv");
    analysis_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const cudaError_t freed = cudaFree(scratch);
    scratch = nullptr;
    check_cuda(freed, "cudaFree (scratch vectors) in CusparseSpsv");
  } catch (...) {
    cudaFree(scratch);
    release();
    throw;
  }
}

CusparseSpsv::~CusparseSpsv() { release(); }

void CusparseSpsv::release() noexcept {
  if (spsv_ != nullptr) cusparseSpSV_destroyDescr(spsv_);
  if (vec_b_ != nullptr) cusparseDestroyDnVec(vec_b_);
  if (vec_x_ != nullptr) cusparseDestroyDnVec(vec_x_);
  if (matrix_ != nullptr) cusparseDestroySpMat(matrix_);
  if (handle_ != nullptr) cusparseDestroy(handle_);
  if (buffer_ != nullptr) cudaFree(buffer_);
  spsv_ = nullptr;
  vec_b_ = vec_x_ = nullptr;
  matrix_ = nullptr;
  handle_ = nullptr;
  buffer_ = nullptr;
}

void CusparseSpsv::solve(const double* b, double* x) {
  if (n_ == 0) return;
  check_cusparse(cusparseDnVecSetValues(vec_b_, const_cast<double*>(b)), "cusparseDnVecSetValues (b) in CusparseSpsv");
  check_cusparse(cusparseDnVecSetValues(vec_x_, x), "cusparseDnVecSetValues (x) in CusparseSpsv");
  const double one = 1.0;
  check_cusparse(cusparseSpSV_solve(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix_, vec_b_, vec_x_,
                                    CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_),
                 "cusparseSpSV_solve in CusparseSpsv");
}

}  // namespace hetsparse::kernels
