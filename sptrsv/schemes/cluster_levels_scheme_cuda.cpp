// "clusterlevels[:key=val,...]": kernels::ClusterLevelsSolver, its level plan and packed rows
// prepared once.
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

class ClusterLevelsFamily final : public PreparedFamily {
 public:
  ClusterLevelsFamily(cudaStream_t stream, const kernels::TriangularView& host,
                      const kernels::TriangularDeviceView& device, const kernels::ClusterLevelsOptions& options,
                      index_t longest_row)
      : solver_(stream, host, device, options, longest_row) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace&) const override {
    solver_.solve(stream, b, x);
  }

 private:
  kernels::ClusterLevelsSolver solver_;
};

}  // namespace

std::unique_ptr<PreparedFamily> prepare_cluster_levels(cudaStream_t stream, const kernels::TriangularView& host,
                                                       const kernels::TriangularDeviceView& device,
                                                       const kernels::ClusterLevelsOptions& options,
                                                       index_t longest_row) {
  return std::make_unique<ClusterLevelsFamily>(stream, host, device, options, longest_row);
}

}  // namespace hetsparse::sptrsv
