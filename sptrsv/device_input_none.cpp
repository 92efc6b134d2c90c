// Without CUDA in the build there is no GPU input to analyse (see device_input.hpp).
#include "hetsparse/error.hpp"
#include "sptrsv/device_input.hpp"

namespace hetsparse::sptrsv {

DeviceInputResult analyse_device_input(const kernels::DeviceCsrView&, int, bool, const AnalysisOptions&) {
  throw InvalidArgument("TriangularSolver::analyze_device: this build has no CUDA");
}

HostInputResult analyse_host_input(const Csr&, int, Triangle, bool, const AnalysisOptions&) {
  throw InvalidArgument("TriangularSolver::analyze on a GPU: this build has no CUDA");
}

index_t first_pattern_difference(const DeviceAnalysed&, const Csr&) {
  throw InvalidArgument("TriangularSolver::update_values on a GPU: this build has no CUDA");
}

Csr download_normalised(const DeviceAnalysed&) {
  throw InvalidArgument("TriangularSolver::analyze_device: this build has no CUDA");
}

}  // namespace hetsparse::sptrsv
