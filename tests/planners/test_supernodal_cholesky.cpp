// The supernodal Cholesky DAG through the recording runtime: the layout cuts the tree into whole
// leaf subtrees and single supernodes, every (source group, target) update appears in exactly one
// task, in the size class its flops say, and the dependencies are the right ones.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "codelets/cuda_build.hpp"
#include "symbolic/analysis.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "runtime/recording_runtime.hpp"
#include "tests/planners/supernodal_recording.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

// A subtree group is one maximal subtree under the limit, or a run of them, adjacent in postorder,
// whose summed work stays under limit / 16; the supernodes above them are groups of one.
TEST(SupernodalLayout, GroupsAreWholeMaximalSubtreesUnderTheLimit) {
  const auto sym = cholesky::analyze(triangle(laplacian_3d(16, 15, 14), Triangle::Lower));
  const auto work = planners::subtree_work(sym);
  const double limit = 3e5;
  const auto L = planners::plan_factor_layout(sym, limit);
  int subtrees = 0, singles = 0, multi_root = 0;
  for (index_t g = 0; g < L.num_groups(); ++g) {
    const index_t first = L.group_begin[g], last = L.group_begin[g + 1] - 1;
    ASSERT_LE(first, last);
    if (!L.subtree[g]) {
      ++singles;
      EXPECT_EQ(first, last);
      EXPECT_GT(work[first], limit);  // above every subtree
      continue;
    }
    ++subtrees;
    double roots_work = 0;
    for (index_t s = first; s <= last; ++s) {
      const index_t p = sym.supernodes[s].parent;
      if (p >= first && p <= last) {
        EXPECT_GT(p, s);  // inside: postorder
        continue;
      }
      // A member whose parent is outside is the root of a maximal subtree under the limit.
      EXPECT_LE(work[s], limit);
      EXPECT_TRUE(p < 0 || work[p] > limit);
      roots_work += work[s];
    }
    EXPECT_LE(roots_work, limit);
    if (roots_work > work[last]) {  // merged
      EXPECT_LE(roots_work, limit / 16);
      ++multi_root;
    }
  }
  EXPECT_GT(subtrees, 4);
  EXPECT_GT(multi_root, 0);  // adjacent subtrees were merged somewhere
  EXPECT_GT(singles, 4);
  for (index_t s = 0; s < sym.num_supernodes(); ++s) {
    const index_t g = L.group_of[s];
    EXPECT_TRUE(L.group_begin[g] <= s && s < L.group_begin[g + 1]);
  }
  const auto none = planners::plan_factor_layout(sym, 0);
  EXPECT_EQ(none.num_groups(), sym.num_supernodes());
}

// A diagonal matrix is a forest of one-column trees: a few groups, not one per column.
TEST(SupernodalLayout, ForestOfTinyTreesSharesGroups) {
  Csr D;
  D.rows = D.cols = 5000;
  for (index_t i = 0; i <= D.rows; ++i) D.rowptr.push_back(i);
  for (index_t i = 0; i < D.rows; ++i) {
    D.colind.push_back(i);
    D.values.push_back(2.0 + i % 7);
  }
  const auto sym = cholesky::analyze(D);
  ASSERT_EQ(sym.num_supernodes(), 5000);
  // Each 1x1 "factorization" counts 1/3 flop: 300 columns fill a group under 1600 / 16 flops.
  const auto L = planners::plan_factor_layout(sym, 1600.0);
  EXPECT_GE(L.num_groups(), 16);
  EXPECT_LE(L.num_groups(), 18);
  for (index_t g = 0; g < L.num_groups(); ++g) EXPECT_TRUE(L.subtree[g]);
}

class SupernodalPlan : public ::testing::TestWithParam<double> {};

TEST_P(SupernodalPlan, EveryUpdateExactlyOnceWithTheRightDependencies) {
  const auto th = small_thresholds(GetParam());
  Recorded rec;
  record(rec, laplacian_3d(14, 13, 12), th);
  const auto& L = rec.layout;
  const auto by_t = planners::updates_by_target(rec.sym);
  std::size_t pairs = 0;
  std::multiset<std::pair<index_t, index_t>> want;  // (source group, target group) for targets above the subtrees
  for (index_t t = 0; t < rec.sym.num_supernodes(); ++t) {
    pairs += by_t[t].size();
    std::set<index_t> sources;
    for (const auto& u : by_t[t]) sources.insert(L.group_of[u.d]);
    if (!L.subtree[L.group_of[t]])
      for (index_t g : sources) want.insert({g, L.group_of[t]});
  }
  long long counted = 0;
  for (long long c : rec.st.updates) counted += c;
  EXPECT_EQ(std::size_t(counted), pairs);
  ASSERT_GT(rec.st.updates[0], 0);
  ASSERT_GT(rec.st.updates[1], 0);
  ASSERT_GT(rec.st.updates[2], 0);
  EXPECT_EQ(rec.st.subtree_tasks > 0, GetParam() > 0);

  std::multiset<std::pair<index_t, index_t>> seen;
  std::map<index_t, std::size_t> finisher;  // group -> the task that completes it (factor or subtree)
  for (const auto& t : rec.r.tasks()) {
    const auto& d = t.spec.data;
    const index_t target = rec.group_of_handle.at(d[0].handle);
    if (t.kernel == "sn_subtree") {
      EXPECT_TRUE(L.subtree[target]);
      EXPECT_EQ(t.spec.where, rt::Where::Cpu);  // no CUDA worker recorded
      EXPECT_EQ(finisher.count(target), 0u);
      finisher[target] = t.id;
      continue;
    }
    ASSERT_TRUE(t.kernel == "sn_update" || t.kernel == "sn_factor") << t.kernel;
    EXPECT_FALSE(L.subtree[target]);
    const std::size_t first = t.kernel == "sn_factor" ? 3 : 2;
    EXPECT_EQ(d[0].mode, t.kernel == "sn_factor" ? rt::Access::ReadWrite : rt::Access::Commute);
    for (std::size_t i = first; i < d.size(); ++i) {
      const index_t src = rec.group_of_handle.at(d[i].handle);
      seen.insert({src, target});
      // The source's factorization is done before its panel is read.
      EXPECT_TRUE(std::binary_search(t.deps.begin(), t.deps.end(), finisher.at(src))) << t.spec.name;
    }
    if (t.kernel == "sn_factor") finisher[target] = t.id;
  }
  EXPECT_EQ(seen, want);
  EXPECT_EQ(finisher.size(), std::size_t(L.num_groups()));
  // Every update task of a target comes before (and is a dependency of) the target's factor task.
  const auto& tasks = rec.r.tasks();
  for (const auto& t : tasks) {
    if (t.kernel != "sn_update") continue;
    const auto& fdeps = tasks[finisher.at(rec.group_of_handle.at(t.spec.data[0].handle))].deps;
    EXPECT_TRUE(std::binary_search(fdeps.begin(), fdeps.end(), t.id)) << t.spec.name;
  }
}

INSTANTIATE_TEST_SUITE_P(SubtreeLimits, SupernodalPlan, ::testing::Values(0.0, 2e5),
                         [](const auto& p) { return p.param > 0 ? std::string("Subtrees") : std::string("NoSubtrees"); });

TEST(SupernodalPlanPriorities, FollowTheCriticalPath) {
  Recorded rec;
  record(rec, laplacian_2d(40, 40), small_thresholds(0));
  // A factor task's priority is never above its descendants' (they have more path to the root).
  std::map<index_t, int> prio;
  for (const auto& t : rec.r.tasks())
    if (t.kernel == "sn_factor") prio[rec.group_of_handle.at(t.spec.data[0].handle)] = t.spec.priority;
  for (index_t s = 0; s < rec.sym.num_supernodes(); ++s)
    if (rec.sym.supernodes[s].parent >= 0) {
      EXPECT_GE(prio[s], prio[rec.sym.supernodes[s].parent]);
    }
}

}  // namespace
}  // namespace hetsparse::test
