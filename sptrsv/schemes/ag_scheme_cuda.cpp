// "ag" / "ag:key=val,...": an AG-SpTRSV code variant, its host plan (sptrsv/ag) built and uploaded once.
#include <utility>

#include "sptrsv/ag/ag_plan.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

class AgFamily final : public PreparedFamily {
 public:
  explicit AgFamily(kernels::AgSolver solver) : solver_(std::move(solver)) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const override {
    solver_.solve(stream, b, x, ws);
  }

 private:
  kernels::AgSolver solver_;
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_ag_family(cudaStream_t stream, const kernels::TriangularView& host,
                                           const kernels::TriangularDeviceView& device, const kernels::AgScheme& scheme) {
  return std::make_unique<AgFamily>(ag::prepare_ag(stream, host, device, scheme));
}

}  // namespace hetsparse::sptrsv
