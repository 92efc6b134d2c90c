// Adapting BLAS-style arguments to cuBLAS: option characters to cuBLAS enums (same rules as
// blas.hpp: either case, 'C' means transpose for real data, anything else throws InvalidArgument),
// and a scope that pins the handle's pointer mode and restores the caller's on exit.
// CUDA-only: included by _cuda.cu files.
#pragma once
#include <cublas_v2.h>

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

[[noreturn]] inline void throw_bad_cublas_option(const char* routine, const char* option, char value) {
  throw InvalidArgument(std::string(routine) + ": invalid " + option + " '" + std::string(1, value) + "'");
}

inline cublasOperation_t cublas_operation(char trans, const char* routine) {
  switch (trans) {
    case 'N': case 'n': return CUBLAS_OP_N;
    case 'T': case 't': case 'C': case 'c': return CUBLAS_OP_T;
    default: throw_bad_cublas_option(routine, "trans", trans);
  }
}

inline cublasFillMode_t cublas_fill_mode(char uplo, const char* routine) {
  switch (uplo) {
    case 'L': case 'l': return CUBLAS_FILL_MODE_LOWER;
    case 'U': case 'u': return CUBLAS_FILL_MODE_UPPER;
    default: throw_bad_cublas_option(routine, "uplo", uplo);
  }
}

inline cublasSideMode_t cublas_side_mode(char side, const char* routine) {
  switch (side) {
    case 'L': case 'l': return CUBLAS_SIDE_LEFT;
    case 'R': case 'r': return CUBLAS_SIDE_RIGHT;
    default: throw_bad_cublas_option(routine, "side", side);
  }
}

inline cublasDiagType_t cublas_diag_type(char diag, const char* routine) {
  switch (diag) {
    case 'N': case 'n': return CUBLAS_DIAG_NON_UNIT;
    case 'U': case 'u': return CUBLAS_DIAG_UNIT;
    default: throw_bad_cublas_option(routine, "diag", diag);
  }
}

// Handles are shared by every task of a StarPU worker, so a kernel that needs a pointer mode sets it
// for its own calls and gives the handle back as it found it.
class CublasPointerModeScope {
 public:
  CublasPointerModeScope(cublasHandle_t handle, cublasPointerMode_t mode, const char* routine)
      : handle_(handle) {
    cublasStatus_t status = cublasGetPointerMode(handle_, &saved_);
    if (status == CUBLAS_STATUS_SUCCESS) status = cublasSetPointerMode(handle_, mode);
    if (status != CUBLAS_STATUS_SUCCESS) {
      check_cublas(status, (std::string("cublasSetPointerMode in ") + routine).c_str());
    }
  }
  // Restoring only writes a field of the handle; it cannot fail for a handle that was just used,
  // and a destructor must not throw, so the status is not checked.
  ~CublasPointerModeScope() { cublasSetPointerMode(handle_, saved_); }
  CublasPointerModeScope(const CublasPointerModeScope&) = delete;
  CublasPointerModeScope& operator=(const CublasPointerModeScope&) = delete;

 private:
  cublasHandle_t handle_;
  cublasPointerMode_t saved_ = CUBLAS_POINTER_MODE_HOST;
};

}  // namespace hetsparse::kernels
