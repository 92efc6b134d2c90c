// The split model's measured tie-break: where the cost models cannot separate the best two or three
// policies (predicted within a margin of each other) and the predicted solve is cheap, time those
// candidates live at setup (a warm-up each, then rounds of a few back-to-back solves each; median)
// and keep the fastest. Small triangles are where the models' error is of the order of the gaps
// between policies (one core, the CPUs' level-scheduled task and the GPU close to each other), and
// where a few solves cost little next to the setup. Pure logic: the caller times a solve.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "planners/split_sptrsv_decision.hpp"

namespace hetsparse::planners {

// Two medians within this ratio are a close call (the measurement's extra rounds).
inline constexpr double kCloseCall = 1.1;

struct SplitMeasureOptions {
  bool enabled = true;
  // Candidates: policies predicted within margin x the best prediction (the decided one always).
  // Wide enough for the cost models' error on small triangles, where the GPU's model runs high
  // (replays of the measured corpus, docs/benchmarks.md, issue 17).
  double margin = 2.0;
  // Only when the best prediction is at most this many milliseconds.
  double max_predicted_ms = 2.0;
  int max_candidates = 3;
  // After one warm-up each (its lazy preparation), `rounds` turns per candidate, each one untimed
  // solve (it meets caches and workers as the previous candidate left them) and `solves` timed ones
  // back to back: the repeated solves a user runs, which single interleaved solves are not (they
  // found the CPUs' level-scheduled task and the GPU away from their steady state).
  int rounds = 3;
  int solves = 2;
  // Then, while the best two medians are within kCloseCall of each other, up to this many more
  // rounds of those two alone.
  int extra_rounds = 6;

  // "off", "on", or "on:" / "" followed by "key=value" pairs separated by commas, keys margin,
  // max-ms, candidates, rounds, solves, extra (e.g. "on:margin=1.3,solves=3"; extra may be 0).
  // InvalidArgument naming the bad part.
  static SplitMeasureOptions parse(const std::string& text);
  std::string to_string() const;  // parse(to_string()) gives this back
};

// The policies worth timing for `d`, best prediction first, the decided policy among them (a GPU-GPU
// decision, which the cost models do not predict, brings the unified GPU as its alternative). A split
// whose predicted setup (d.setup_ms) would not pay back over d.expected_solves even at margin x its
// predicted speed is left out. Empty when measuring is off, when the models are confident (no second
// candidate within the margin) or when the solve is predicted expensive; `why` (optional) says which.
std::vector<SplitPolicy> measure_candidates(const SplitDecision& d, const SplitMeasureOptions& o,
                                            std::string* why = nullptr);

struct MeasuredPolicy {
  SplitPolicy policy = SplitPolicy::UnifiedCpu;
  double predicted_ms = 0;     // NaN where the models have none (GPU-GPU)
  double measured_ms = 0;      // median of the timed solves; NaN when it failed
  std::string error;           // what the timer threw
};

struct SplitMeasurement {
  bool measured = false;       // false: the model's decision stands ("model")
  std::string why;             // why not measured, or what was measured
  std::vector<MeasuredPolicy> candidates;
  SplitPolicy pick = SplitPolicy::UnifiedCpu;
  double seconds = 0;          // the whole measurement: candidates' setups, warm-ups, timed solves
  const char* how() const { return measured ? "measured" : "model"; }
  std::string describe() const;  // "measured: cpu 0.102 ms, gpu 0.131 ms -> cpu" or "model (why)"
};

// Times one solve of a policy, in seconds (its first call may prepare the candidate: the warm-up).
// It may throw: that candidate is dropped.
using SolveTimer = std::function<double(SplitPolicy)>;

// One warm-up per candidate and a second untimed solve each, then o.rounds rounds over the
// candidates (each round starting one further on, so no policy always follows the same one), each
// candidate's turn one untimed and o.solves timed solves, then the close call's extra rounds; the
// lowest median wins. With no candidate left that solved, the decided policy stands (measured =
// false). `seconds` is left to the caller (it includes the candidates' setups).
SplitMeasurement measure_split(const SplitDecision& d, const std::vector<SplitPolicy>& candidates,
                               const SplitMeasureOptions& o, const SolveTimer& timer);

}  // namespace hetsparse::planners
