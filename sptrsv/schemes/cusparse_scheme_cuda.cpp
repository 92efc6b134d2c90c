// "cusparse": cuSPARSE SpSV, its analysis buffer prepared once. cuSPARSE binds its handle to the
// preparing stream, so a solve on another stream is refused rather than raced.
#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_cusparse.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

class CusparseFamily final : public PreparedFamily {
 public:
  CusparseFamily(cudaStream_t stream, const kernels::TriangularDeviceView& device) : spsv_(stream, device) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace&) const override {
    if (stream != spsv_.stream()) {
      throw InvalidArgument("PreparedScheme 'cusparse': solve on a stream other than the one it was prepared on");
    }
    if (b == x) throw InvalidArgument("PreparedScheme 'cusparse': b and x must be distinct arrays");
    spsv_.solve(b, x);
  }

 private:
  mutable kernels::CusparseSpsv spsv_;  // solve() is non-const in the kernel API only
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_cusparse(cudaStream_t stream, const kernels::TriangularDeviceView& device) {
  return std::make_unique<CusparseFamily>(stream, device);
}

}  // namespace hetsparse::sptrsv
