// bench_sptrsv's GPU-analysis parts: the analysis timed on the device (input already there, as
// for cuSPARSE's analysis) with a solve from its result, and the fusion sweep (yuenyeung over
// fusion thresholds and hub-row split rules, each analysed on the GPU).
#pragma once
#include <string>
#include <vector>

#include "cli/json.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::bench {

// The fastest correct plain variant (kernels::gpu_variants()) of a timing run; "" if none.
std::string fastest_plain_variant(const sptrsv::SchemeTimings& g);

// GPU analysis of `pattern` with its own threshold and split rule, compared with it, then `variant`
// solving from it; printed to stderr and returned as JSON (in_solves = analysis / solve).
cli::Json report_device_analysis(const sptrsv::TriangularPattern& pattern, const std::vector<double>& b,
                                 const std::vector<double>& expected, const std::string& variant,
                                 const sptrsv::SchemeTimingOptions& timing);

// yuenyeung and yuenyeung_levelorder for thresholds {2, 4, 8, 16, 32} x split rules {none,
// 1024/512, 2048/1024, 4096/2048, 8192/4096}: median solve ms of each, and the fastest.
cli::Json fusion_sweep(const sptrsv::TriangularPattern& pattern, const std::vector<double>& b,
                       const std::vector<double>& expected, const sptrsv::SchemeTimingOptions& timing);

}  // namespace hetsparse::bench
