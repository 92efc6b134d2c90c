// bench_sptrsv_split fit: the cost models by non-negative least squares of their relative error on
// the unified policies' times (the splits' own cost: the median excess over their parts'), then the
// flowchart's gates and the split margin by coordinate search, scored on how many triangles get a
// policy within 5 % of their fastest (ties: the smaller sum of log time ratios to the fastest).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/split_cases.hpp"
#include "bench/split_fit.hpp"
#include "cli/args.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::bench {
namespace {

struct Score {
  int hits = 0;          // decided within 5 % of the fastest
  double regret = 0.0;   // sum of ln(decided / fastest); an untimed pick costs ln 10
  bool better_than(const Score& o) const { return hits != o.hits ? hits > o.hits : regret < o.regret - 1e-9; }
};

Score score(const std::vector<SplitCase>& cases, const planners::SplitThresholds& t) {
  Score s;
  for (const SplitCase& c : cases) {
    const double ms = decided_ms(c, t);
    s.hits += ms <= 1.05 * c.best_ms;
    s.regret += std::isfinite(ms) ? std::log(ms / c.best_ms) : std::log(10.0);
  }
  return s;
}

// Non-negative weighted least squares of the relative error, sum ((x_i . c - t_i) / t_i)^2, by trying
// every subset of the columns (4 at most) and keeping the best whose coefficients are all >= 0.
template <std::size_t K>
bool fit_costs(const std::vector<std::pair<std::array<double, K>, double>>& samples, std::array<double, K>& coef) {
  if (samples.size() < K + 2) return false;
  std::array<double, K> scale{};
  for (const auto& [x, t] : samples)
    for (std::size_t k = 0; k < K; ++k) scale[k] = std::max(scale[k], std::abs(x[k]));
  double best = INFINITY;
  for (unsigned mask = 1; mask < (1u << K); ++mask) {
    double A[K][K] = {}, b[K] = {};
    for (const auto& [x, t] : samples)
      for (std::size_t a = 0; a < K; ++a) {
        if (!(mask >> a & 1) || scale[a] == 0) continue;
        const double xa = x[a] / scale[a] / t;
        b[a] += xa;
        for (std::size_t c = 0; c < K; ++c)
          if ((mask >> c & 1) && scale[c] != 0) A[a][c] += xa * x[c] / scale[c] / t;
      }
    for (std::size_t a = 0; a < K; ++a)
      if (!(mask >> a & 1) || scale[a] == 0) A[a][a] = 1, b[a] = 0;
    std::array<double, K> c{};
    bool ok = true;
    for (std::size_t col = 0; col < K && ok; ++col) {  // Gaussian elimination, no pivoting (SPD)
      ok = std::abs(A[col][col]) > 1e-12;
      for (std::size_t r = col + 1; r < K && ok; ++r) {
        const double f = A[r][col] / A[col][col];
        for (std::size_t k = col; k < K; ++k) A[r][k] -= f * A[col][k];
        b[r] -= f * b[col];
      }
    }
    if (!ok) continue;
    for (std::size_t r = K; r-- > 0;) {
      double v = b[r];
      for (std::size_t k = r + 1; k < K; ++k) v -= A[r][k] * c[k];
      c[r] = v / A[r][r];
      ok = ok && c[r] >= 0;
    }
    if (!ok) continue;
    double residual = 0;
    for (const auto& [x, t] : samples) {
      double p = 0;
      for (std::size_t k = 0; k < K; ++k) p += scale[k] ? c[k] / scale[k] * x[k] : 0.0;
      residual += (p - t) * (p - t) / (t * t);
    }
    if (residual < best) {
      best = residual;
      for (std::size_t k = 0; k < K; ++k) coef[k] = scale[k] ? c[k] / scale[k] : 0.0;
    }
  }
  return std::isfinite(best);
}

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The cost models from the unified policies' times, then each split's own cost as the median of its
// measured time minus its parts' predictions.
void fit_cost_models(const std::vector<SplitCase>& cases, planners::CostModel& m) {
  std::vector<std::pair<std::array<double, 3>, double>> cpu;
  std::vector<std::pair<std::array<double, 4>, double>> levels;
  std::vector<std::pair<std::array<double, 3 + planners::kGpuFamilies>, double>> gpu;
  for (const SplitCase& c : cases) {
    const planners::LevelRange& r = c.structure.all;
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    if (c.ms.count("cpu")) cpu.push_back({{1.0, d(r.nnz), d(r.rows)}, c.ms.at("cpu")});
    if (c.ms.count("cpu-levels") && c.machine.cpu_parallel_width > 1)
      levels.push_back({{1.0, d(r.nnz - r.wide_nnz), d(r.wide_nnz), d(r.wide_levels)}, c.ms.at("cpu-levels")});
    if (c.ms.count("gpu")) {  // the steps of the scheme that ran, in its family's column
      std::array<double, 3 + planners::kGpuFamilies> x{1.0, d(r.rows), d(r.nnz)};
      x[3 + static_cast<std::size_t>(std::clamp(c.structure.gpu_family, 0, planners::kGpuFamilies - 1))] =
          d(r.levels) * c.structure.gpu_level_factor;
      gpu.push_back({x, c.ms.at("gpu")});
    }
  }
  fit_costs(cpu, m.cpu);
  fit_costs(levels, m.cpu_levels);
  std::array<double, 3 + planners::kGpuFamilies> g{};
  for (std::size_t k = 0; k < 3; ++k) g[k] = m.gpu[k];
  for (std::size_t k = 0; k < planners::kGpuFamilies; ++k) g[3 + k] = m.gpu_level[k];
  if (fit_costs(gpu, g)) {
    for (std::size_t k = 0; k < 3; ++k) m.gpu[k] = g[k];
    // A family no sample ran keeps its start value (a zero fit would call its steps free).
    for (std::size_t k = 0; k < planners::kGpuFamilies; ++k) {
      bool seen = false;
      for (const auto& [x, t] : gpu) seen = seen || x[3 + k] > 0;
      if (seen) m.gpu_level[k] = g[3 + k];
    }
  }
  std::vector<double> cg, cc;
  planners::CostModel parts = m;
  parts.cpu_gpu = parts.cpu_cpu = 0.0;
  for (const SplitCase& c : cases) {
    if (c.ms.count("cpu-gpu")) cg.push_back(c.ms.at("cpu-gpu") - planners::predict_ms(parts, planners::SplitPolicy::CpuGpu, c.structure));
    if (c.ms.count("cpu-cpu")) cc.push_back(c.ms.at("cpu-cpu") - planners::predict_ms(parts, planners::SplitPolicy::CpuCpu, c.structure));
  }
  if (!cg.empty()) m.cpu_gpu = std::max(0.0, median(cg));
  if (!cc.empty()) m.cpu_cpu = std::max(0.0, median(cc));
}

// A threshold and its candidate values.
struct Knob {
  const char* name;
  std::function<void(planners::SplitThresholds&, double)> set;
  std::vector<double> values;
};

std::vector<Knob> knobs() {
  using T = planners::SplitThresholds;
  const auto I = [](std::int64_t T::*m) { return [m](T& t, double v) { t.*m = static_cast<std::int64_t>(v); }; };
  const auto R = [](double T::*m) { return [m](T& t, double v) { t.*m = v; }; };
  return {{"split_margin", R(&T::split_margin), {0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25}},
          {"min_levels", I(&T::min_levels), {0, 10, 20, 40, 80, 160, 320, 640, 1280, 1e9}},
          {"min_rows", I(&T::min_rows), {0, 1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6, 1e9}},
          {"min_sfl_pct", R(&T::min_sfl_pct), {0, 5, 10, 20, 40, 60, 80, 90, 95, 101}},
          {"min_pfr_pct", R(&T::min_pfr_pct), {0, 10, 30, 50, 60, 70, 80, 90, 95, 101}},
          {"min_cpu_levels_pct", R(&T::min_cpu_levels_pct), {0, 5, 10, 20, 40, 60, 80, 90, 101}},
          {"min_gpu_pf_rows_pct", R(&T::min_gpu_pf_rows_pct), {0, 50, 70, 85, 95, 101}},
          {"cpu_cpu_min_part1_rows_pct", R(&T::cpu_cpu_min_part1_rows_pct), {0, 25, 50, 75, 90, 101}},
          {"cpu_cpu_min_part2_levels", I(&T::cpu_cpu_min_part2_levels), {0, 10, 40, 100, 400, 1e9}},
          {"min_iteration_savings", I(&T::min_iteration_savings), {0, 10, 30, 100, 300, 1000, 1e4, 1e12}}};
}

void print_score(const char* what, const std::vector<SplitCase>& cases, const planners::SplitThresholds& t) {
  const Score s = score(cases, t);
  std::printf("%-28s %3d / %3zu within 5 %% of the fastest (%.1f %%), mean ln(decided / fastest) %.3f\n", what, s.hits,
              cases.size(), cases.empty() ? 0.0 : 100.0 * s.hits / cases.size(), cases.empty() ? 0.0 : s.regret / cases.size());
}

}  // namespace

std::vector<std::string> split_policy_names() {
  std::vector<std::string> names;
  for (planners::SplitPolicy p : planners::kAllSplitPolicies) names.emplace_back(planners::to_string(p));
  names.emplace_back("auto");
  return names;
}

std::vector<std::string> split_table_columns() {
  std::vector<std::string> c = {"name", "source"};
  for (const auto& [name, value] : planners::structure_list(planners::SplitStructure{})) c.push_back(name);
  for (const char* k : {"analysis_s", "cpu_width", "gpu", "decided"}) c.emplace_back(k);
  for (const std::string& p : split_policy_names())
    for (const char* k : {"_ms", "_spread", "_setup_s", "_split_setup_s", "_error", "_note"}) c.push_back(p + k);
  for (const char* k : {"auto_policy", "auto_how", "auto_measure", "auto_measure_s"}) c.emplace_back(k);
  return c;
}

int split_fit(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_split fit", "Calibrate the split model's thresholds on measured tables.");
  p.option("input", "TABLES", "comma-separated training tables", "")
      .option("test", "TABLES", "comma-separated tables to score the result on (not fitted)", "")
      .option("start", "FILE", "thresholds to start from (default: the paper's)", "")
      .option("output", "FILE", "where to write the thresholds", "split_model.tsv");
  if (!p.parse(argc, argv)) return 0;
  const std::vector<SplitCase> train = load_cases(cli::split_list(p.get("input"), ','));
  if (train.empty()) throw InvalidArgument("fit: no measured triangle in " + p.get("input"));
  planners::SplitThresholds t;
  if (!p.get("start").empty()) {
    std::ifstream in(p.get("start"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    t = planners::SplitThresholds::from_tsv(text, p.get("start"));
  }
  print_score("start (train)", train, t);
  fit_cost_models(train, t.costs);
  print_score("fitted cost models (train)", train, t);
  Score best = score(train, t);
  for (int sweep = 0; sweep < 6; ++sweep) {
    bool moved = false;
    for (const Knob& k : knobs()) {
      for (double v : k.values) {
        planners::SplitThresholds trial = t;
        k.set(trial, v);
        const Score s = score(train, trial);
        if (s.better_than(best)) best = s, t = trial, moved = true;
      }
    }
    if (!moved) break;
  }
  print_score("calibrated (train)", train, t);
  if (!p.get("test").empty()) {
    const std::vector<SplitCase> test = load_cases(cli::split_list(p.get("test"), ','));
    print_score("paper's values (test)", test, planners::SplitThresholds{});
    print_score("calibrated (test)", test, t);
  }
  std::ofstream out(p.get("output"));
  if (!out) throw InvalidArgument("fit: cannot write " + p.get("output"));
  out << "# split SpTRSV model: bench_sptrsv_split fit on " << train.size() << " triangles (" << p.get("input") << ")\n"
      << t.to_tsv();
  std::printf("thresholds written to %s\n%s", p.get("output").c_str(), t.to_tsv().c_str());
  return 0;
}

}  // namespace hetsparse::bench
