// cuSPARSE's SpSV (the anchor every hetsparse SpTRSV variant is measured against) on the same
// normalised device CSR the hetsparse variants take (kernels::TriangularDeviceView: lower rows end
// with their diagonal, upper rows start with it, so every row is sorted by column as cuSPARSE
// wants; a unit diagonal is stored as 1.0, so the descriptor always says non-unit). Built only with
// CUDA (sptrsv_cusparse_cuda.cu); the CUDA types are forward-declared so plain C++ can include this.
#pragma once
#include <cstddef>

#include "kernels/sptrsv/sptrsv.hpp"

// Same declarations as cusparse.h.
typedef struct cusparseContext* cusparseHandle_t;
typedef struct cusparseSpMatDescr* cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr* cusparseDnVecDescr_t;
typedef struct cusparseSpSVDescr* cusparseSpSVDescr_t;

namespace hetsparse::kernels {

// One matrix analysed once by cusparseSpSV_analysis (CUSPARSE_SPSV_ALG_DEFAULT, non-transposed,
// fill mode from t.upper, non-unit diagonal), then solved any number of times. Owns its cuSPARSE
// handle (bound to `stream`), descriptors and analysis buffer; the matrix arrays stay the caller's
// and must outlive this object. Not copyable. Errors: CudaError (from the failing call's status).
class CusparseSpsv {
 public:
  // Creates the descriptors, sizes and allocates the buffer, then runs the analysis on `stream` and
  // waits for it; analysis_ms() is the wall time of the analysis call plus that wait (cuSPARSE does
  // part of the analysis on the host, so device events alone would undercount it).
  CusparseSpsv(cudaStream_t stream, const TriangularDeviceView& t);
  ~CusparseSpsv();
  CusparseSpsv(const CusparseSpsv&) = delete;
  CusparseSpsv& operator=(const CusparseSpsv&) = delete;

  // T x = b with b and x in device memory (t.n entries each, distinct arrays); enqueued on the
  // stream given to the constructor, does not wait for it.
  void solve(const double* b, double* x);

  double analysis_ms() const { return analysis_ms_; }
  std::size_t buffer_bytes() const { return buffer_bytes_; }
  index_t rows() const { return n_; }
  cudaStream_t stream() const { return stream_; }

 private:
  void release() noexcept;

  cudaStream_t stream_ = nullptr;
  index_t n_ = 0;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  cusparseDnVecDescr_t vec_b_ = nullptr;
  cusparseDnVecDescr_t vec_x_ = nullptr;
  cusparseSpSVDescr_t spsv_ = nullptr;
  void* buffer_ = nullptr;
  std::size_t buffer_bytes_ = 0;
  double analysis_ms_ = 0.0;
};

}  // namespace hetsparse::kernels
