// The level-ordered solve on the stage (supernode_solve.hpp), serially: the reference of the CUDA
// kernels and the CPU half of their task. Each supernode goes through the panel kernels on its own
// rows of the stage, the rows below through a compact work block; the classes do not matter here.
#include <algorithm>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

void check(const char* routine, const LevelSolvePanels& panels, const LevelSolveSchedule& s,
           const PanelLocation* loc, const std::int32_t* rows, const double* stage, int ldn, int nrhs) {
  if (s.levels < 0 || nrhs < 0 || ldn < 0)
    throw InvalidArgument(std::string(routine) + ": levels = " + std::to_string(s.levels) + ", nrhs = " +
                          std::to_string(nrhs) + ", ldn = " + std::to_string(ldn));
  if (s.levels == 0 || nrhs == 0) return;
  if (!s.segments || !loc || !rows || !stage) throw InvalidArgument(std::string(routine) + ": a null array");
  for (int k = 0; k < 3 * s.levels; ++k)
    if (s.segments[k + 1] < s.segments[k] || s.segments[0] < 0)
      throw InvalidArgument(std::string(routine) + ": segment " + std::to_string(k) + " ends before it starts");
  if (s.segments[3 * s.levels] > s.segments[0] && !s.entries)
    throw InvalidArgument(std::string(routine) + ": entries are null");
  for (std::int32_t e = s.segments[0]; e < s.segments[3 * s.levels]; ++e) {
    const LevelSolveEntry& it = s.entries[e];
    if (it.group < 0 || it.group >= kLevelSolveMaxGroups || !panels.values[it.group] || it.supernode < 0 ||
        it.offset < 0)
      throw InvalidArgument(std::string(routine) + ": entry " + std::to_string(e) + " (supernode " +
                            std::to_string(it.supernode) + ", group " + std::to_string(it.group) +
                            ") has no panels");
    const PanelLocation& l = loc[it.supernode];
    if (l.ncols < 1 || l.nrows < l.ncols || std::int64_t(l.first_col) + l.ncols > ldn)
      throw InvalidArgument(std::string(routine) + ": supernode " + std::to_string(it.supernode) + " (" +
                            std::to_string(l.nrows) + " x " + std::to_string(l.ncols) + " from column " +
                            std::to_string(l.first_col) + ") does not fit the stage's " + std::to_string(ldn) +
                            " rows");
  }
}

ConstPanelRef panel(const LevelSolvePanels& panels, const LevelSolveEntry& it, const PanelLocation* loc,
                    const std::int32_t* rows) {
  const PanelLocation& l = loc[it.supernode];
  return {panels.values[it.group] + it.offset, rows + l.row_begin, l.nrows, l.ncols, l.first_col};
}

std::size_t at(std::int64_t i, std::int64_t r, std::int64_t ld) { return static_cast<std::size_t>(i + r * ld); }

// Rows below every panel of the schedule must lie in the stage.
void check_rows(const char* routine, const ConstPanelRef& p, int ldn) {
  for (int i = p.ncols; i < p.nrows; ++i)
    if (p.rows[i] < 0 || p.rows[i] >= ldn)
      throw InvalidArgument(std::string(routine) + ": row " + std::to_string(p.rows[i]) + " of the supernode at column " +
                            std::to_string(p.first_col) + " lies outside the stage's " + std::to_string(ldn) + " rows");
}

}  // namespace

void supernode_levels_forward_cpu(const LevelSolvePanels& panels, const LevelSolveSchedule& s,
                                    const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn,
                                    int nrhs) {
  constexpr const char* routine = "supernode_levels_forward_cpu";
  check(routine, panels, s, loc, rows, stage, ldn, nrhs);
  if (s.levels == 0 || nrhs == 0) return;
  std::vector<double> below;
  for (std::int32_t e = s.segments[0]; e < s.segments[3 * s.levels]; ++e) {
    const ConstPanelRef p = panel(panels, s.entries[e], loc, rows);
    check_rows(routine, p, ldn);
    const int m = p.nrows - p.ncols;
    below.resize(std::max<std::size_t>(1, at(m, nrhs - 1, m) + 1));
    supernode_panel_forward_cpu(p, stage + p.first_col, ldn, below.data(), std::max(1, m), nrhs);
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < m; ++i) stage[at(p.rows[p.ncols + i], r, ldn)] -= below[at(i, r, m)];
  }
}

void supernode_levels_backward_cpu(const LevelSolvePanels& panels, const LevelSolveSchedule& s,
                                     const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn,
                                     int nrhs) {
  constexpr const char* routine = "supernode_levels_backward_cpu";
  check(routine, panels, s, loc, rows, stage, ldn, nrhs);
  if (s.levels == 0 || nrhs == 0) return;
  std::vector<double> below;
  for (std::int32_t e = s.segments[3 * s.levels] - 1; e >= s.segments[0]; --e) {
    const ConstPanelRef p = panel(panels, s.entries[e], loc, rows);
    check_rows(routine, p, ldn);
    const int m = p.nrows - p.ncols;
    below.resize(std::max<std::size_t>(1, at(m, nrhs - 1, m) + 1));
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < m; ++i) below[at(i, r, m)] = stage[at(p.rows[p.ncols + i], r, ldn)];
    supernode_panel_backward_cpu(p, stage + p.first_col, ldn, below.data(), std::max(1, m), nrhs);
  }
}

}  // namespace hetsparse::kernels
