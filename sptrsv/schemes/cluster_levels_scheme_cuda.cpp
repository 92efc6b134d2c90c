// "clusterlevels[:key=val,...]": kernels::ClusterLevelsSolver, its level plan and packed rows
// prepared once.
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {

std::unique_ptr<PreparedFamily> prepare_cluster_levels(cudaStream_t stream, const kernels::TriangularView& host,
                                                       const kernels::TriangularDeviceView& device,
                                                       const kernels::ClusterLevelsOptions& options,
                                                       index_t longest_row) {
  return std::make_unique<SolverFamily<kernels::ClusterLevelsSolver>>(stream, host, device, options, longest_row);
}

}  // namespace hetsparse::sptrsv
