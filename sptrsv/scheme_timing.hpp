// Direct GPU timing of SpTRSV schemes on device-resident data (no StarPU), for the "auto" search, the
// fusion-threshold calibration and bench_sptrsv: each scheme is prepared (PreparedScheme), x is
// NaN-poisoned, then warm-up solves, then timed solves between CUDA events; the median is kept and
// x is checked against the expected solution. scheme_timing_cuda.cpp does the work,
// scheme_timing_none.cpp answers "unavailable" in builds without CUDA.
#pragma once
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::sptrsv {

struct SchemeTiming {
  std::string scheme;
  std::string status;  // ok, wrong (error above the tolerance), error, skipped (time budget), unavailable
  std::string error;   // exception text (error), or why (skipped / unavailable)
  double median_ms = 0, min_ms = 0;
  // Host wall time of launching the solve and cudaStreamSynchronize: what a caller of the kernel
  // through plain CUDA waits for, launch latency included (median; 0 when not timed).
  double call_ms = 0;
  double relative_error = 0;  // ||x - expected||_inf / ||expected||_inf (infinite for a NaN)
  double preprocess_ms = 0;   // PreparedScheme's preparation (cuSPARSE analysis, AG plan)
  int runs = 0;
};

struct SchemeTimingOptions {
  int warmups = 2;
  int runs = 5;
  double tolerance = 1e-8;
  // Once this many seconds have gone by, the remaining schemes are "skipped" (0: no bound). The
  // schemes run in the order given, so put the likely winners first.
  double budget_seconds = 0;
};

struct SchemeTimings {
  bool available = false;
  std::string reason;  // why not, when !available
  std::string device;  // GPU name
  std::vector<SchemeTiming> schemes;
  double seconds = 0;  // wall time of the whole call (upload, preparations, solves)
};

// The name of CUDA device 0, "" when there is none (or no CUDA in the build).
std::string cuda_device_name();
// Its architecture as "sm_<major><minor>" ("sm_90" for the H100 and the H200), "" likewise.
std::string cuda_device_architecture();

// t: an analysed matrix's host view; b, expected: t.n entries. Uploads, times every scheme in turn,
// frees everything before returning. Scheme failures are reported in their entry, not thrown.
SchemeTimings time_schemes(const kernels::TriangularView& t, const std::vector<double>& b,
                           const std::vector<double>& expected, const std::vector<std::string>& schemes,
                           const SchemeTimingOptions& options);

}  // namespace hetsparse::sptrsv
