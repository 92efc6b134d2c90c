// Inputs of the level-ordered solve (kernels::supernode_levels_*): a matrix's supernodal structure,
// factor layout and level plan, and random panels of the whole factor (diagonal in [1, 2), other
// entries of the lower trapezoids uniform on [-1, 1) / 4 of the columns, the strict upper triangles
// of the diagonal blocks NaN: never read). Header-only: the includer links planners and symbolic.
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "planners/supernodal_solve.hpp"
#include "sparse/convert.hpp"
#include "sparse/random.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::test {

struct LevelSolveProblem {
  cholesky::SymbolicFactor sym;
  planners::FactorLayout layout;
  planners::LevelSolvePlan plan;
  std::vector<double> values;

  LevelSolveProblem(const Csr& A, double subtree_max_flops, const planners::LevelSolveOptions& o, std::uint64_t seed)
      : sym(cholesky::analyze(triangle(A, Triangle::Lower))),
        layout(planners::plan_factor_layout(sym, subtree_max_flops)),
        plan(planners::plan_level_solve(sym, layout, o)) {
    const kernels::PanelLocation& last = layout.loc.back();
    values.assign(std::size_t(last.value_offset) + std::size_t(last.nrows) * last.ncols, 0.0);
    Rng rng(seed);
    for (const kernels::PanelLocation& l : layout.loc)
      for (int c = 0; c < l.ncols; ++c)
        for (int i = 0; i < l.nrows; ++i) {
          double& v = values[std::size_t(l.value_offset) + i + std::size_t(c) * l.nrows];
          v = i < c ? std::numeric_limits<double>::quiet_NaN()
              : i == c ? uniform(rng, 1.0, 2.0)
                       : uniform(rng, -1.0, 1.0) / (4.0 * l.ncols);
        }
  }
  // A chunk's panels as the kernels take them, from the factor's values at `base` (host or device).
  kernels::LevelSolvePanels panels(const planners::LevelSolveChunk& c, const double* base) const {
    kernels::LevelSolvePanels p{};
    for (std::size_t k = 0; k < c.groups.size(); ++k)
      p.values[k] = base + layout.loc[layout.group_begin[c.groups[k]]].value_offset;
    return p;
  }
  kernels::LevelSolveSchedule schedule(const planners::LevelSolveChunk& c, const kernels::LevelSolveEntry* entries) const {
    return {entries, c.segments.data(), c.tiles.data(), c.wide.data(), static_cast<int>(c.tiles.size())};
  }
};

}  // namespace hetsparse::test
