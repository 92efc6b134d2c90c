#include "sptrsv/scheme_timing.hpp"
#include "sptrsv/solve_paths.hpp"

namespace hetsparse::sptrsv {

std::string cuda_device_name() { return ""; }

std::string cuda_device_architecture() { return ""; }

SchemeTimings time_schemes(const kernels::TriangularView&, const std::vector<double>&, const std::vector<double>&,
                           const std::vector<std::string>& schemes, const SchemeTimingOptions&) {
  SchemeTimings t;
  t.reason = "no CUDA device/build (built without CUDA)";
  for (const std::string& name : schemes) {
    SchemeTiming s;
    s.scheme = name;
    s.status = "unavailable";
    s.error = t.reason;
    t.schemes.push_back(s);
  }
  return t;
}

double pageable_copy_ms(std::size_t, int) { return 0; }

}  // namespace hetsparse::sptrsv
