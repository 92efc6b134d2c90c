// Turns CUDA runtime / cuBLAS / cuSPARSE / cuSOLVER status codes into hetsparse::CudaError.
// Used by the _cuda.cu kernels only: it pulls in the CUDA headers, which CPU-only code must not see.
// `what` names the failing call and its context, e.g. "cublasDgemm in gemm_cuda"; no __FILE__/__LINE__
// macro is used, so the call name is what makes the message findable.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <cusparse.h>

#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

[[noreturn]] inline void throw_cuda_error(const char* what, const char* status_name, int code) {
  throw CudaError(std::string(what) + " failed: " + status_name + " (status " + std::to_string(code) + ")");
}

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw_cuda_error(what, cudaGetErrorString(status), static_cast<int>(status));
  }
}

inline void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw_cuda_error(what, cublasGetStatusString(status), static_cast<int>(status));
  }
}

inline void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw_cuda_error(what, cusparseGetErrorString(status), static_cast<int>(status));
  }
}

// cuSOLVER has no status-to-string function; name the codes a dense factorization can return.
inline const char* cusolver_status_name(cusolverStatus_t status) {
  switch (status) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_ZERO_PIVOT: return "CUSOLVER_STATUS_ZERO_PIVOT";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: return "unlisted cuSOLVER status";
  }
}

inline void check_cusolver(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    throw_cuda_error(what, cusolver_status_name(status), static_cast<int>(status));
  }
}

}  // namespace hetsparse::kernels
