// One measured triangle of bench_sptrsv_split's table, and its decision replayed.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "bench/split_corpus.hpp"
#include "planners/split_sptrsv_decision.hpp"
#include "planners/split_sptrsv_structure.hpp"

namespace hetsparse::bench {

struct SplitCase {
  std::string name, source;
  planners::SplitStructure structure;
  planners::SplitMachine machine;
  std::map<std::string, double> ms;     // timed policies that solved correctly (error <= 1e-8)
  std::map<std::string, double> setup;  // their preprocess seconds
  std::string best, best_unified;       // fastest policy, fastest unified one
  double best_ms = 0, best_unified_ms = 0;
  std::string decided;  // the run's own decision (the table's "decided" column)
  TableRow row;         // everything else
};

// The rows with at least one correctly timed unified policy.
std::vector<SplitCase> load_cases(const std::vector<std::string>& tables);
// The time of the policy the thresholds pick (NaN when that policy was not timed).
double decided_ms(const SplitCase& c, const planners::SplitThresholds& t, std::string* policy = nullptr);
bool is_unified(const std::string& policy);

}  // namespace hetsparse::bench
