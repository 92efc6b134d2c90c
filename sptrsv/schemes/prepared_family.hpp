// One scheme family's prepared state on the GPU, behind one interface: PreparedScheme holds one of
// these, made by prepare_family from the spec, instead of a switch over the kinds. One file per
// family (sptrsv/schemes/*_scheme_cuda.cpp); internal to the CUDA build of sptrsv/.
#pragma once
#include <memory>
#include <utility>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sptrsv/powered_triangle.hpp"
#include "sptrsv/preparation_steps.hpp"
#include "sptrsv/scheme_spec.hpp"

namespace hetsparse::sptrsv {

class PreparedFamily {
 public:
  virtual ~PreparedFamily() = default;
  // Enqueues T x = b on `stream` (b, x in device memory; ws as kernels::make_solve_workspace for n).
  virtual void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const = 0;
  // The preparation's parts where the family times them (PreparedScheme::steps).
  virtual void add_steps(PreparationSteps&) const {}
};

// A family that is one kernel solver needing no workspace: Solver(args...) prepares it and
// Solver::solve(stream, b, x) enqueues a solve (clusterlevels, wavefront).
template <class Solver>
class SolverFamily final : public PreparedFamily {
 public:
  template <class... Args>
  explicit SolverFamily(Args&&... args) : solver_(std::forward<Args>(args)...) {}
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace&) const override {
    solver_.solve(stream, b, x);
  }

 private:
  Solver solver_;
};

// Each prepares on `stream` and waits for it; host and device outlive the result.
std::unique_ptr<PreparedFamily> prepare_variant(const kernels::TriangularDeviceView& device, const std::string& variant);
std::unique_ptr<PreparedFamily> prepare_cusparse(cudaStream_t stream, const kernels::TriangularDeviceView& device);
// longest_row: as kernels::ClusterLevelsSolver (-1: counted from host's rows).
std::unique_ptr<PreparedFamily> prepare_cluster_levels(cudaStream_t stream, const kernels::TriangularView& host,
                                                       const kernels::TriangularDeviceView& device,
                                                       const kernels::ClusterLevelsOptions& options,
                                                       index_t longest_row = -1);
// longest_row: the most off-diagonals of a row (kernels::WavefrontSolver refuses a longer row; any length).
std::unique_ptr<PreparedFamily> prepare_wavefront(cudaStream_t stream, const kernels::TriangularDeviceView& device,
                                                  index_t longest_row, const kernels::WavefrontOptions& options);
std::unique_ptr<PreparedFamily> prepare_ag_family(cudaStream_t stream, const kernels::TriangularView& host,
                                           const kernels::TriangularDeviceView& device, const kernels::AgScheme& scheme);
// powK:clusterlevels is transformed on the GPU from `device` (prepares_powered_on_device), unless
// I - M^K has rows too long for the device pack; every other base from the host transform: the one
// of `powered` when given (built once per power for the matrix), else built here.
bool prepares_powered_on_device(const SchemeSpec& spec);
// powK:clusterlevels from the device arrays alone (nnz: the matrix's stored entries); null when
// I - M^K has rows too long for the device pack (the host transform is needed then).
std::unique_ptr<PreparedFamily> prepare_powered_on_device(cudaStream_t stream, const kernels::TriangularDeviceView& device,
                                                          std::int64_t nnz, const SchemeSpec& spec);
std::unique_ptr<PreparedFamily> prepare_powered(cudaStream_t stream, const kernels::TriangularView& host,
                                                const kernels::TriangularDeviceView& device, const SchemeSpec& spec,
                                                PoweredCache* powered);

// The family of spec.kind, prepared.
std::unique_ptr<PreparedFamily> prepare_family(cudaStream_t stream, const kernels::TriangularView& host,
                                               const kernels::TriangularDeviceView& device, const SchemeSpec& spec,
                                               PoweredCache* powered);

}  // namespace hetsparse::sptrsv
