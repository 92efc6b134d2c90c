// Loading measured triangles and replaying their decision.
#include "bench/split_cases.hpp"

#include <cmath>

namespace hetsparse::bench {

bool is_unified(const std::string& p) { return p == "cpu" || p == "cpu-levels" || p == "gpu"; }

std::vector<SplitCase> load_cases(const std::vector<std::string>& tables) {
  std::vector<SplitCase> cases;
  for (const TableRow& row : read_tables(tables)) {
    SplitCase c;
    c.name = row.at("name");
    c.source = row.count("source") ? row.at("source") : "";
    std::map<std::string, double> values;
    for (const auto& [key, text] : row) {
      const double v = number(row, key);
      if (std::isfinite(v)) values[key] = v;
    }
    c.structure = planners::structure_from_list(values);
    c.machine.gpu = number(row, "gpu") == 1;
    c.machine.cpu_parallel_width = std::isfinite(number(row, "cpu_width")) ? static_cast<int>(number(row, "cpu_width")) : 1;
    c.decided = row.count("decided") ? row.at("decided") : "";
    for (planners::SplitPolicy p : planners::kAllSplitPolicies) {
      const std::string name = planners::to_string(p);
      const double ms = number(row, name + "_ms"), err = number(row, name + "_error");
      if (!std::isfinite(ms) || !(err <= 1e-8)) continue;
      c.ms[name] = ms;
      c.setup[name] = number(row, name + "_setup_s");
      if (c.best.empty() || ms < c.best_ms) c.best = name, c.best_ms = ms;
      if (is_unified(name) && (c.best_unified.empty() || ms < c.best_unified_ms)) c.best_unified = name, c.best_unified_ms = ms;
    }
    c.row = row;
    if (!c.best_unified.empty()) cases.push_back(std::move(c));
  }
  return cases;
}

double decided_ms(const SplitCase& c, const planners::SplitThresholds& t, std::string* policy) {
  const std::string p = planners::to_string(planners::decide_split(c.structure, t, c.machine).policy);
  if (policy) *policy = p;
  const auto it = c.ms.find(p);
  return it == c.ms.end() ? std::nan("") : it->second;
}

}  // namespace hetsparse::bench
