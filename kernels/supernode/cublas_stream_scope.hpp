// Binds a cuBLAS handle to a stream for one kernel call and restores the caller's binding on exit:
// StarPU workers share their handles between tasks, and the supernode kernels take their stream as
// an argument. CUDA-only: included by the supernode _cuda.cu files.
#pragma once
#include <cublas_v2.h>

#include <string>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels::supernode_detail {

class CublasStreamScope {
 public:
  CublasStreamScope(cublasHandle_t handle, cudaStream_t stream, const char* routine) : handle_(handle) {
    check_cublas(cublasGetStream(handle_, &saved_), (std::string("cublasGetStream in ") + routine).c_str());
    check_cublas(cublasSetStream(handle_, stream), (std::string("cublasSetStream in ") + routine).c_str());
  }
  // Rebinding cannot fail for a handle just used; a destructor must not throw.
  ~CublasStreamScope() { cublasSetStream(handle_, saved_); }
  CublasStreamScope(const CublasStreamScope&) = delete;
  CublasStreamScope& operator=(const CublasStreamScope&) = delete;

 private:
  cublasHandle_t handle_;
  cudaStream_t saved_ = nullptr;
};

}  // namespace hetsparse::kernels::supernode_detail
