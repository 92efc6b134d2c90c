// Direct GPU timing of the SpTRSV variants and cuSPARSE SpSV on device-resident data (no StarPU):
// CUDA events around each solve, median of `runs` after `warmups`, x NaN-poisoned before each
// variant's set and checked against the reference afterwards. sptrsv_timing_cuda.cu does the work,
// sptrsv_timing_none.cpp answers for CPU-only builds.
#pragma once
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv.hpp"

namespace hetsparse::bench {

struct SptrsvSolveTiming {
  std::string name;         // a kernels::gpu_variants() name, or "cusparse"
  std::string status;       // ok, wrong (relative error above the tolerance), error, unavailable
  std::string error;        // the exception text for status error, the reason for unavailable
  double median_ms = 0, min_ms = 0;
  double relative_error = 0;  // ||x - expected||_inf / ||expected||_inf (infinite for a NaN)
  int runs = 0;
};

struct SptrsvGpuTiming {
  bool available = false;
  std::string reason;  // why not, when !available
  std::string device;
  std::vector<SptrsvSolveTiming> solves;  // the requested variants in order, then cusparse if asked
  double cusparse_analysis_ms = 0;         // wall time of cusparseSpSV_analysis (0 when not run)
};

struct SptrsvTimingOptions {
  std::vector<std::string> variants;  // empty: every kernels::gpu_variants() entry
  bool cusparse = true;
  int warmups = 3;
  int runs = 20;
  double tolerance = 1e-10;
};

// The variant names this build can time (kernels::gpu_variants() with CUDA, the same names without).
std::vector<std::string> sptrsv_gpu_variant_names();

// t: an analysed matrix's host view (sptrsv::TriangularPattern::host_view()); b and expected: t.n
// entries. Uploads t, b, runs every solve, frees everything before returning.
SptrsvGpuTiming time_sptrsv_gpu(const kernels::TriangularView& t, const std::vector<double>& b,
                                const std::vector<double>& expected, const SptrsvTimingOptions& options);

}  // namespace hetsparse::bench
