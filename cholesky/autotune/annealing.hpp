// Simulated annealing (swCholesky Sec. 3.4.4) over a box [0, 1]^d: from the current point a
// neighbour moves one or two coordinates; a worse neighbour is accepted with probability
// exp(-dF / T), dF relative to the current value, and T cools geometrically from t_start to t_end
// over max_evaluations steps. Seeded: the sequence of points depends only on the seed and the
// objective's values, never on timing; the time budget only stops it early (and says so).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace hetsparse::cholesky::autotune {

struct AnnealOptions {
  std::uint64_t seed = 1;
  int max_evaluations = 150;  // objective calls after the starting point
  double budget_s = 5.0;      // wall-clock limit; <= 0: none
  double t_start = 0.05;      // a 5% worse point is accepted with probability 1/e at the start
  double t_end = 0.002;
  double step = 0.2;          // largest move of a coordinate, as a fraction of its range, at t_start
};

struct AnnealResult {
  std::vector<double> best;
  double best_value = 0, start_value = 0;
  int evaluations = 0;
  int accepted_worse = 0;
  bool stopped_by_budget = false;
};

using Objective = std::function<double(const std::vector<double>&)>;

// x0 in [0, 1]^d is the starting point (its value is start_value); the best point seen is returned,
// so best_value <= start_value. InvalidArgument for an empty or out-of-box x0 or bad options.
AnnealResult anneal(const std::vector<double>& x0, const Objective& f, const AnnealOptions& opts = {});

}  // namespace hetsparse::cholesky::autotune
