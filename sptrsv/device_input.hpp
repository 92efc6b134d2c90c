// A triangle handed over in GPU memory, analysed there (kernels::DeviceAnalysis) for
// TriangularSolver::analyze_device: the normalised arrays, the level schedule and the segments stay
// on the device (the solver registers them with StarPU there); the features and the per-level
// arrays come back. No pass over the entries runs on the host. device_input_cuda.cpp does the work,
// device_input_none.cpp refuses (a build without CUDA).
#pragma once
#include <cstdint>
#include <memory>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "sparse/csr.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/features.hpp"

namespace hetsparse::sptrsv {

struct DeviceAnalysed {
  std::shared_ptr<const void> owner;   // keeps the device arrays alive (a kernels::DeviceAnalysis)
  int device = 0;                      // the CUDA device that holds them
  kernels::TriangularDeviceView view;  // device arrays; host_level_ptr / host_level_nnz live in owner
  std::int64_t nnz = 0;
  TriangularFeatures features;  // features.analysis_ms: the whole call, check included
};

// Either the analysis, or (the input is not a valid, normalised triangle) the input downloaded, for
// the host analysis to name the faulty entry or to normalise it.
struct DeviceInputResult {
  std::unique_ptr<DeviceAnalysed> analysed;
  Csr host;
};

// `t` in the memory of CUDA device `device`, only read during the call. InvalidArgument without CUDA
// in the build or with a bad device ordinal.
DeviceInputResult analyse_device_input(const kernels::DeviceCsrView& t, int device, bool unit_diagonal,
                                       const AnalysisOptions& options);

// A host CSR analysed on CUDA device `device` (-1: the current one; TriangularSolver::analyze with CUDA workers): `t`
// uploaded as it is, then analyse_device_input; no host pass over the entries but the copy. `analysed`
// is null (and nothing is thrown) when the GPU cannot take it as it is: not a valid, normalised
// triangle, or 2^31 entries or more; the host analysis then normalises it or names the faulty entry.
struct HostInputResult {
  std::unique_ptr<DeviceAnalysed> analysed;  // features.analysis_ms includes the upload
  double upload_seconds = 0;
};
HostInputResult analyse_host_input(const Csr& t, int device, Triangle tri, bool unit_diagonal,
                                   const AnalysisOptions& options);

// Whether the normalised matrix on the device has exactly `t`'s rows and columns (update_values after
// analyse_host_input); -1 when it does, else the first row that differs.
index_t first_pattern_difference(const DeviceAnalysed& a, const Csr& t);

// The analysed (normalised) matrix as a host CSR, for a host TriangularPattern when something needs
// one (a CPU level mode, a scheme prepared on the host, a search).
Csr download_normalised(const DeviceAnalysed& a);

}  // namespace hetsparse::sptrsv
