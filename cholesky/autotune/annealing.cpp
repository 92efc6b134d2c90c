#include "cholesky/autotune/annealing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// Uniform in [0, 1) from the raw 64-bit stream: the same numbers with every standard library
// (std::uniform_real_distribution's algorithm is implementation-defined).
double uniform(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

}  // namespace

AnnealResult anneal(const std::vector<double>& x0, const Objective& f, const AnnealOptions& o) {
  if (x0.empty()) throw InvalidArgument("anneal: empty starting point");
  for (double v : x0)
    if (!(v >= 0.0 && v <= 1.0)) throw InvalidArgument("anneal: starting point outside [0, 1]^d");
  if (o.max_evaluations < 0 || !(o.t_start > 0) || !(o.t_end > 0) || !(o.step > 0))
    throw InvalidArgument("anneal: need max_evaluations >= 0 and positive t_start, t_end, step");
  const auto t0 = std::chrono::steady_clock::now();
  std::mt19937_64 rng(o.seed);
  AnnealResult r;
  std::vector<double> cur = x0;
  double fcur = f(cur);
  r.best = cur;
  r.best_value = r.start_value = fcur;
  const double cooling = std::pow(o.t_end / o.t_start, 1.0 / std::max(1, o.max_evaluations - 1));
  double temp = o.t_start;
  for (int k = 0; k < o.max_evaluations; ++k, temp *= cooling) {
    if (o.budget_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o.budget_s) {
      r.stopped_by_budget = true;
      break;
    }
    // Moves shrink with the temperature, down to a quarter of the initial step.
    const double step = o.step * (0.25 + 0.75 * (temp - o.t_end) / (o.t_start - o.t_end + 1e-300));
    std::vector<double> next = cur;
    const int moves = uniform(rng) < 0.5 ? 1 : 2;
    for (int m = 0; m < moves; ++m) {
      const auto i = std::min(next.size() - 1, static_cast<std::size_t>(uniform(rng) * double(next.size())));
      next[i] = std::clamp(next[i] + step * (2.0 * uniform(rng) - 1.0), 0.0, 1.0);
    }
    const double fnext = f(next);
    ++r.evaluations;
    const double delta = (fnext - fcur) / std::max(std::abs(fcur), 1e-300);
    const double u = uniform(rng);  // drawn every step so the stream does not depend on the branch
    if (delta <= 0 || u < std::exp(-delta / temp)) {
      r.accepted_worse += delta > 0;
      cur.swap(next);
      fcur = fnext;
      if (fcur < r.best_value) {
        r.best_value = fcur;
        r.best = cur;
      }
    }
  }
  return r;
}

}  // namespace hetsparse::cholesky::autotune
