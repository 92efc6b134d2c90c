// The fusion-threshold calibration (see fusion_calibration.hpp).
#include "bench/fusion_calibration.hpp"

#include <cmath>
#include <random>

#include "hetsparse/error.hpp"
#include "sptrsv/analysis.hpp"

namespace hetsparse::bench {

using sptrsv::SchemeTiming;
using sptrsv::SchemeTimings;
using sptrsv::TriangularPattern;

std::vector<double> default_fusion_thresholds() { return {2, 3, 4, 6, 8, 12, 16, 24, 32}; }

FusionCalibration calibrate_fusion_threshold(const std::vector<Csr>& lowers, const std::vector<double>& thresholds,
                                             const sptrsv::SchemeTimingOptions& timing) {
  if (thresholds.empty()) throw InvalidArgument("calibrate_fusion_threshold: no candidate thresholds");
  FusionCalibration c;
  c.thresholds = thresholds;
  std::vector<double> log_sum(thresholds.size(), 0.0);
  const std::vector<std::string> variants = {"yuenyeung", "yuenyeung_levelorder"};
  for (std::size_t m = 0; m < lowers.size(); ++m) {
    TriangularPattern p(lowers[m], Triangle::Lower, false);
    std::vector<double> b(static_cast<std::size_t>(p.rows())), expected(b.size());
    std::mt19937_64 rng(m + 1);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double& v : b) v = u(rng);
    {
      const kernels::TriangularView t = p.host_view();
      kernels::sptrsv_cpu(t, b.data(), p.rows(), expected.data(), p.rows(), 1);
    }
    std::vector<double> matrix_logs(thresholds.size(), 0.0);
    bool all_ok = true;
    for (std::size_t k = 0; k < thresholds.size() && all_ok; ++k) {
      p.set_fusion_threshold(thresholds[k]);
      const SchemeTimings t = sptrsv::time_schemes(p.host_view(), b, expected, variants, timing);
      c.device = t.device;
      if (!t.available) {
        c.note = t.reason;
        return c;
      }
      for (const SchemeTiming& s : t.schemes) {
        if (s.status != "ok" || !(s.median_ms > 0)) {
          all_ok = false;
          c.note += "matrix " + std::to_string(m) + " left out: " + s.scheme + " " + s.status + " at threshold " +
                    std::to_string(thresholds[k]) + "; ";
          break;
        }
        matrix_logs[k] += std::log(s.median_ms);
      }
    }
    if (!all_ok) continue;
    for (std::size_t k = 0; k < thresholds.size(); ++k) log_sum[k] += matrix_logs[k];
    ++c.matrices;
  }
  c.geomean_ms.assign(thresholds.size(), 0.0);
  if (c.matrices == 0) {
    if (c.note.empty()) c.note = "no training matrix";
    return c;
  }
  std::size_t best = 0;
  for (std::size_t k = 0; k < thresholds.size(); ++k) {
    c.geomean_ms[k] = std::exp(log_sum[k] / (2.0 * c.matrices));
    if (log_sum[k] < log_sum[best]) best = k;
  }
  c.threshold = thresholds[best];
  return c;
}

}  // namespace hetsparse::bench
