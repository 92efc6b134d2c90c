// Level-1 kernels through cuBLAS, asynchronous on the handle's stream.
#include "kernels/vector/vector.hpp"

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels {
namespace {

// BLAS defines the empty dot product and norm as 0; write it ourselves rather than rely on cuBLAS
// storing a result when it has nothing to reduce.
void store_zero(cublasHandle_t handle, double* result_device, const char* what) {
  cudaStream_t stream = nullptr;
  check_cublas(cublasGetStream(handle, &stream), what);
  check_cuda(cudaMemsetAsync(result_device, 0, sizeof(double), stream), what);
}

}  // namespace

void axpy_cuda(cublasHandle_t handle, int n, double alpha, const double* x, double* y) {
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, "axpy_cuda");
  check_cublas(cublasDaxpy(handle, n, &alpha, x, 1, y, 1), "cublasDaxpy in axpy_cuda");
}

// Device pointer mode: with a host result cuBLAS would have to block until the reduction is done.
void dot_cuda(cublasHandle_t handle, int n, const double* x, const double* y, double* result_device) {
  if (n <= 0) {
    store_zero(handle, result_device, "zeroing the empty result in dot_cuda");
    return;
  }
  CublasPointerModeScope device_result(handle, CUBLAS_POINTER_MODE_DEVICE, "dot_cuda");
  check_cublas(cublasDdot(handle, n, x, 1, y, 1, result_device), "cublasDdot in dot_cuda");
}

void nrm2_cuda(cublasHandle_t handle, int n, const double* x, double* result_device) {
  if (n <= 0) {
    store_zero(handle, result_device, "zeroing the empty result in nrm2_cuda");
    return;
  }
  CublasPointerModeScope device_result(handle, CUBLAS_POINTER_MODE_DEVICE, "nrm2_cuda");
  check_cublas(cublasDnrm2(handle, n, x, 1, result_device), "cublasDnrm2 in nrm2_cuda");
}

}  // namespace hetsparse::kernels
