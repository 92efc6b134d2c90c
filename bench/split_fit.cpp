// bench_sptrsv_split fit: the unified CPU/GPU model by weighted logistic regression, then the
// flowchart's thresholds by coordinate search, scored on how many triangles get a policy within 5 %
// of their fastest (ties: the smaller sum of log time ratios to the fastest).
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

double log10_at_least_1(double v) { return std::log10(v > 1 ? v : 1); }

// Weighted logistic regression of "the GPU beats the CPU" on [1, log10 rows, log10 AP, log10 ARL],
// weights |ln(t_gpu / t_cpu)| (a near tie matters little), Newton steps with a small ridge.
void fit_unified_model(const std::vector<SplitCase>& cases, planners::SplitThresholds& t) {
  std::vector<std::array<double, 4>> x;
  std::vector<double> y, w;
  for (const SplitCase& c : cases) {
    const auto g = c.ms.find("gpu");
    double cpu = INFINITY;
    for (const char* p : {"cpu", "cpu-levels"})
      if (c.ms.count(p)) cpu = std::min(cpu, c.ms.at(p));
    if (g == c.ms.end() || !std::isfinite(cpu)) continue;
    x.push_back({1.0, log10_at_least_1(static_cast<double>(c.structure.rows)), log10_at_least_1(c.structure.ap),
                 log10_at_least_1(c.structure.arl)});
    y.push_back(g->second < cpu ? 1.0 : 0.0);
    w.push_back(std::abs(std::log(g->second / cpu)) + 0.02);
  }
  if (x.size() < 4) return;
  std::array<double, 4> beta{t.gpu_w0, t.gpu_w_rows, t.gpu_w_ap, t.gpu_w_arl};
  for (int iter = 0; iter < 50; ++iter) {
    double H[4][4] = {}, g[4] = {};
    for (std::size_t i = 0; i < x.size(); ++i) {
      double z = 0;
      for (int k = 0; k < 4; ++k) z += beta[k] * x[i][k];
      const double p = 1 / (1 + std::exp(-z)), d = w[i] * p * (1 - p);
      for (int a = 0; a < 4; ++a) {
        g[a] += w[i] * (p - y[i]) * x[i][a];
        for (int b = 0; b < 4; ++b) H[a][b] += d * x[i][a] * x[i][b];
      }
    }
    for (int a = 1; a < 4; ++a) g[a] += 1e-2 * beta[a], H[a][a] += 1e-2;  // ridge on the slopes
    for (int a = 0; a < 4; ++a) H[a][a] += 1e-9;
    // Solve H step = g (Gaussian elimination, 4 x 4).
    double step[4];
    for (int col = 0; col < 4; ++col) {
      for (int r = col + 1; r < 4; ++r) {
        const double f = H[r][col] / H[col][col];
        for (int k = col; k < 4; ++k) H[r][k] -= f * H[col][k];
        g[r] -= f * g[col];
      }
    }
    for (int r = 3; r >= 0; --r) {
      double s = g[r];
      for (int k = r + 1; k < 4; ++k) s -= H[r][k] * step[k];
      step[r] = s / H[r][r];
    }
    double change = 0;
    for (int k = 0; k < 4; ++k) beta[k] -= step[k], change += std::abs(step[k]);
    if (change < 1e-8) break;
  }
  t.gpu_w0 = beta[0], t.gpu_w_rows = beta[1], t.gpu_w_ap = beta[2], t.gpu_w_arl = beta[3];
}

// A threshold and its candidate values.
struct Knob {
  const char* name;
  std::function<void(planners::SplitThresholds&, double)> set;
  std::vector<double> values;
};

std::vector<Knob> knobs(const planners::SplitThresholds& start) {
  using T = planners::SplitThresholds;
  const auto I = [](std::int64_t T::*m) { return [m](T& t, double v) { t.*m = static_cast<std::int64_t>(v); }; };
  const auto R = [](double T::*m) { return [m](T& t, double v) { t.*m = v; }; };
  std::vector<double> shifts;
  for (double d = -6; d <= 6; d += 0.5) shifts.push_back(start.gpu_w0 + d);
  return {{"gpu_w0", R(&T::gpu_w0), shifts},
          {"min_levels", I(&T::min_levels), {0, 10, 20, 40, 80, 160, 320, 640, 1280, 1e9}},
          {"min_rows", I(&T::min_rows), {0, 1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6, 1e9}},
          {"min_sfl_pct", R(&T::min_sfl_pct), {0, 5, 10, 20, 40, 60, 80, 90, 95, 101}},
          {"min_pfr_pct", R(&T::min_pfr_pct), {0, 10, 30, 50, 60, 70, 80, 90, 95, 101}},
          {"min_cpu_levels_pct", R(&T::min_cpu_levels_pct), {0, 5, 10, 20, 40, 60, 80, 90, 101}},
          {"min_gpu_pf_rows_pct", R(&T::min_gpu_pf_rows_pct), {0, 50, 70, 85, 95, 101}},
          {"cpu_cpu_min_part1_rows_pct", R(&T::cpu_cpu_min_part1_rows_pct), {0, 25, 50, 75, 90, 101}},
          {"cpu_cpu_min_part2_levels", I(&T::cpu_cpu_min_part2_levels), {0, 10, 40, 100, 400, 1e9}},
          {"min_iteration_savings", I(&T::min_iteration_savings), {0, 10, 30, 100, 300, 1000, 1e4, 1e12}},
          {"cpu_levels_min_ap", R(&T::cpu_levels_min_ap), {10, 30, 100, 300, 1000, 2000, 5000, 1e4, 1e30}}};
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
    for (const char* k : {"_ms", "_setup_s", "_split_setup_s", "_error", "_note"}) c.push_back(p + k);
  c.emplace_back("auto_policy");
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
  fit_unified_model(train, t);
  print_score("logistic model (train)", train, t);
  Score best = score(train, t);
  for (int sweep = 0; sweep < 6; ++sweep) {
    bool moved = false;
    for (const Knob& k : knobs(t)) {
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
