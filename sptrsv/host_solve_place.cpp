// The host-solve placement: the two paths' cost models and the choice between them (host_solve_place.hpp).
#include "sptrsv/host_solve_place.hpp"

#include <cmath>

namespace hetsparse::sptrsv {

std::string HostSolvePlacement::why() const {
  if (cpu_us <= 0 && gpu_us <= 0) return "";
  const auto us = [](double v) { return std::to_string(static_cast<long long>(std::lround(v))) + " us"; };
  return std::string(cpu ? "one CPU core: " : "the GPU: ") + us(cpu ? cpu_us : gpu_us) + " predicted against " +
         us(cpu ? gpu_us : cpu_us) + (cpu ? " on the GPU" : " on one CPU core");
}

HostSolvePlacement place_host_solves(index_t rows, std::int64_t nnz, index_t levels, const HostSolveCosts& c) {
  const double n = static_cast<double>(rows), entries = static_cast<double>(nnz), steps = static_cast<double>(levels);
  HostSolvePlacement p;
  p.cpu_us = c.cpu[0] + c.cpu[1] * n + c.cpu[2] * entries;
  p.gpu_us = c.gpu[0] + c.gpu[1] * steps + c.gpu[2] * entries + c.gpu[3] * n;
  p.cpu = p.cpu_us <= c.margin * p.gpu_us;
  return p;
}

}  // namespace hetsparse::sptrsv
