// An AG scheme planned for the current GPU and uploaded (CUDA builds only).
#include "sptrsv/ag/ag_plan.hpp"

namespace hetsparse::sptrsv::ag {

kernels::AgSolver prepare_ag(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
                             const AgScheme& scheme) {
  return kernels::AgSolver(stream, host, device, scheme, make_ag_plan(host, scheme, kernels::ag_machine(scheme)));
}

}  // namespace hetsparse::sptrsv::ag
