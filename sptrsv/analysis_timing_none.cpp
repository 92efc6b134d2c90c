#include "sptrsv/analysis_timing.hpp"

namespace hetsparse::sptrsv {

AnalysisTiming time_device_analysis(const kernels::TriangularView&, const kernels::DeviceAnalysisOptions&, bool,
                                    const std::vector<double>&,
                                    const std::vector<double>&, const std::string& variant,
                                    const SchemeTimingOptions&) {
  AnalysisTiming t;
  t.error = "no CUDA device/build (built without CUDA)";
  t.variant = variant;
  return t;
}

}  // namespace hetsparse::sptrsv
