// cuBLAS dgemm on random n x n matrices, median of 5 timed runs after a warm-up.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <random>
#include <vector>

#include "bench/dgemm_rate.hpp"
#include "kernels/common/cuda_check.hpp"

namespace hetsparse::bench {

DgemmRate measure_cublas_dgemm(int n) {
  DgemmRate r;
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    cudaGetLastError();
    r.reason = "no CUDA device";
    return r;
  }
  const std::size_t elems = std::size_t(n) * n;
  std::vector<double> h(elems);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : h) v = u(rng);
  double *a, *b, *c;
  kernels::check_cuda(cudaMalloc(&a, elems * sizeof(double)), "cudaMalloc");
  kernels::check_cuda(cudaMalloc(&b, elems * sizeof(double)), "cudaMalloc");
  kernels::check_cuda(cudaMalloc(&c, elems * sizeof(double)), "cudaMalloc");
  kernels::check_cuda(cudaMemcpy(a, h.data(), elems * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernels::check_cuda(cudaMemcpy(b, h.data(), elems * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
  cublasHandle_t handle;
  kernels::check_cublas(cublasCreate(&handle), "cublasCreate");
  const double one = 1.0, zero = 0.0;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int it = 0; it < 6; ++it) {
    cudaEventRecord(e0);
    kernels::check_cublas(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n),
                          "cublasDgemm");
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t = 0;
    cudaEventElapsedTime(&t, e0, e1);
    if (it > 0) ms.push_back(t);  // the first run is the warm-up
  }
  std::sort(ms.begin(), ms.end());
  r.available = true;
  r.tflops = 2.0 * double(n) * n * n / (ms[ms.size() / 2] * 1e-3) * 1e-12;
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return r;
}

}  // namespace hetsparse::bench
