// "auto" scheme selection for the SpTRSV engine, in two modes:
//   search: time the candidate schemes (candidate_schemes: plain variants, cusparse, the pruned AG
//           space) on the device within a time budget, keep the fastest correct one, cache it under
//           the pattern's fingerprint and the GPU name (a second analyze of the same pattern reuses
//           it), and append the full timing table to the store (the model's training data);
//   model:  predict the scheme from the features with the trained SchemeModel, no timing.
// Default: model when a model file exists for this GPU or its architecture (find_model_file), else
// the fixed heuristic with the level-profile rule (heuristic_pick): a search takes seconds, so it is
// asked for, never the default. Without a GPU: the fixed heuristic (heuristic_scheme).
#pragma once
#include <cstdint>
#include <string>

#include "sptrsv/analysis.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::sptrsv {

enum class SelectMode { Default, Search, Model };
// "default" (or ""), "search", "model"; InvalidArgument naming anything else.
SelectMode parse_select_mode(const std::string& s);

struct SelectionOptions {
  SelectMode mode = SelectMode::Default;
  std::string perfmodel_dir;  // "" : $STARPU_PERF_MODEL_DIR, else ~/.cache/hetsparse/perfmodels
  bool use_cache = true;       // search: reuse / store the winner for this fingerprint
  bool record_timings = true;  // search: append the timing table to the store
  std::string matrix_name;     // for the timing table
  // Solves the caller expects with this pattern: a scheme's preparation is weighed against them
  // (model mode: adjust_for_preparation; search: preparation + this many solves, the least wins).
  int expected_solves = 100;
  SchemeTimingOptions timing = {2, 5, 1e-8, 30.0};  // 2 warm-ups, median of 5, 30 s budget
};

struct Selection {
  std::string scheme;
  // How it was chosen: "search", "search-cache", "model", or "heuristic" (no GPU to time on).
  std::string how;
  std::string note;       // e.g. why model mode fell back to search
  std::string gpu;        // device name ("" without one)
  double seconds = 0;     // wall time of the selection (search: preparations + timed solves)
  std::uint64_t fingerprint = 0;  // search only (a pass over the pattern): 0 for model and heuristic
  // Search mode with a model for this GPU: what the model would have picked and its time over the
  // searched best (1 = the model found the best; 0 = unknown, e.g. no model or cache hit).
  std::string model_prediction;
  double model_ratio = 0;
  double best_ms = 0;     // search: the winner's median
  SchemeTimings timings;  // search: every candidate's entry (empty on a cache hit)
};

// Below this many expected solves the model's powered pick gives way to its best unpowered one: a
// powered form's host transform and analysis cost 300-1000 solves of its scheme on the H100 anchors
// (docs/benchmarks.md, issue 16), more than the solves it saves.
constexpr int kPoweredPaybackSolves = 1000;
// pow4:clusterlevels, transformed on the GPU, against clusterlevels on 2D 5-point meshes in sweep
// order: 70-80 ms more preparation through the solver (cuSPARSE set-up and the GPU analysis included) for 45-60 % less a solve (docs/benchmarks.md, issue 16).
constexpr int kPoweredClusterPaybackSolves = 80;

// The model's pick adjusted for preparation and the level profile (model mode): a powered pick gives
// way to the best unpowered one below kPoweredPaybackSolves expected solves; then wavefront, when it is
// a candidate (any row length: long rows are warp rows), whatever the pick but a
// powered one on rows of at most 3 entries that still stands; where it is not, a deep DAG (at least
// 64 levels) of short rows (at most 5 entries) whose fullest level fits two 1024-thread blocks goes to
// clusterlevels when that is a candidate (pow4:clusterlevels for rows of <= 3 entries from
// kPoweredClusterPaybackSolves expected solves on), unless a powered pick stands. `note` says what
// changed. model_best_unpowered: the model's pick among the unpowered candidates (computed by the
// caller, "" if none).
// Before all that, long rows in narrow levels (cluster_rows_lanes) go to clusterlevels with groups of
// lanes ("clusterlevels:lanes=L") when clusterlevels is a candidate and no powered pick stands.
std::string adjust_for_preparation(const std::string& predicted, const std::string& model_best_unpowered,
                                   const TriangularFeatures& f, const std::vector<std::string>& candidates,
                                   int expected_solves, std::string& note);

// The lanes a row for clusterlevels on this profile, 0 where wavefront is the better kernel. At least 32
// levels, and rows of at least 16 off-diagonals on average in levels of at most 512 rows (8 or 32
// lanes), or rows of at least 6 entries in levels of at most 16 rows on average and 64 at most (4).
int cluster_rows_lanes(const TriangularFeatures& f);

// The fixed rule used when nothing can be timed or predicted: PDE-like rows (at most 32 entries,
// length CoV below 1) -> syncfree_levelorder, anything else -> yuenyeung.
std::string heuristic_scheme(const TriangularFeatures& f);

Selection select_scheme(const TriangularPattern& p, const SelectionOptions& options);

// Model mode without a host pattern (TriangularSolver::analyze_device): the trained model's pick
// among `candidates`, else the fixed heuristic (how = "heuristic", note says why). No search.
Selection select_scheme_by_model(const TriangularFeatures& f, const std::vector<std::string>& candidates,
                                 const SelectionOptions& options);

// Whether select_scheme would choose without a search: not SelectMode::Search, a GPU, and Default
// mode or a model file for it (mode Model without one searches).
bool selects_by_model(const SelectionOptions& options);

// The fastest "ok" entry, or nullptr.
const SchemeTiming* fastest(const SchemeTimings& t);
// The "ok" entry of least preparation + expected_solves solves (the search's pick), or nullptr.
const SchemeTiming* cheapest(const SchemeTimings& t, int expected_solves);

// heuristic_scheme adjusted as a model's pick is (adjust_for_preparation: the level-profile rule).
std::string heuristic_pick(const TriangularFeatures& f, const std::vector<std::string>& candidates, int expected_solves,
                           std::string& note);

}  // namespace hetsparse::sptrsv
