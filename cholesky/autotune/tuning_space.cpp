#include "cholesky/autotune/tuning_space.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// Planner tunables that only some versions of SizeClassThresholds have are tuned when present.
template <class T, class = void>
struct HasSubtreeMaxFlops : std::false_type {};
template <class T>
struct HasSubtreeMaxFlops<T, std::void_t<decltype(&T::subtree_max_flops)>> : std::true_type {};

template <class T>
void add_optional_params(std::vector<ThresholdParam>& ps) {
  if constexpr (HasSubtreeMaxFlops<T>::value) ps.push_back({"subtree_max_flops", &T::subtree_max_flops, 1e5, 1e11});
}

std::vector<ThresholdParam> make_threshold_params() {
  std::vector<ThresholdParam> ps = {
      {"inst_max_flops", &planners::SizeClassThresholds::inst_max_flops, 1e2, 1e7},
      {"dpq_min_flops", &planners::SizeClassThresholds::dpq_min_flops, 1e5, 1e10},
      {"gpu_min_task_flops", &planners::SizeClassThresholds::gpu_min_task_flops, 1e5, 1e10},
  };
  add_optional_params<planners::SizeClassThresholds>(ps);
  return ps;
}

constexpr double kNrelaxMax = 512, kNrelax3Lo = 513, kNrelax3Hi = 1023;
constexpr double kZStep = 0.01;

double unit(double v, double lo, double hi) { return std::clamp((v - lo) / (hi - lo), 0.0, 1.0); }
double log_unit(double v, double lo, double hi) {
  return std::clamp(std::log(std::max(v, lo) / lo) / std::log(hi / lo), 0.0, 1.0);
}
double z_range_lo(int i) { return i == 3 ? 0.81 : 0.01; }

}  // namespace

const std::vector<ThresholdParam>& threshold_params() {
  static const std::vector<ThresholdParam> ps = make_threshold_params();
  return ps;
}

std::size_t dimension() { return 8 + threshold_params().size(); }

std::vector<double> encode(const TunedSettings& s) {
  std::vector<double> x(dimension());
  for (int i = 0; i < 4; ++i) {
    const double nrelax = s.amalgamation[i].nrelax;
    x[i] = i < 3 ? log_unit(nrelax, 1, kNrelaxMax) : unit(nrelax, kNrelax3Lo, kNrelax3Hi);
    x[4 + i] = unit(s.amalgamation[(i + 1) % 4].zrelax, z_range_lo(i), 0.99);  // zrelax_i sits in pair i+1
  }
  const auto& ps = threshold_params();
  for (std::size_t k = 0; k < ps.size(); ++k) x[8 + k] = log_unit(s.thresholds.*ps[k].field, ps[k].lo, ps[k].hi);
  return x;
}

TunedSettings decode(const std::vector<double>& x, const planners::SizeClassThresholds& base) {
  if (x.size() != dimension())
    throw InvalidArgument("autotune decode: " + std::to_string(x.size()) + " coordinates, expected " +
                          std::to_string(dimension()));
  TunedSettings s;
  s.thresholds = base;
  for (int i = 0; i < 4; ++i) {
    const double u = std::clamp(x[i], 0.0, 1.0);
    const double nrelax = i < 3 ? std::pow(kNrelaxMax, u) : kNrelax3Lo + u * (kNrelax3Hi - kNrelax3Lo);
    s.amalgamation[i].nrelax = static_cast<index_t>(std::lround(nrelax));
    const double lo = z_range_lo(i);
    const double steps = std::round(std::clamp(x[4 + i], 0.0, 1.0) * (0.99 - lo) / kZStep);
    s.amalgamation[(i + 1) % 4].zrelax = std::round((lo + steps * kZStep) * 100.0) / 100.0;
  }
  const auto& ps = threshold_params();
  for (std::size_t k = 0; k < ps.size(); ++k)
    s.thresholds.*ps[k].field = ps[k].lo * std::pow(ps[k].hi / ps[k].lo, std::clamp(x[8 + k], 0.0, 1.0));
  return s;
}

std::string amalgamation_key(const std::array<AmalgamationPair, 4>& pairs) {
  std::string k;
  char buf[64];
  for (const AmalgamationPair& p : pairs) {
    std::snprintf(buf, sizeof(buf), "%d:%.17g;", static_cast<int>(p.nrelax), p.zrelax);
    k += buf;
  }
  return k;
}

std::string settings_key(const TunedSettings& s) {
  std::string k = amalgamation_key(s.amalgamation);
  char buf[40];
  for (const ThresholdParam& p : threshold_params()) {
    std::snprintf(buf, sizeof(buf), "%.17g;", s.thresholds.*p.field);
    k += buf;
  }
  return k;
}

std::string describe(const TunedSettings& s) {
  const auto& a = s.amalgamation;
  char buf[160];
  std::snprintf(buf, sizeof(buf), "nrelax %d/%d/%d/%d zrelax %.2f/%.2f/%.2f/%.2f", int(a[0].nrelax), int(a[1].nrelax),
                int(a[2].nrelax), int(a[3].nrelax), a[1].zrelax, a[2].zrelax, a[3].zrelax, a[0].zrelax);
  std::string out = buf;
  for (const ThresholdParam& p : threshold_params()) {
    std::snprintf(buf, sizeof(buf), " %s %.2e", p.name, s.thresholds.*p.field);
    out += buf;
  }
  return out;
}

}  // namespace hetsparse::cholesky::autotune
