// A plain variant (kernels::gpu_variants()): nothing to prepare, the workspace reset before each solve.
#include <string>
#include <utility>

#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

class VariantFamily final : public PreparedFamily {
 public:
  VariantFamily(const kernels::TriangularDeviceView& device, std::string variant)
      : device_(device), variant_(std::move(variant)) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const override {
    kernels::reset_solve_workspace(stream, ws);
    kernels::solve_cuda(variant_, stream, device_, b, x, ws);
  }

 private:
  kernels::TriangularDeviceView device_;
  std::string variant_;
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_variant(const kernels::TriangularDeviceView& device, const std::string& variant) {
  return std::make_unique<VariantFamily>(device, variant);
}

}  // namespace hetsparse::sptrsv
