// bench_sptrsv's GPU-analysis parts (see bench_sptrsv_analysis.hpp).
#include "bench/bench_sptrsv_analysis.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "bench/analysis_timing.hpp"

namespace hetsparse::bench {

std::string fastest_plain_variant(const sptrsv::SchemeTimings& g) {
  const std::vector<std::string> plain = codelets::sptrsv_cuda_variants();  // empty without CUDA
  std::string variant;
  double variant_ms = 0;
  for (const sptrsv::SchemeTiming& s : g.schemes) {
    if (s.status != "ok" || std::find(plain.begin(), plain.end(), s.scheme) == plain.end()) continue;
    if (variant.empty() || s.median_ms < variant_ms) {
      variant = s.scheme;
      variant_ms = s.median_ms;
    }
  }
  return variant;
}

cli::Json report_device_analysis(const sptrsv::TriangularPattern& pattern, const std::vector<double>& b,
                                 const std::vector<double>& expected, const std::string& variant,
                                 const sptrsv::SchemeTimingOptions& timing) {
  kernels::DeviceAnalysisOptions options;
  options.fusion_threshold = pattern.fusion_threshold();
  options.level_ordered_copy = pattern.has_level_ordered_copy();
  const AnalysisTiming a =
      time_device_analysis(pattern.host_view(), options, true, b, expected, variant, timing);
  const double in_solves = a.solve_ms > 0 ? a.median_ms / a.solve_ms : 0.0;
  cli::Json j;
  j.set("variant", variant)
      .set("upload_ms", a.upload_ms)
      .set("median_ms", a.median_ms)
      .set("min_ms", a.min_ms)
      .set("matches_host", a.matches_host)
      .set("solve_ms", a.solve_ms)
      .set("relative_error", a.relative_error)
      .set("in_solves", in_solves);
  const kernels::DeviceAnalysisPhases& p = a.phases;
  const struct {
    const char *key, *label;
    double ms;
  } steps[] = {{"check", "check", p.check},
               {"copy", "copy", p.copy},
               {"segments", "segments", p.segments},
               {"levels", "level pass", p.levels},
               {"schedule", "schedule", p.schedule},
               {"level_copy", "level copy", p.level_copy},
               {"level_segments", "level segments", p.level_segments},
               {"statistics", "statistics", p.statistics}};
  cli::Json phases;
  std::string by_step;
  for (const auto& step : steps) {
    phases.set(step.key, step.ms);
    char part[64];
    std::snprintf(part, sizeof(part), "%s%s %.2f", by_step.empty() ? "" : ", ", step.label, step.ms);
    by_step += part;
  }
  j.set("phases_ms", phases);
  if (!a.error.empty()) j.set("error", a.error);
  if (!a.mismatch.empty()) j.set("mismatch", a.mismatch);
  std::fprintf(
      stderr,
      "  GPU analysis: %.2f ms (min %.2f, upload %.2f ms apart) = %.1f solves of %s (%.4f ms, rel.err %.1e)%s%s\n",
      a.median_ms, a.min_ms, a.upload_ms, in_solves, variant.c_str(), a.solve_ms, a.relative_error,
      a.matches_host ? ", same as the host analysis" : ", DIFFERS: ",
      a.matches_host ? "" : (a.error.empty() ? a.mismatch : a.error).c_str());
  std::fprintf(stderr, "    by step (stream drained after each): %s ms\n", by_step.c_str());
  return j;
}

cli::Json fusion_sweep(const sptrsv::TriangularPattern& pattern, const std::vector<double>& b,
                       const std::vector<double>& expected, const sptrsv::SchemeTimingOptions& timing) {
  constexpr std::int64_t kNever = std::numeric_limits<index_t>::max();
  const kernels::SplitRule rules[] = {{kNever, 1}, {1024, 512}, {2048, 1024}, {4096, 2048}, {8192, 4096}};
  cli::Json sweep;
  std::string best;
  double best_ms = 0;
  for (const char* variant : {"yuenyeung", "yuenyeung_levelorder"}) {
    for (const double threshold : {2.0, 4.0, 8.0, 16.0, 32.0}) {
      std::string line;
      for (const kernels::SplitRule& rule : rules) {
        kernels::DeviceAnalysisOptions options;
        options.fusion_threshold = threshold;
        options.split_rule = rule;
        const AnalysisTiming a =
            time_device_analysis(pattern.host_view(), options, false, b, expected, variant, timing);
        const bool ok = a.error.empty() && a.relative_error <= timing.tolerance;
        const std::string split = rule.min_off_diagonals == kNever ? "none"
                                                                   : std::to_string(rule.min_off_diagonals) + "/" +
                                                                         std::to_string(rule.entries_per_part);
        const std::string key =
            std::string(variant) + " t=" + std::to_string(static_cast<int>(threshold)) + " split=" + split;
        sweep.set(key, ok ? a.solve_ms : -1.0);
        char cell[32];
        std::snprintf(cell, sizeof cell, " %9.4f", ok ? a.solve_ms : -1.0);
        line += cell;
        if (ok && (best.empty() || a.solve_ms < best_ms)) {
          best = key;
          best_ms = a.solve_ms;
        }
      }
      std::fprintf(stderr, "  sweep %-21s t=%-3d (split none, 1024, 2048, 4096, 8192):%s\n", variant,
                   static_cast<int>(threshold), line.c_str());
    }
  }
  sweep.set("best", best).set("best_ms", best_ms);
  std::fprintf(stderr, "  sweep best: %s %.4f ms\n", best.c_str(), best_ms);
  return sweep;
}

}  // namespace hetsparse::bench
