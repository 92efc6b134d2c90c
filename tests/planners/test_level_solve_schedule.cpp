// The level-ordered solve: its plan (planners::plan_level_solve: every supernode once, after its
// children in the forward order, chunks of bounded size with the leaf subtrees first, the classes,
// tiles and wide list the kernels read) and its serial reference (kernels::supernode_levels_
// {forward,backward}_cpu over the plan) against the per-group CPU kernels of the task-graph solve
// run group after group in postorder, whose external blocks are moved into the stage by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "sparse/generators.hpp"
#include "tests/support/level_solve_problems.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

struct Case {
  const char* name;
  Csr A;
  double subtree_max_flops;
};

std::vector<Case> cases() {
  return {{"lap3d", laplacian_3d(16, 15, 14), 2e5},
          {"lap2d", laplacian_2d(70, 60), 1e6},
          {"elast3d", elasticity_3d(6, 6, 5), -1.0},
          {"lap3d_whole", laplacian_3d(14, 13, 12), 1e30},
          {"lap3d_no_subtrees", laplacian_3d(12, 11, 10), 0.0}};
}

planners::LevelSolveOptions options(int max_groups, int wide_min_cols) {
  planners::LevelSolveOptions o;
  o.max_groups = max_groups;
  o.wide_min_cols = wide_min_cols;
  return o;
}

TEST(LevelSolvePlan, EverySupernodeOnceAfterItsChildren) {
  for (const Case& c : cases()) {
    for (const auto& o : {options(3, 64), options(kernels::kLevelSolveMaxGroups, 1024)}) {
      const LevelSolveProblem p(c.A, c.subtree_max_flops, o, 1);
      const auto& lay = p.layout;
      std::map<index_t, std::pair<int, int>> at;  // supernode -> (chunk, level)
      bool tops_started = false;
      int wide = 0;
      for (std::size_t ci = 0; ci < p.plan.chunks.size(); ++ci) {
        const auto& ch = p.plan.chunks[ci];
        ASSERT_FALSE(ch.groups.empty());
        EXPECT_LE(ch.groups.size(), std::size_t(o.max_groups));
        const bool subtrees = lay.subtree[ch.groups.front()] != 0;
        for (index_t g : ch.groups) EXPECT_EQ(lay.subtree[g] != 0, subtrees) << c.name << ": a chunk mixes phases";
        if (!subtrees) tops_started = true;
        EXPECT_FALSE(subtrees && tops_started) << c.name << ": a subtree chunk after the groups above";
        const int L = static_cast<int>(ch.tiles.size());
        ASSERT_EQ(ch.segments.size(), std::size_t(3 * L + 1));
        std::size_t wi = 0;
        for (int l = 0; l < L; ++l) {
          std::int32_t tiles = 0;
          for (int cls = 0; cls < 3; ++cls)
            for (std::int32_t e = ch.segments[3 * l + cls]; e < ch.segments[3 * l + cls + 1]; ++e) {
              const kernels::LevelSolveEntry& it = p.plan.entries.at(e);
              ASSERT_LT(std::size_t(it.group), ch.groups.size());
              const kernels::PanelLocation& loc = lay.loc[it.supernode];
              EXPECT_EQ(ch.groups[it.group], lay.group_of[it.supernode]);
              EXPECT_EQ(it.offset, lay.offset_in_group(it.supernode));
              const int want = std::int64_t(loc.nrows) * loc.ncols <= o.warp_max_entries ? 0
                               : loc.ncols >= o.wide_min_cols                          ? 2
                                                                                       : 1;
              EXPECT_EQ(cls, want) << c.name << " supernode " << it.supernode;
              if (cls > 0) {
                EXPECT_EQ(it.tile_begin, tiles);
                tiles += kernels::level_solve_tiles(loc);
              }
              if (cls == 2) {
                ASSERT_LT(wi, ch.wide.size());
                const kernels::LevelSolveWide& w = ch.wide[wi++];
                EXPECT_EQ(w.offset, it.offset);
                EXPECT_EQ(w.group, it.group);
                EXPECT_EQ(w.nrows, loc.nrows);
                EXPECT_EQ(w.ncols, loc.ncols);
                EXPECT_EQ(w.first_col, loc.first_col);
                ++wide;
              }
              EXPECT_TRUE(at.emplace(it.supernode, std::make_pair(int(ci), l)).second) << "supernode twice";
            }
          EXPECT_EQ(ch.tiles[l], tiles);
        }
        EXPECT_EQ(wi, ch.wide.size());
      }
      ASSERT_EQ(at.size(), std::size_t(p.sym.num_supernodes())) << c.name;
      for (const auto& [s, where] : at) {
        const index_t parent = p.sym.supernodes[s].parent;
        if (parent >= 0) {
          EXPECT_LT(where, at.at(parent)) << c.name << ": supernode " << s << " not before its parent";
        }
      }
      if (o.wide_min_cols == 64 && std::string(c.name) == "lap3d_whole") {
        EXPECT_GT(wide, 0);
      }
    }
  }
}

// The per-group kernels on the stage, every group in postorder (forward) or its reverse: a group's
// columns solved, its external block subtracted from (forward) or read in from (backward) the stage.
void groups_solve(const LevelSolveProblem& p, std::vector<double>& stage, int nrhs, bool forward) {
  const auto& lay = p.layout;
  const planners::SolvePlan plan = planners::plan_supernodal_solve(
      p.sym, lay, std::vector<rt::Where>(std::size_t(lay.num_groups()), rt::Where::Cpu));
  const int n = p.sym.n, G = lay.num_groups();
  for (int k = 0; k < G; ++k) {
    const index_t g = forward ? k : G - 1 - k;
    const kernels::SolveGroup sg{lay.loc.data(), p.sym.rows.data(), p.values.data() + lay.loc[lay.group_begin[g]].value_offset,
                                 plan.ext_rows.data() + plan.ext_begin[g], lay.group_begin[g], lay.group_begin[g + 1],
                                 plan.col_begin[g], plan.col_begin[g + 1], std::int32_t(plan.next(g)), 0};
    const int rows = sg.c1 - sg.c0, next = std::max(1, sg.next);
    std::vector<double> x(std::size_t(rows) * nrhs), c(std::size_t(next) * nrhs);
    for (int r = 0; r < nrhs; ++r) {
      for (int i = 0; i < rows; ++i) x[i + std::size_t(r) * rows] = stage[sg.c0 + i + std::size_t(r) * n];
      for (int q = 0; q < sg.next && !forward; ++q) c[q + std::size_t(r) * next] = stage[sg.ext[q] + std::size_t(r) * n];
    }
    std::vector<double> work(kernels::supernode_group_solve_work_doubles(sg, nrhs));
    if (forward) {
      kernels::supernode_group_forward_cpu(sg, x.data(), rows, c.data(), next, nrhs, work.data());
    } else {
      kernels::supernode_group_backward_cpu(sg, x.data(), rows, c.data(), next, nrhs, work.data());
    }
    for (int r = 0; r < nrhs; ++r) {
      for (int i = 0; i < rows; ++i) stage[sg.c0 + i + std::size_t(r) * n] = x[i + std::size_t(r) * rows];
      for (int q = 0; q < sg.next && forward; ++q) stage[sg.ext[q] + std::size_t(r) * n] -= c[q + std::size_t(r) * next];
    }
  }
}

double worst_relative(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 1e-300, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) != std::isnan(b[i])) return INFINITY;
    scale = std::max(scale, std::abs(b[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  return worst / scale;
}

TEST(LevelSolveReference, MatchesTheGroupKernels) {
  for (const Case& c : cases()) {
    const LevelSolveProblem p(c.A, c.subtree_max_flops, options(3, 64), 7);
    const auto& chunks = p.plan.chunks;
    for (const int nrhs : {1, 3}) {
      Rng rng(11 + nrhs);
      const std::vector<double> b = random_vector(rng, std::size_t(p.sym.n) * nrhs);
      std::vector<double> want = b, got = b;
      groups_solve(p, want, nrhs, true);
      for (const auto& ch : chunks)
        kernels::supernode_levels_forward_cpu(p.panels(ch, p.values.data()), p.schedule(ch, p.plan.entries.data()),
                                              p.layout.loc.data(), p.sym.rows.data(), got.data(), p.sym.n, nrhs);
      EXPECT_LE(worst_relative(got, want), 1e-13) << c.name << " forward, nrhs " << nrhs;
      groups_solve(p, want, nrhs, false);
      for (auto ch = chunks.rbegin(); ch != chunks.rend(); ++ch)
        kernels::supernode_levels_backward_cpu(p.panels(*ch, p.values.data()), p.schedule(*ch, p.plan.entries.data()),
                                               p.layout.loc.data(), p.sym.rows.data(), got.data(), p.sym.n, nrhs);
      EXPECT_LE(worst_relative(got, want), 1e-13) << c.name << " backward, nrhs " << nrhs;
    }
  }
}

TEST(LevelSolveReference, RejectsASupernodeOutsideTheStage) {
  const LevelSolveProblem p(laplacian_3d(8, 8, 8), 1e30, {}, 3);
  const auto& ch = p.plan.chunks.at(0);
  std::vector<double> stage(std::size_t(p.sym.n), 1.0);
  // A stage shorter than the factor: the supernodes near the root fall outside.
  EXPECT_THROW(kernels::supernode_levels_forward_cpu(p.panels(ch, p.values.data()), p.schedule(ch, p.plan.entries.data()),
                                                     p.layout.loc.data(), p.sym.rows.data(), stage.data(), p.sym.n / 2, 1),
               InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
