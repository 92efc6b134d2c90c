// bench_sptrsv_split report: the figures from measured tables, as markdown: how often the
// decision picks the fastest policy (within 5 %), the speedup over the best unified policy, the
// triangles a split wins, and the setup cost in solves (the live auto solver's, on the anchors).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "bench/split_cases.hpp"
#include "bench/split_fit.hpp"
#include "cli/args.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::bench {
namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::lround(q * static_cast<double>(v.size() - 1)))];
}

std::string ms_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, std::isfinite(v) ? "%.4g" : "n/a", v);
  return b;
}

}  // namespace

int split_report(int argc, char** argv) {
  cli::ArgParser p("bench_sptrsv_split report", "The split model's figures from measured tables, as markdown.");
  p.option("input", "TABLES", "comma-separated tables", "")
      .option("split-model", "FILE", "replay the decision with these thresholds (default: the table's own decision)", "")
      .option("decision", "table|live",
              "table: the model's decision the run recorded (column decided); live: the auto solver's own, "
              "measured tie-break included (column auto_policy)",
              "table");
  if (!p.parse(argc, argv)) return 0;
  const bool live_decision = p.get("decision") == "live";
  if (!live_decision && p.get("decision") != "table")
    throw InvalidArgument("report: --decision " + p.get("decision") + " (table or live)");
  const std::vector<SplitCase> cases = load_cases(cli::split_list(p.get("input"), ','));
  if (cases.empty()) throw InvalidArgument("report: no measured triangle in " + p.get("input"));
  const bool replay = !p.get("split-model").empty();
  planners::SplitThresholds t;
  if (replay) {
    std::ifstream in(p.get("split-model"));
    if (!in) throw InvalidArgument("report: cannot read " + p.get("split-model"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    t = planners::SplitThresholds::from_tsv(text, p.get("split-model"));
  }
  int within = 0, fastest = 0, at_least_1 = 0, at_least_095 = 0, live_agrees = 0, measured = 0, measured_within = 0;
  int own_1 = 0, own_095 = 0, own_timed = 0;  // the auto solver's own median against the best unified
  std::vector<double> speedups, measure_ms, measure_solves;  // the tie-break's cost, in ms and in solves
  std::map<std::string, int> decided_count, best_count;
  std::string rows, winners, anchors;
  for (const SplitCase& c : cases) {
    const std::string live = c.row.count("auto_policy") ? c.row.at("auto_policy") : "";
    std::string decided = live_decision ? live : c.decided;
    double ms = c.ms.count(decided) ? c.ms.at(decided) : std::nan("");
    if (replay) ms = decided_ms(c, t, &decided);
    ++decided_count[decided];
    ++best_count[c.best];
    within += ms <= 1.05 * c.best_ms;
    fastest += decided == c.best;
    const double speedup = std::isfinite(ms) ? c.best_unified_ms / ms : 0.0;
    speedups.push_back(speedup);
    at_least_1 += speedup >= 1.0;
    at_least_095 += speedup >= 0.95;
    live_agrees += live == c.decided;
    const bool was_measured = c.row.count("auto_how") && c.row.at("auto_how") == "measured";
    measured += was_measured;
    measured_within += was_measured && ms <= 1.05 * c.best_ms;
    if (was_measured) {
      measure_ms.push_back(number(c.row, "auto_measure_s") * 1e3);
      measure_solves.push_back(measure_ms.back() / number(c.row, "auto_ms"));
    }
    const double auto_ms = number(c.row, "auto_ms");
    if (std::isfinite(auto_ms)) {
      ++own_timed;
      own_1 += c.best_unified_ms / auto_ms >= 1.0;
      own_095 += c.best_unified_ms / auto_ms >= 0.95;
    }
    rows += "| " + c.name + " | " + c.row.at("rows") + " | " + c.row.at("NL") + " | " + c.best + " " + ms_text(c.best_ms) +
            " | " + c.best_unified + " " + ms_text(c.best_unified_ms) + " | " + decided + " " + ms_text(ms) + " | " +
            ms_text(speedup) + " | " + (ms <= 1.05 * c.best_ms ? "yes" : "**no**") + " | " + live + " " +
            ms_text(auto_ms) + (was_measured ? " (measured)" : "") + " |\n";
    if (!is_unified(c.best) && c.best_ms < c.best_unified_ms)
      winners += "| " + c.name + " | " + c.best + " | " + ms_text(c.best_ms) + " | " + c.best_unified + " " +
                 ms_text(c.best_unified_ms) + " | " + ms_text(c.best_unified_ms / c.best_ms) + "x | " + decided + " |\n";
    if (c.name.rfind("anchor", 0) == 0) {
      const double setup = number(c.row, "auto_setup_s"), split_setup = number(c.row, "auto_split_setup_s");
      anchors += "| " + c.name + " | " + live + " | " + ms_text(auto_ms) + " | " + ms_text(setup * 1e3) + " | " +
                 ms_text(setup * 1e3 / auto_ms) + " | " + ms_text(split_setup * 1e3) + " | " +
                 ms_text(split_setup * 1e3 / auto_ms) + " |\n";
    }
  }
  const double n = static_cast<double>(cases.size());
  std::printf("%zu triangles; decision %s.\n\n", cases.size(),
              replay          ? ("replayed with " + p.get("split-model")).c_str()
              : live_decision ? "the live auto solver's (column auto_policy; measured tie-break included)"
                              : "the model's, as made in the run (column decided)");
  std::printf("- decided policy within 5 %% of the fastest: %d / %zu (%.1f %%); exactly the fastest: %d\n", within,
              cases.size(), 100 * within / n, fastest);
  std::printf("- speedup of the decided policy over the best unified one >= 1.0: %d / %zu (%.1f %%); >= 0.95: %d (%.1f %%)\n",
              at_least_1, cases.size(), 100 * at_least_1 / n, at_least_095, 100 * at_least_095 / n);
  std::printf("- speedup distribution: min %.3g, 10th percentile %.3g, median %.3g, 90th %.3g, max %.3g\n",
              quantile(speedups, 0), quantile(speedups, 0.1), quantile(speedups, 0.5), quantile(speedups, 0.9),
              quantile(speedups, 1));
  std::printf("- the auto solver's own median (its policy timed as one more, not the policy's column) over the best "
              "unified policy >= 1.0: %d / %d; >= 0.95: %d\n",
              own_1, own_timed, own_095);
  std::printf("- the live auto solver made the model's decision on %d / %zu; it measured on %d (within 5 %%: %d)\n",
              live_agrees, cases.size(), measured, measured_within);
  if (!measure_ms.empty())
    std::printf("- the measurement's setup: median %.3g ms (%.3g solves), max %.3g ms (%.3g solves)\n",
                quantile(measure_ms, 0.5), quantile(measure_solves, 0.5), quantile(measure_ms, 1),
                quantile(measure_solves, 1));
  std::printf("- decided:");
  for (const auto& [k, v] : decided_count) std::printf(" %s %d", k.c_str(), v);
  std::printf("; fastest:");
  for (const auto& [k, v] : best_count) std::printf(" %s %d", k.c_str(), v);
  std::printf("\n\nTriangles where a split is the fastest policy:\n\n| triangle | split | ms | best unified (ms) | speedup | decided |\n|---|---|---|---|---|---|\n%s",
              winners.c_str());
  std::printf("\nSetup of the auto solver on the anchors (preprocess: host analysis + decision + split data + parts' "
              "analyses and preparations; split: all but the host analysis):\n\n| anchor | auto | solve ms | preprocess ms "
              "| in solves | split setup ms | in solves |\n|---|---|---|---|---|---|---|\n%s",
              anchors.c_str());
  std::printf("\nEvery triangle (ms: median wall time of TriangularSolver::solve):\n\n| triangle | rows | levels | fastest "
              "| best unified | decided | speedup | within 5 %% | live auto |\n|---|---|---|---|---|---|---|---|---|\n%s",
              rows.c_str());
  return 0;
}

}  // namespace hetsparse::bench
