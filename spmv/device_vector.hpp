// A vector of doubles in GPU memory, for products on device-resident x and y (PartitionedSpmv's
// VectorRef with cuda_device). Without CUDA every operation throws InvalidArgument.
#pragma once
#include <cstddef>
#include <vector>

namespace hetsparse {

class DeviceVector {
 public:
  DeviceVector(int cuda_device, std::size_t n);
  ~DeviceVector();
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;

  double* data() const { return ptr_; }
  std::size_t size() const { return n_; }
  int device() const { return device_; }
  void upload(const std::vector<double>& host);  // host.size() == size()
  std::vector<double> download() const;
  void fill_nan();  // every byte 0xFF: a NaN no product may leave behind

 private:
  int device_;
  std::size_t n_;
  double* ptr_ = nullptr;
};

}  // namespace hetsparse
