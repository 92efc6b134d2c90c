// CPU-only build: there is no GPU memory to hold a vector.
#include "hetsparse/error.hpp"
#include "spmv/device_vector.hpp"

namespace hetsparse {

DeviceVector::DeviceVector(int cuda_device, std::size_t n) : device_(cuda_device), n_(n) {
  throw InvalidArgument("DeviceVector: hetsparse was built without CUDA");
}
DeviceVector::~DeviceVector() = default;
void DeviceVector::upload(const std::vector<double>&) {}
std::vector<double> DeviceVector::download() const { return {}; }
void DeviceVector::fill_nan() {}

}  // namespace hetsparse
