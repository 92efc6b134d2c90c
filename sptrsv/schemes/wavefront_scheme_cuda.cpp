// "wavefront[:key=val,...]": kernels::WavefrontSolver, its rows packed by position once.
#include "kernels/sptrsv/sptrsv_wavefront.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

class WavefrontFamily final : public PreparedFamily {
 public:
  WavefrontFamily(cudaStream_t stream, const kernels::TriangularDeviceView& device, index_t longest_row,
                  const kernels::WavefrontOptions& options)
      : solver_(stream, device, longest_row, options) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace&) const override {
    solver_.solve(stream, b, x);
  }

 private:
  kernels::WavefrontSolver solver_;
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_wavefront(cudaStream_t stream, const kernels::TriangularDeviceView& device,
                                                  index_t longest_row, const kernels::WavefrontOptions& options) {
  return std::make_unique<WavefrontFamily>(stream, device, longest_row, options);
}

}  // namespace hetsparse::sptrsv
