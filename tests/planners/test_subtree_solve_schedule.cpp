// The batched leaf-subtree solve: its schedule (planners::plan_subtree_solve: every supernode of the
// batched groups once, above its children, in chunks of bounded size, warp or block team as the
// kernels say) and its serial reference (kernels::supernode_subtrees_{forward,backward}_cpu over
// the schedule) against the per-group CPU kernels of the task-graph solve, whose external blocks are
// moved into the stage by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "sparse/generators.hpp"
#include "tests/support/subtree_solve_problems.hpp"
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
          {"lap3d_whole", laplacian_3d(14, 13, 12), 1e30}};
}

TEST(SubtreeSolveSchedule, EverySupernodeOnceAboveItsChildren) {
  for (const Case& c : cases()) {
    for (const int max_groups : {3, kernels::kSubtreeSolveMaxGroups}) {
      const SubtreeSolveProblem p(c.A, c.subtree_max_flops, max_groups, 1);
      const auto& lay = p.layout;
      std::vector<index_t> batched;
      for (index_t g = 0; g < lay.num_groups(); ++g) {
        const bool multi = lay.group_begin[g + 1] - lay.group_begin[g] > 1;
        EXPECT_EQ(p.plan.batched[g] != 0, multi) << c.name << " group " << g;
        if (multi) batched.push_back(g);
      }
      ASSERT_FALSE(batched.empty()) << c.name;
      for (const auto& k : p.plan.links)
        if (p.plan.batched[k.source]) {
          EXPECT_TRUE(p.plan.from_batched[k.target]) << c.name;
        }
      const auto& chunks = p.plan.subtrees.chunks;
      ASSERT_EQ(chunks.size(), (batched.size() + max_groups - 1) / max_groups) << c.name;
      std::map<index_t, int> level;  // supernode -> level
      std::vector<index_t> seen_groups;
      for (const auto& ch : chunks) {
        EXPECT_LE(ch.groups.size(), std::size_t(max_groups));
        EXPECT_GE(ch.groups.size() + 1, batched.size() / chunks.size()) << "chunks of uneven sizes";
        seen_groups.insert(seen_groups.end(), ch.groups.begin(), ch.groups.end());
        ASSERT_EQ(ch.segments.size() % 2, 1u);
        for (std::size_t k = 0; k + 1 < ch.segments.size(); ++k) {
          ASSERT_LE(ch.segments[k], ch.segments[k + 1]);
          for (std::int32_t e = ch.segments[k]; e < ch.segments[k + 1]; ++e) {
            const kernels::SubtreeSolveEntry& it = p.plan.subtrees.entries[e];
            ASSERT_LT(std::size_t(it.group), ch.groups.size());
            EXPECT_EQ(ch.groups[it.group], lay.group_of[it.supernode]);
            EXPECT_EQ(it.offset, lay.offset_in_group(it.supernode));
            EXPECT_EQ(int(k % 2), kernels::subtree_solve_block_team(lay.loc[it.supernode]) ? 1 : 0);
            EXPECT_TRUE(level.emplace(it.supernode, int(k / 2)).second) << "supernode " << it.supernode << " twice";
          }
        }
      }
      EXPECT_EQ(seen_groups, batched) << c.name;
      std::size_t members = 0;
      for (index_t g : batched) members += std::size_t(lay.group_begin[g + 1] - lay.group_begin[g]);
      EXPECT_EQ(level.size(), members) << c.name;
      for (const auto& [s, l] : level) {
        const index_t parent = p.sym.supernodes[s].parent;
        if (parent >= 0 && level.count(parent) && lay.group_of[parent] == lay.group_of[s]) {
          EXPECT_GT(level.at(parent), l) << c.name << " supernode " << s;
        }
      }
    }
  }
}

// The per-group kernels on the stage: forward, each group's columns solved and its external block
// subtracted from the stage's rows there; backward, each group reads the stage's external rows.
void groups_forward(const SubtreeSolveProblem& p, std::vector<double>& stage, int nrhs) {
  const auto& lay = p.layout;
  const int n = p.sym.n;
  for (const auto& ch : p.plan.subtrees.chunks)
    for (index_t g : ch.groups) {
      const kernels::SolveGroup sg{lay.loc.data(), p.sym.rows.data(), p.values.data() + lay.loc[lay.group_begin[g]].value_offset,
                                   p.plan.ext_rows.data() + p.plan.ext_begin[g], lay.group_begin[g], lay.group_begin[g + 1],
                                   p.plan.col_begin[g], p.plan.col_begin[g + 1], std::int32_t(p.plan.next(g)), 0};
      const int rows = sg.c1 - sg.c0, next = std::max(1, sg.next);
      std::vector<double> x(std::size_t(rows) * nrhs), c(std::size_t(next) * nrhs);
      for (int r = 0; r < nrhs; ++r)
        for (int i = 0; i < rows; ++i) x[i + std::size_t(r) * rows] = stage[sg.c0 + i + std::size_t(r) * n];
      std::vector<double> work(kernels::supernode_group_solve_work_doubles(sg, nrhs));
      kernels::supernode_group_forward_cpu(sg, x.data(), rows, c.data(), next, nrhs, work.data());
      for (int r = 0; r < nrhs; ++r) {
        for (int i = 0; i < rows; ++i) stage[sg.c0 + i + std::size_t(r) * n] = x[i + std::size_t(r) * rows];
        for (int q = 0; q < sg.next; ++q) stage[sg.ext[q] + std::size_t(r) * n] -= c[q + std::size_t(r) * next];
      }
    }
}

void groups_backward(const SubtreeSolveProblem& p, std::vector<double>& stage, int nrhs) {
  const auto& lay = p.layout;
  const int n = p.sym.n;
  for (const auto& ch : p.plan.subtrees.chunks)
    for (index_t g : ch.groups) {
      const kernels::SolveGroup sg{lay.loc.data(), p.sym.rows.data(), p.values.data() + lay.loc[lay.group_begin[g]].value_offset,
                                   p.plan.ext_rows.data() + p.plan.ext_begin[g], lay.group_begin[g], lay.group_begin[g + 1],
                                   p.plan.col_begin[g], p.plan.col_begin[g + 1], std::int32_t(p.plan.next(g)), 0};
      const int rows = sg.c1 - sg.c0, next = std::max(1, sg.next);
      std::vector<double> x(std::size_t(rows) * nrhs), w(std::size_t(next) * nrhs);
      for (int r = 0; r < nrhs; ++r) {
        for (int i = 0; i < rows; ++i) x[i + std::size_t(r) * rows] = stage[sg.c0 + i + std::size_t(r) * n];
        for (int q = 0; q < sg.next; ++q) w[q + std::size_t(r) * next] = stage[sg.ext[q] + std::size_t(r) * n];
      }
      std::vector<double> work(kernels::supernode_group_solve_work_doubles(sg, nrhs));
      kernels::supernode_group_backward_cpu(sg, x.data(), rows, w.data(), next, nrhs, work.data());
      for (int r = 0; r < nrhs; ++r)
        for (int i = 0; i < rows; ++i) stage[sg.c0 + i + std::size_t(r) * n] = x[i + std::size_t(r) * rows];
    }
}

double worst_relative(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 1e-300, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(b[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
    if (std::isnan(a[i]) != std::isnan(b[i])) return INFINITY;
  }
  return worst / scale;
}

TEST(SubtreeSolveReference, MatchesTheGroupKernels) {
  for (const Case& c : cases()) {
    const SubtreeSolveProblem p(c.A, c.subtree_max_flops, 3, 7);
    for (const int nrhs : {1, 3}) {
      Rng rng(11 + nrhs);
      const std::vector<double> b = random_vector(rng, std::size_t(p.sym.n) * nrhs);
      std::vector<double> want = b, got = b;
      groups_forward(p, want, nrhs);
      for (const auto& ch : p.plan.subtrees.chunks)
        kernels::supernode_subtrees_forward_cpu(p.panels(ch, p.values.data()), p.schedule(ch, p.plan.subtrees.entries.data()),
                                                p.layout.loc.data(), p.sym.rows.data(), got.data(), p.sym.n, nrhs);
      EXPECT_LE(worst_relative(got, want), 1e-13) << c.name << " forward, nrhs " << nrhs;
      groups_backward(p, want, nrhs);
      for (auto ch = p.plan.subtrees.chunks.rbegin(); ch != p.plan.subtrees.chunks.rend(); ++ch)
        kernels::supernode_subtrees_backward_cpu(p.panels(*ch, p.values.data()),
                                                 p.schedule(*ch, p.plan.subtrees.entries.data()), p.layout.loc.data(),
                                                 p.sym.rows.data(), got.data(), p.sym.n, nrhs);
      EXPECT_LE(worst_relative(got, want), 1e-13) << c.name << " backward, nrhs " << nrhs;
    }
  }
}

TEST(SubtreeSolveReference, RejectsASupernodeOutsideTheStage) {
  const SubtreeSolveProblem p(laplacian_3d(8, 8, 8), 1e30, 1, 3);
  const auto& ch = p.plan.subtrees.chunks.at(0);
  std::vector<double> stage(std::size_t(p.sym.n), 1.0);
  // A stage shorter than the factor: the supernodes near the root fall outside.
  EXPECT_THROW(kernels::supernode_subtrees_forward_cpu(p.panels(ch, p.values.data()),
                                                       p.schedule(ch, p.plan.subtrees.entries.data()), p.layout.loc.data(),
                                                       p.sym.rows.data(), stage.data(), p.sym.n / 2, 1),
               InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
