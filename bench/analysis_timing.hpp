// Timing of the GPU analysis (kernels::DeviceAnalysis) for bench_sptrsv (only the bench uses it): the matrix's normalised
// CSR is put on the device (timed apart, as every GPU solver needs it there), then analysed there
// several times; the result is compared with the host analysis and a variant solves from it.
// analysis_timing_cuda.cpp does the work, analysis_timing_none.cpp answers "unavailable".
#pragma once
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::bench {

struct AnalysisTiming {
  bool available = false;
  std::string error;           // why not (no device), or what failed
  double upload_ms = 0;        // the normalised CSR, host to device (not part of the analysis)
  double median_ms = 0, min_ms = 0;  // wall time of DeviceAnalysis, input already on the device
  int runs = 0;
  kernels::DeviceAnalysisPhases phases;  // of one more run, timed step by step
  bool matches_host = false;   // level pointers, level entries and both segmentations equal the host's
  std::string mismatch;        // the first difference, when not
  std::string variant;         // the solve from the GPU analysis's view
  double solve_ms = 0;
  double relative_error = 0;
};

// t: a host analysis (TriangularPattern::host_view()) whose normalised arrays are the GPU input
// (analysed as non-unit: its unit diagonal is already stored as 1.0); compared with it when
// compare_with_host (same threshold and split rule); b, expected: t.n entries; `variant` one of
// kernels::gpu_variants(). Errors land in `error`.
AnalysisTiming time_device_analysis(const kernels::TriangularView& t, const kernels::DeviceAnalysisOptions& analysis,
                                    bool compare_with_host,
                                    const std::vector<double>& b, const std::vector<double>& expected,
                                    const std::string& variant, const sptrsv::SchemeTimingOptions& options);

}  // namespace hetsparse::bench
