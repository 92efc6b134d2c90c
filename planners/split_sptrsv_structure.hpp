// DAG discovery of the split-execution model for SpTRSV (Ahmad, Yilmaz, Unat, "A Split Execution
// Model for SpTRSV", shared/papers/split-execution-sptrsv.txt, sections 4.1-4.2): the features its
// flowchart reads, and the candidate cut of each split kind. A cut at level L makes part 1 of the
// levels [0, L) and part 2 of [L, levels); every quantity here is independent of the decision's
// thresholds (split_sptrsv_decision.hpp), so a forced split and a decided one cut at the same level
// and a calibration can replay decisions from these numbers alone. Host code on a normalised
// triangle with its level schedule (kernels::TriangularView); no runtime.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sparse/types.hpp"

namespace hetsparse::planners {

inline constexpr int kGpuFamilies = 3;

struct SplitStructureOptions {
  // m: a level with at least this many rows is parallel friendly (PFL); the others are serial
  // friendly (SFL). The paper's 200.
  std::int64_t pf_min_rows = 200;
  // CPU-GPU slicing: a level of fewer entries than this is cheaper on one CPU core than the GPU's
  // step from one level to the next (~1.4 us for the sync-free kernels against ~1.5 ns an entry
  // of serial substitution); the cut maximises the sum of 1 - entries / breakeven over the CPU side.
  double breakeven_entries = 1024.0;
  // CPU-CPU slicing (Bradley's HTS): a level of at least hts_good_rows rows is good; the cut follows
  // the deepest good level whose prefix holds at most hts_bad_fraction of its rows in bad levels.
  std::int64_t hts_good_rows = 200;
  double hts_bad_fraction = 0.1;
  // GPU-GPU single-algorithm slicing: warp width, and the paper's d: a row needing at least this
  // many warp iterations (32 entries each) stays in part 1, so the SpMV never gets it.
  std::int64_t warp = 32;
  std::int64_t max_spmv_row_iterations = 75;
  // The single-algorithm candidate costs two passes over the entries (the others O(levels)).
  bool single_algorithm = true;
  // A level of at least this many entries is shared out by the CPUs' level-scheduled task (two
  // shares of kParallelTaskMinEntries); the cost models count such "wide" levels apart.
  std::int64_t wide_entries = 4096;
  // The longest column (entries, diagonal included) and SasCut::bound, where the analysis counted
  // them already (TriangularFeatures): with both >= 0 and a warp of kernels::kColumnWarp, the
  // structure counts the columns only to compute the single-algorithm cut.
  std::int64_t known_longest_column = -1;
  std::int64_t known_iteration_bound = -1;
};

// Sizes of a range of levels: what the cost models (split_sptrsv_decision.hpp) read.
struct LevelRange {
  std::int64_t rows = 0, nnz = 0, levels = 0;
  std::int64_t wide_levels = 0, wide_nnz = 0;  // levels of at least wide_entries entries, and their entries
};
LevelRange level_range(const index_t* level_ptr, const std::int64_t* level_nnz, index_t begin, index_t end,
                       std::int64_t wide_entries);

// CPU-GPU two-algorithm split: the serial-friendly side on one CPU core, the other on the GPU.
struct CpuGpuCut {
  index_t level = 0;            // 0: no cut gains anything
  bool parallel_first = false;  // the GPU side is part 1 (thin levels at the end of the DAG)
  double gain_levels = 0.0;     // the slicing score at the cut
  double cpu_levels_pct = 0.0;  // share of the levels on the CPU side
  double cpu_rows_pct = 0.0;    // share of the rows on the CPU side
  double gpu_pf_rows_pct = 0.0;  // share of the GPU side's rows in parallel-friendly levels
  LevelRange cpu_side, gpu_side;
};

// CPU-CPU split: part 1 level-scheduled over the CPU workers, part 2 serial substitution.
struct HtsCut {
  index_t level = 0;  // 0: no good level qualifies, or the whole DAG does (nothing to split off)
  double part1_rows_pct = 0.0;
  double part1_nnz_pct = 0.0;
  std::int64_t part2_levels = 0;
  LevelRange part1, part2;
};

// GPU-GPU single-algorithm split: long columns' entries below the cut move into the SpMV.
struct SasCut {
  index_t level = 0;             // 0: no long column, or no admissible level saves anything
  std::int64_t savings = 0;      // warp iterations saved over the long columns at the cut
  std::int64_t a21_nnz = 0;      // entries of the SpMV block at the cut
  std::int64_t long_columns = 0;  // columns of more than one warp's entries
  // The most any cut can save: every long column's iterations over a warp (its readers all below
  // the cut). From the column lengths alone, so known before the cut is computed.
  std::int64_t bound = 0;
};

struct SplitStructure {
  std::int64_t rows = 0, nnz = 0, levels = 0;  // nnz: stored entries, diagonal included
  double ap = 0.0;       // AP: rows / levels
  double arl = 0.0;      // ARL: nnz / rows
  double sfl_pct = 0.0;  // SFL: % of the levels with fewer than pf_min_rows rows
  double pfr_pct = 0.0;  // PFR: % of the rows in parallel-friendly levels
  std::int64_t mcl = 0, mrl = 0;  // longest column and row, entries (diagonal included)
  std::int64_t pf_min_rows = 0;
  LevelRange all;  // the whole DAG
  // The scheme the GPU would run, for the GPU cost model (not structure: the caller sets it, e.g.
  // from the scheme model's pick): its family (kGpuFamilies: 0 a warp per row, syncfree and
  // yuenyeung; 1 a thread per row, capellini; 2 the others, cuSPARSE, level sets, AG), and the
  // steps it takes per level of the DAG (1/K for the powered form powK, else 1).
  int gpu_family = 0;
  double gpu_level_factor = 1.0;
  CpuGpuCut cpu_gpu;
  HtsCut hts;
  SasCut sas;
  double seconds = 0.0;  // wall time of analyse_split_structure
};

// t must carry its level schedule (level_ptr, level_rows, level_nnz). O(n + nnz + levels), plus two
// passes over the entries for the single-algorithm cut (sas.bound is set either way). InvalidArgument
// for bad options.
SplitStructure analyse_split_structure(const kernels::TriangularView& t, const SplitStructureOptions& options = {});

// The three slicings on their own (analyse_split_structure calls them), for tests.
CpuGpuCut slice_cpu_gpu(const index_t* level_ptr, const std::int64_t* level_nnz, index_t levels,
                        const SplitStructureOptions& options);
HtsCut slice_hts(const index_t* level_ptr, const std::int64_t* level_nnz, index_t levels,
                 const SplitStructureOptions& options);
// Two passes over the entries (the second in level order); analyse_split_structure skips it with
// single_algorithm off, and decide_split_with_cut (split_sptrsv_payback.hpp) asks for it only where
// the decision can use it and the bound says it may pay.
SasCut slice_single_algorithm(const kernels::TriangularView& t, const SplitStructureOptions& options);

// (name, value) of every field, the features under the paper's symbols (NL, AP, SFL, PFR, MCL, ...),
// the cuts as cg_*, hts_*, sas_*; and back (fields missing from the map keep their defaults), so a
// calibration can replay decisions from a table of these.
std::vector<std::pair<std::string, double>> structure_list(const SplitStructure& s);
SplitStructure structure_from_list(const std::map<std::string, double>& values);

// Row i's level from the view's level schedule.
std::vector<index_t> row_levels(const kernels::TriangularView& t);

}  // namespace hetsparse::planners
