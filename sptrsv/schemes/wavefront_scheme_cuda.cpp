// "wavefront[:key=val,...]": kernels::WavefrontSolver, its rows packed by position once.
#include "kernels/sptrsv/sptrsv_wavefront.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {

std::unique_ptr<PreparedFamily> prepare_wavefront(cudaStream_t stream, const kernels::TriangularDeviceView& device,
                                                  index_t longest_row, const kernels::WavefrontOptions& options) {
  return std::make_unique<SolverFamily<kernels::WavefrontSolver>>(stream, device, longest_row, options);
}

}  // namespace hetsparse::sptrsv
