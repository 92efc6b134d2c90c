#include "cholesky/autotune/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

constexpr double kMinB = 0.25, kMaxB = 2.0;

// The best (a, c >= 0) for one exponent b, and its error. For fixed b the model is linear in (a, c),
// so minimising the relative error sum w ((a f^b + c) / t - 1)^2 is a 2x2 least-squares problem.
struct Trial {
  PowerLaw law;
  double error = std::numeric_limits<double>::infinity();
};

Trial fit_with_exponent(const std::vector<FitPoint>& pts, double b) {
  double sgg = 0, sgh = 0, shh = 0, sg = 0, sh = 0;
  for (const FitPoint& p : pts) {
    const double g = std::pow(p.flops, b) / p.seconds, h = 1.0 / p.seconds;
    sgg += p.weight * g * g, sgh += p.weight * g * h, shh += p.weight * h * h;
    sg += p.weight * g, sh += p.weight * h;
  }
  Trial t;
  t.law.b = b;
  const double det = sgg * shh - sgh * sgh;
  t.law.a = det > 0 ? (sg * shh - sh * sgh) / det : 0.0;
  t.law.c = det > 0 ? (sgg * sh - sgh * sg) / det : -1.0;
  if (t.law.c < 0) t.law = {sg / sgg, b, 0.0};          // no latency
  if (t.law.a <= 0) t.law = {0.0, b, sh / shh};         // flat: latency only
  t.error = 0;
  for (const FitPoint& p : pts) {
    const double r = t.law(p.flops) / p.seconds - 1.0;
    t.error += p.weight * r * r;
  }
  return t;
}

}  // namespace

double PowerLaw::operator()(double flops) const { return a * std::pow(std::max(flops, 1.0), b) + c; }

PowerLaw fit_power_law(const std::vector<FitPoint>& points) {
  std::vector<FitPoint> pts;
  std::set<double> distinct;
  for (const FitPoint& p : points)
    if (p.flops > 0 && p.seconds > 0 && p.weight > 0 && std::isfinite(p.flops) && std::isfinite(p.seconds)) {
      pts.push_back(p);
      distinct.insert(p.flops);
    }
  if (static_cast<int>(distinct.size()) < kMinFitPoints)
    throw InvalidArgument("fit_power_law: " + std::to_string(distinct.size()) + " distinct usable points, need " +
                          std::to_string(kMinFitPoints));
  // A grid over the exponent, then golden-section refinement between the best point's neighbours.
  constexpr int kGrid = 70;
  const double h = (kMaxB - kMinB) / kGrid;
  int best = 0;
  Trial best_trial = fit_with_exponent(pts, kMinB);
  for (int k = 1; k <= kGrid; ++k) {
    const Trial t = fit_with_exponent(pts, kMinB + k * h);
    if (t.error < best_trial.error) best_trial = t, best = k;
  }
  double lo = kMinB + std::max(0, best - 1) * h, hi = kMinB + std::min(kGrid, best + 1) * h;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 60; ++it) {
    const double b1 = hi - g * (hi - lo), b2 = lo + g * (hi - lo);
    const Trial t1 = fit_with_exponent(pts, b1), t2 = fit_with_exponent(pts, b2);
    if (t1.error < best_trial.error) best_trial = t1;
    if (t2.error < best_trial.error) best_trial = t2;
    if (t1.error < t2.error) hi = b2; else lo = b1;
  }
  return best_trial.law;
}

std::vector<FitPoint> fit_points(const std::vector<HistorySample>& samples) {
  std::vector<FitPoint> pts;
  for (const HistorySample& s : samples)
    if (s.n > 0 && s.flops > 0 && s.mean_us > 0 && std::isfinite(s.flops) && std::isfinite(s.mean_us))
      pts.push_back({s.flops, s.mean_us * 1e-6, static_cast<double>(s.n)});
  return pts;
}

PowerLaw default_cost(ArchKind arch) {
  return arch == ArchKind::Cpu ? PowerLaw{1.0 / 20e9, 1.0, 5e-6} : PowerLaw{1.0 / 5e12, 1.0, 30e-6};
}

double CostModels::seconds(const std::string& kernel, ArchKind arch, double flops) const {
  const auto it = models_.find({kernel, arch});
  return (it == models_.end() ? default_cost(arch) : it->second.law)(flops);
}

bool CostModels::fitted(const std::string& kernel, ArchKind arch) const {
  const auto it = models_.find({kernel, arch});
  return it != models_.end() && it->second.points > 0;
}

std::vector<ModelSummary> CostModels::summary(const std::vector<std::string>& kernels, bool with_cuda) const {
  std::vector<ModelSummary> out;
  for (const std::string& k : kernels)
    for (ArchKind arch : {ArchKind::Cpu, ArchKind::Cuda}) {
      if (arch == ArchKind::Cuda && !with_cuda) continue;
      const auto it = models_.find({k, arch});
      out.push_back({k, arch, it == models_.end() ? KernelCost{default_cost(arch), 0} : it->second});
    }
  return out;
}

std::string describe(const ModelSummary& m) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%-16s %-4s t = %.3e * flops^%.3f + %.2e s  (", m.kernel.c_str(), to_string(m.arch),
                m.cost.law.a, m.cost.law.b, m.cost.law.c);
  return buf + (m.cost.points ? "fitted to " + std::to_string(m.cost.points) + " measured sizes)"
                              : std::string("DEFAULT: no measurements)"));
}

CostModels load_cost_models(const std::string& perfmodel_dir, const std::vector<std::string>& kernels) {
  CostModels models;
  if (perfmodel_dir.empty()) return models;
  for (const std::string& k : kernels) {
    const std::string file = find_perfmodel_file(perfmodel_dir, "hetsparse_" + k);
    if (file.empty()) continue;
    std::vector<FitPoint> cpu, cuda;
    for (const ArchHistory& h : read_perfmodel_history(file)) {
      const std::vector<FitPoint> pts = fit_points(h.samples);
      auto& into = h.kind == ArchKind::Cpu ? cpu : cuda;
      into.insert(into.end(), pts.begin(), pts.end());
    }
    for (auto [arch, pts] : {std::pair{ArchKind::Cpu, &cpu}, std::pair{ArchKind::Cuda, &cuda}}) {
      std::set<double> distinct;
      for (const FitPoint& p : *pts) distinct.insert(p.flops);
      if (static_cast<int>(distinct.size()) >= kMinFitPoints) models.set(k, arch, {fit_power_law(*pts), pts->size()});
    }
  }
  return models;
}

}  // namespace hetsparse::cholesky::autotune
