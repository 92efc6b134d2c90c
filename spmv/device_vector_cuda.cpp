#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "spmv/device_vector.hpp"

namespace hetsparse {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string(what) + " failed: " + cudaGetErrorString(e));
}

// Makes `device` current for a scope and gives the previous one back.
struct OnDevice {
  explicit OnDevice(int device) {
    check(cudaGetDevice(&previous), "cudaGetDevice in DeviceVector");
    check(cudaSetDevice(device), "cudaSetDevice in DeviceVector");
  }
  ~OnDevice() { cudaSetDevice(previous); }
  int previous = 0;
};

}  // namespace

DeviceVector::DeviceVector(int cuda_device, std::size_t n) : device_(cuda_device), n_(n) {
  OnDevice on(device_);
  check(cudaMalloc(reinterpret_cast<void**>(&ptr_), std::max<std::size_t>(n_, 1) * sizeof(double)),
        "cudaMalloc in DeviceVector");
}

DeviceVector::~DeviceVector() {
  OnDevice on(device_);
  cudaFree(ptr_);
}

void DeviceVector::upload(const std::vector<double>& host) {
  if (host.size() != n_) throw InvalidArgument("DeviceVector::upload: size mismatch");
  OnDevice on(device_);
  check(cudaMemcpy(ptr_, host.data(), n_ * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy in DeviceVector");
}

std::vector<double> DeviceVector::download() const {
  std::vector<double> host(n_);
  OnDevice on(device_);
  check(cudaMemcpy(host.data(), ptr_, n_ * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy in DeviceVector");
  return host;
}

void DeviceVector::fill_nan() {
  OnDevice on(device_);
  check(cudaMemset(ptr_, 0xFF, n_ * sizeof(double)), "cudaMemset in DeviceVector");
}

}  // namespace hetsparse
