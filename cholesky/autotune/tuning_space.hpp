// The auto-tuner's search space, mapped onto [0, 1]^d for the annealer: swCholesky's eight
// amalgamation values within the paper's ranges (Sec. 3.4.4) and the planner's size-class
// thresholds (the double fields of planners::SizeClassThresholds, in log scale).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "symbolic/analyze_options.hpp"
#include "planners/supernodal_cholesky.hpp"

namespace hetsparse::cholesky::autotune {

struct TunedSettings {
  std::array<AmalgamationPair, 4> amalgamation = kSwCholeskyAmalgamation;
  planners::SizeClassThresholds thresholds;
};

// One tuned planner threshold, in flops, searched in [lo, hi] on a log scale.
struct ThresholdParam {
  const char* name;
  double planners::SizeClassThresholds::*field;
  double lo, hi;
};
// Every tuned threshold; a new SizeClassThresholds tunable is one more line in tuning_space.cpp.
const std::vector<ThresholdParam>& threshold_params();

// Coordinates: nrelax0..3, zrelax0..3 (the paper's numbering: pair i of AnalyzeOptions::amalgamation
// is {nrelax_i, zrelax_(i+3) mod 4}), then threshold_params() in order. nrelax0..2 in [1, 512] (log
// scale, integers), nrelax3 in [513, 1023], zrelax0..2 in [0.01, 0.99] and zrelax3 in [0.81, 0.99]
// in steps of 0.01. Values outside their range are clamped by encode().
std::size_t dimension();
std::vector<double> encode(const TunedSettings& s);
// Non-tuned fields of the thresholds (restrict_to) come from `base`.
TunedSettings decode(const std::vector<double>& x, const planners::SizeClassThresholds& base);

// Exact text of the amalgamation values (equal keys, equal symbolic factors) and of all settings.
std::string amalgamation_key(const std::array<AmalgamationPair, 4>& pairs);
std::string settings_key(const TunedSettings& s);
// "nrelax 8/32/64/1023 zrelax 0.80/0.10/0.05/0.99 inst_max_flops 2.0e+04 ..." (the paper's numbering).
std::string describe(const TunedSettings& s);

}  // namespace hetsparse::cholesky::autotune
