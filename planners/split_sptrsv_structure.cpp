// Split-execution DAG discovery: features from the level schedule, and the three slicings.
#include "planners/split_sptrsv_structure.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"

namespace hetsparse::planners {
namespace {

double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

std::int64_t rows_of(const index_t* level_ptr, index_t l) { return level_ptr[l + 1] - level_ptr[l]; }

void check(const SplitStructureOptions& o) {
  if (o.pf_min_rows < 1 || !(o.breakeven_entries > 0) || o.hts_good_rows < 1 || !(o.hts_bad_fraction >= 0) ||
      o.hts_bad_fraction > 1 || o.warp < 1 || o.max_spmv_row_iterations < 1 || o.wide_entries < 1) {
    throw InvalidArgument("analyse_split_structure: options out of range (pf_min_rows, hts_good_rows, warp and "
                          "max_spmv_row_iterations >= 1, breakeven_entries > 0, hts_bad_fraction in [0, 1])");
  }
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

LevelRange level_range(const index_t* level_ptr, const std::int64_t* level_nnz, index_t begin, index_t end,
                       std::int64_t wide_entries) {
  LevelRange r;
  for (index_t l = begin; l < end; ++l) {
    r.rows += rows_of(level_ptr, l);
    r.nnz += level_nnz[l];
    if (level_nnz[l] >= wide_entries) {
      ++r.wide_levels;
      r.wide_nnz += level_nnz[l];
    }
  }
  r.levels = end - begin;
  return r;
}

std::vector<index_t> row_levels(const kernels::TriangularView& t) {
  std::vector<index_t> level(static_cast<std::size_t>(t.n), 0);
  for (index_t l = 0; l < t.num_levels; ++l)
    for (index_t k = t.level_ptr[l]; k < t.level_ptr[l + 1]; ++k) level[static_cast<std::size_t>(t.level_rows[k])] = l;
  return level;
}

CpuGpuCut slice_cpu_gpu(const index_t* level_ptr, const std::int64_t* level_nnz, index_t levels,
                        const SplitStructureOptions& o) {
  CpuGpuCut best;
  if (levels < 2) return best;
  // A level's worth on the CPU side: positive when one core solves it faster than the GPU steps over it.
  const auto worth = [&](index_t l) { return 1.0 - static_cast<double>(level_nnz[l]) / o.breakeven_entries; };
  double prefix = 0.0;
  for (index_t cut = 1; cut < levels; ++cut) {  // serial first: the CPU takes [0, cut)
    prefix += worth(cut - 1);
    if (prefix > best.gain_levels) best = {cut, false, prefix};
  }
  double suffix = 0.0;
  for (index_t cut = levels - 1; cut >= 1; --cut) {  // parallel first: the CPU takes [cut, levels)
    suffix += worth(cut);
    if (suffix > best.gain_levels) best = {cut, true, suffix};
  }
  if (best.level == 0) return best;
  const std::int64_t rows = level_ptr[levels];
  const index_t cpu_begin = best.parallel_first ? best.level : 0, cpu_end = best.parallel_first ? levels : best.level;
  const index_t gpu_begin = best.parallel_first ? 0 : best.level, gpu_end = best.parallel_first ? best.level : levels;
  std::int64_t gpu_rows = 0, gpu_pf_rows = 0;
  for (index_t l = gpu_begin; l < gpu_end; ++l) {
    gpu_rows += rows_of(level_ptr, l);
    if (rows_of(level_ptr, l) >= o.pf_min_rows) gpu_pf_rows += rows_of(level_ptr, l);
  }
  best.cpu_levels_pct = pct(cpu_end - cpu_begin, levels);
  best.cpu_rows_pct = pct(static_cast<double>(level_ptr[cpu_end] - level_ptr[cpu_begin]), static_cast<double>(rows));
  best.gpu_pf_rows_pct = pct(static_cast<double>(gpu_pf_rows), static_cast<double>(gpu_rows));
  best.cpu_side = level_range(level_ptr, level_nnz, cpu_begin, cpu_end, o.wide_entries);
  best.gpu_side = level_range(level_ptr, level_nnz, gpu_begin, gpu_end, o.wide_entries);
  return best;
}

HtsCut slice_hts(const index_t* level_ptr, const std::int64_t* level_nnz, index_t levels,
                 const SplitStructureOptions& o) {
  HtsCut cut;
  std::int64_t cumulative = 0, bad = 0;
  index_t last = -1;  // the deepest qualifying good level
  for (index_t l = 0; l < levels; ++l) {
    const std::int64_t r = rows_of(level_ptr, l);
    cumulative += r;
    if (r < o.hts_good_rows) {
      bad += r;
    } else if (static_cast<double>(bad) <= o.hts_bad_fraction * static_cast<double>(cumulative)) {
      last = l;
    }
  }
  if (last < 0 || last + 1 >= levels) return cut;  // nothing qualifies, or nothing is left for part 2
  cut.level = last + 1;
  std::int64_t nnz = 0, part1_nnz = 0;
  for (index_t l = 0; l < levels; ++l) {
    nnz += level_nnz[l];
    if (l < cut.level) part1_nnz += level_nnz[l];
  }
  cut.part1_rows_pct = pct(level_ptr[cut.level], level_ptr[levels]);
  cut.part1_nnz_pct = pct(static_cast<double>(part1_nnz), static_cast<double>(nnz));
  cut.part2_levels = levels - cut.level;
  cut.part1 = level_range(level_ptr, level_nnz, 0, cut.level, o.wide_entries);
  cut.part2 = level_range(level_ptr, level_nnz, cut.level, levels, o.wide_entries);
  return cut;
}

namespace {

// The single-algorithm slicing from the columns' entry counts (diagonal included).
SasCut single_algorithm_cut(const kernels::TriangularView& t, const std::vector<index_t>& column,
                            const SplitStructureOptions& o) {
  SasCut cut;
  const index_t n = t.n, levels = t.num_levels;
  if (levels < 2) return cut;
  // Per row: its level and its column's off-diagonal entries, side by side (one load per entry below).
  struct Row {  // 8 bytes: the loop below reads one at random per entry
    index_t level;
    index_t len;
  };
  std::vector<Row> row(static_cast<std::size_t>(n));
  for (index_t l = 0; l < levels; ++l)
    for (index_t k = t.level_ptr[l]; k < t.level_ptr[l + 1]; ++k) row[t.level_rows[k]].level = l;
  index_t heavy_level = -1;  // the deepest level of a row too long for the SpMV
  for (index_t i = 0; i < n; ++i) {
    row[i].len = column[i] - 1;
    if (ceil_div(t.rowptr[i + 1] - t.rowptr[i] - 1, o.warp) >= o.max_spmv_row_iterations)
      heavy_level = std::max(heavy_level, row[i].level);
  }
  // savings(L) and the SpMV's entries a21(L) as difference arrays over the cut level L. Column j
  // saves ceil(len / w) - 1 extra iterations once the cut passes it (L > level j: its readers all
  // go to the SpMV), and one fewer each time a further warp of its readers (the (w k + 1)-th in
  // level order) falls above the cut again; rows taken in level order meet them in that order, so
  // no sort is needed. Entry (i, j) is in A21 for level j < L <= level i.
  std::vector<std::int64_t> diff(static_cast<std::size_t>(levels) + 2, 0), a21(diff.size(), 0);
  for (index_t j = 0; j < n; ++j) {
    if (row[j].len <= o.warp) continue;
    ++cut.long_columns;
    cut.bound += ceil_div(row[j].len, o.warp) - 1;
    diff[static_cast<std::size_t>(row[j].level) + 1] += ceil_div(row[j].len, o.warp) - 1;
  }
  if (cut.long_columns == 0) return cut;
  std::vector<index_t> seen(static_cast<std::size_t>(n), 0);  // readers of each column met so far
  const bool copy = t.level_rowptr != nullptr && t.level_colind != nullptr;  // rows contiguous in level order
  for (index_t l = 0; l < levels; ++l) {
    for (index_t k = t.level_ptr[l]; k < t.level_ptr[l + 1]; ++k) {
      const index_t i = t.level_rows[k];
      const index_t* cols = copy ? t.level_colind + t.level_rowptr[k] : t.colind + t.rowptr[i];
      const index_t count = copy ? t.level_rowptr[k + 1] - t.level_rowptr[k] : t.rowptr[i + 1] - t.rowptr[i];
      for (index_t q = 0; q < count; ++q) {
        const index_t j = cols[q];
        if (j == i) continue;
        const Row& r = row[j];
        ++a21[static_cast<std::size_t>(r.level) + 1];
        --a21[static_cast<std::size_t>(l) + 1];
        if (r.len > o.warp && ++seen[j] > 1 && (seen[j] - 1) % o.warp == 0) --diff[static_cast<std::size_t>(l) + 1];
      }
    }
  }
  std::int64_t savings = 0, entries = 0;
  const index_t lowest = std::max<index_t>(1, heavy_level + 1);
  for (index_t cut_level = 1; cut_level < levels; ++cut_level) {
    savings += diff[static_cast<std::size_t>(cut_level)];
    entries += a21[static_cast<std::size_t>(cut_level)];
    if (cut_level >= lowest && savings > cut.savings) {
      cut.savings = savings;
      cut.level = cut_level;
      cut.a21_nnz = entries;
    }
  }
  return cut;
}

// SasCut::bound from the column lengths (diagonal included).
std::int64_t iteration_bound(const std::vector<index_t>& column, std::int64_t warp) {
  std::int64_t bound = 0;
  for (const std::int64_t c : column) bound += kernels::column_extra_warps(c, warp);
  return bound;
}

// Entries per column. 32-bit counters: the increments are random over n counters, so half the
// memory is about half the cache misses (rmat 22: 85 -> 45 ms on the development machine).
std::vector<index_t> column_counts(const kernels::TriangularView& t) {
  std::vector<index_t> column(static_cast<std::size_t>(t.n), 0);
  for (index_t p = 0; p < t.rowptr[t.n]; ++p) ++column[static_cast<std::size_t>(t.colind[p])];
  return column;
}

}  // namespace

SasCut slice_single_algorithm(const kernels::TriangularView& t, const SplitStructureOptions& o) {
  check(o);
  return single_algorithm_cut(t, column_counts(t), o);
}

SplitStructure analyse_split_structure(const kernels::TriangularView& t, const SplitStructureOptions& o) {
  check(o);
  const auto t0 = std::chrono::steady_clock::now();
  SplitStructure s;
  s.pf_min_rows = o.pf_min_rows;
  s.rows = t.n;
  s.levels = t.num_levels;
  if (t.n == 0) return s;
  if (t.level_ptr == nullptr || t.level_rows == nullptr || t.level_nnz == nullptr)
    throw InvalidArgument("analyse_split_structure: the view has no level schedule");
  s.nnz = t.rowptr[t.n];
  std::int64_t pf_levels = 0, pf_rows = 0;
  for (index_t l = 0; l < t.num_levels; ++l) {
    const std::int64_t r = rows_of(t.level_ptr, l);
    if (r >= o.pf_min_rows) {
      ++pf_levels;
      pf_rows += r;
    }
  }
  s.ap = static_cast<double>(s.rows) / static_cast<double>(s.levels);
  s.arl = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  s.sfl_pct = 100.0 - pct(static_cast<double>(pf_levels), static_cast<double>(s.levels));
  s.pfr_pct = pct(static_cast<double>(pf_rows), static_cast<double>(s.rows));
  for (index_t i = 0; i < t.n; ++i) s.mrl = std::max<std::int64_t>(s.mrl, t.rowptr[i + 1] - t.rowptr[i]);
  const bool known = o.known_longest_column >= 0 && o.known_iteration_bound >= 0 && o.warp == kernels::kColumnWarp;
  std::vector<index_t> column;
  if (known) {
    s.mcl = o.known_longest_column;
  } else {
    column = column_counts(t);
    s.mcl = *std::max_element(column.begin(), column.end());
  }
  s.all = level_range(t.level_ptr, t.level_nnz, 0, t.num_levels, o.wide_entries);
  s.cpu_gpu = slice_cpu_gpu(t.level_ptr, t.level_nnz, t.num_levels, o);
  s.hts = slice_hts(t.level_ptr, t.level_nnz, t.num_levels, o);
  if (o.single_algorithm && s.mcl - 1 > o.warp) {
    if (column.empty()) column = column_counts(t);
    s.sas = single_algorithm_cut(t, column, o);
  }
  s.sas.bound = known ? o.known_iteration_bound : iteration_bound(column, o.warp);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

}  // namespace hetsparse::planners
