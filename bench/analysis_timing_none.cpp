#include "bench/analysis_timing.hpp"

namespace hetsparse::bench {

AnalysisTiming time_device_analysis(const kernels::TriangularView&, const kernels::DeviceAnalysisOptions&, bool,
                                    const std::vector<double>&,
                                    const std::vector<double>&, const std::string& variant,
                                    const sptrsv::SchemeTimingOptions&) {
  AnalysisTiming t;
  t.error = "no CUDA device/build (built without CUDA)";
  t.variant = variant;
  return t;
}

}  // namespace hetsparse::bench
