// The supernodal Cholesky DAG through the recording runtime: every update of the symbolic structure
// appears exactly once, in the size class its flops say, and the dependencies are the right ones.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cholesky/symbolic/analysis.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

struct Recorded {
  rt::RecordingRuntime r;
  cholesky::SymbolicFactor sym;
  planners::SupernodalData data;
  std::map<rt::HandleId, index_t> panel_owner;  // panel handle -> supernode
  std::vector<double> dummy = std::vector<double>(1);
  std::vector<int> info;
};

void record(Recorded& rec, const Csr& A, const planners::SizeClassThresholds& th, planners::UpdatePlanStats* st) {
  rec.sym = cholesky::analyze(triangle(A, Triangle::Lower));
  const index_t ns = rec.sym.num_supernodes();
  rec.info.assign(ns, 0);
  for (index_t s = 0; s < ns; ++s) {
    const auto& sn = rec.sym.supernodes[s];
    const rt::HandleId panel = rec.r.register_matrix({rec.dummy.data(), std::size_t(sn.nrows), std::size_t(sn.nrows),
                                                      std::size_t(sn.ncols)});
    const rt::HandleId rows = rec.r.register_vector({rec.dummy.data(), std::size_t(sn.nrows), 4});
    rec.data.sn.push_back({panel, rows, sn.first_col});
    rec.data.info.push_back(rec.r.register_vector({&rec.info[s], 1, sizeof(int)}));
    rec.panel_owner[panel] = s;
  }
  *st = planners::submit_supernodal_cholesky(rec.r, rec.sym, rec.data, th);
}

TEST(SupernodalPlan, EveryUpdateExactlyOnceAndFactorsLast) {
  planners::SizeClassThresholds th;
  th.inst_max_flops = 2e3;  // small problem: make all three classes appear
  th.dpq_min_flops = 2e5;
  th.gpu_min_task_flops = 1e5;
  Recorded rec;
  planners::UpdatePlanStats st;
  record(rec, laplacian_3d(14, 13, 12), th, &st);
  const auto by_t = planners::updates_by_target(rec.sym);
  std::size_t expected = 0;
  for (const auto& v : by_t) expected += v.size();
  ASSERT_GT(st.updates[0], 0);
  ASSERT_GT(st.updates[1], 0);
  ASSERT_GT(st.updates[2], 0);
  EXPECT_EQ(std::size_t(st.updates[0] + st.updates[1] + st.updates[2]), expected);

  // Collect (descendant, target) pairs from the recorded tasks: data = target first, then descendants.
  std::multiset<std::pair<index_t, index_t>> seen;
  std::map<index_t, std::size_t> factor_task;
  for (const auto& t : rec.r.tasks()) {
    const auto& d = t.spec.data;
    if (t.kernel == "sn_update") {
      seen.insert({rec.panel_owner.at(d[0].handle), rec.panel_owner.at(d[2].handle)});
      EXPECT_EQ(d[2].mode, rt::Access::Commute);
    } else if (t.kernel == "sn_update_batch" || t.kernel == "sn_factor") {
      const std::size_t first = t.kernel == "sn_factor" ? 3 : 2;
      const index_t target = rec.panel_owner.at(d[0].handle);
      for (std::size_t i = first; i < d.size(); i += 2) seen.insert({rec.panel_owner.at(d[i].handle), target});
      if (t.kernel == "sn_factor") factor_task[target] = t.id;
    }
    EXPECT_FALSE(t.spec.where == rt::Where::Cuda);
    if (t.spec.flops < th.gpu_min_task_flops && t.kernel != "sn_factor") {
      EXPECT_EQ(t.spec.where, rt::Where::Cpu);
    }
  }
  std::multiset<std::pair<index_t, index_t>> want;
  for (const auto& v : by_t)
    for (const auto& u : v) want.insert({u.d, u.t});
  EXPECT_EQ(seen, want);
  ASSERT_EQ(factor_task.size(), std::size_t(rec.sym.num_supernodes()));

  // Each update task depends on its descendant's factor; each factor on all updates of its target.
  const auto& tasks = rec.r.tasks();
  for (const auto& t : tasks) {
    if (t.kernel != "sn_update" && t.kernel != "sn_update_batch") continue;
    // sn_update: (d panel, d rows, t panel, t rows); sn_update_batch: (t panel, t rows, then d pairs).
    const bool single = t.kernel == "sn_update";
    const std::size_t first = single ? 0 : 2, last = single ? 1 : t.spec.data.size();
    for (std::size_t i = first; i < last; i += 2) {
      const index_t d = rec.panel_owner.at(t.spec.data[i].handle);
      EXPECT_TRUE(std::binary_search(t.deps.begin(), t.deps.end(), factor_task[d])) << t.spec.name;
    }
    const index_t target = rec.panel_owner.at(t.spec.data[t.kernel == "sn_update" ? 2 : 0].handle);
    const auto& fdeps = tasks[factor_task[target]].deps;
    EXPECT_TRUE(std::binary_search(fdeps.begin(), fdeps.end(), t.id)) << t.spec.name;
  }
  // The critical path is at least the depth of the supernodal elimination tree.
  std::vector<int> depth(rec.sym.num_supernodes(), 1);
  int tree_depth = 0;
  for (index_t s = rec.sym.num_supernodes() - 1; s >= 0; --s) {
    const index_t p = rec.sym.supernodes[s].parent;
    depth[s] = p >= 0 ? depth[p] + 1 : 1;
    tree_depth = std::max(tree_depth, depth[s]);
  }
  EXPECT_GE(rec.r.critical_path_length(), std::size_t(tree_depth));
}

TEST(SupernodalPlan, PrioritiesFollowTheCriticalPath) {
  Recorded rec;
  planners::UpdatePlanStats st;
  record(rec, laplacian_2d(40, 40), {}, &st);
  // A factor task's priority is never above its descendants' (they have more path to the root).
  std::map<index_t, int> prio;
  for (const auto& t : rec.r.tasks())
    if (t.kernel == "sn_factor") prio[rec.panel_owner.at(t.spec.data[0].handle)] = t.spec.priority;
  for (index_t s = 0; s < rec.sym.num_supernodes(); ++s)
    if (rec.sym.supernodes[s].parent >= 0) {
      EXPECT_GE(prio[s], prio[rec.sym.supernodes[s].parent]);
    }
}

}  // namespace
}  // namespace hetsparse::test
