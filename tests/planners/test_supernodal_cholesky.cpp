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
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

struct Recorded {
  rt::RecordingRuntime r;
  cholesky::SymbolicFactor sym;
  planners::FactorLayout layout;
  std::vector<int> info;
  std::unique_ptr<planners::RegisteredFactor> data;
  std::map<rt::HandleId, index_t> group_of_handle;
  planners::UpdatePlanStats st;
};

void record(Recorded& rec, const Csr& A, const planners::SizeClassThresholds& th, int cuda_workers = 0) {
  rec.r.set_cuda_workers(cuda_workers);
  rec.sym = cholesky::analyze(triangle(A, Triangle::Lower));
  rec.layout = planners::plan_factor_layout(rec.sym, th.subtree_max_flops);
  rec.info.assign(rec.sym.num_supernodes(), 0);
  rec.data = std::make_unique<planners::RegisteredFactor>(rec.r, rec.sym, rec.layout, nullptr, rec.info.data());
  for (index_t g = 0; g < rec.layout.num_groups(); ++g) rec.group_of_handle[rec.data->group[g]] = g;
  rec.st = planners::submit_supernodal_cholesky(rec.r, rec.sym, rec.layout, *rec.data, th);
}

planners::SizeClassThresholds small_thresholds(double subtree_max) {
  planners::SizeClassThresholds th;
  th.inst_max_flops = 2e3;  // small problem: make all three classes appear
  th.dpq_min_flops = 2e5;
  th.gpu_min_task_flops = 1e5;
  th.subtree_max_flops = subtree_max;
  return th;
}

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

// Every task of a top target runs where the target's panel lives: CPUs below gpu_min_task_flops of
// work, the GPU from gpu_only_min_flops on (when there is one), the scheduler's choice in between.
TEST(SupernodalPlanPlacement, TasksOfATargetShareItsHome) {
  auto th = small_thresholds(2e5);
  th.gpu_only_min_flops = 2e6;
  th.gpu_subtree_only_min_flops = 2e6;
  th.gpu_subtree_min_flops = 3e4;
  for (const int gpus : {0, 1}) {
    Recorded rec;
    record(rec, laplacian_3d(14, 13, 12), th, gpus);
    // Without CUDA codelets the planner keeps every task off the GPUs StarPU may still drive.
    const bool cuda = gpus > 0 && codelets::kCudaBuild;
    const auto by_t = planners::updates_by_target(rec.sym);
    std::map<rt::Where, int> homes, subtrees;
    for (const auto& t : rec.r.tasks()) {
      if (t.kernel == "sn_subtree") {  // a GPU may take the big ones (level-batched kernel)
        const bool gpu_subtree = cuda && t.spec.flops >= th.gpu_subtree_min_flops;
        const rt::Where want = !gpu_subtree                                ? rt::Where::Cpu
                               : t.spec.flops >= th.gpu_subtree_only_min_flops ? rt::Where::Cuda
                                                                                 : rt::Where::Any;
        EXPECT_EQ(t.spec.where, want) << t.spec.name;
        ++subtrees[t.spec.where];
        continue;
      }
      const index_t s = rec.layout.group_begin[rec.group_of_handle.at(t.spec.data[0].handle)];
      double work = planners::factor_flops(rec.sym.supernodes[s]);
      for (const auto& u : by_t[s]) work += u.flops;
      const rt::Where want = work < th.gpu_min_task_flops                  ? rt::Where::Cpu
                             : work >= th.gpu_only_min_flops && cuda ? rt::Where::Cuda
                                                                     : rt::Where::Any;
      EXPECT_EQ(t.spec.where, want) << t.spec.name << " work " << work;
      ++homes[want];
    }
    EXPECT_GT(homes[rt::Where::Cpu], 0);
    EXPECT_GT(homes[cuda ? rt::Where::Cuda : rt::Where::Any], 0) << gpus << " GPUs";
    EXPECT_GT(subtrees[rt::Where::Cpu], 0);
    EXPECT_EQ(subtrees[rt::Where::Any] > 0, cuda) << gpus << " GPUs";
  }
}

// By default a top target lives on the CPUs or on the GPU, never at the scheduler's choice: left to
// it, a process's first factorization moved GPU-assembled panels to the CPUs and back.
TEST(SupernodalPlanPlacement, DefaultHomesLeaveNoTargetToTheScheduler) {
  planners::SizeClassThresholds th;
  th.subtree_max_flops = 2e5;
  for (const int gpus : {0, 1}) {
    Recorded rec;
    record(rec, laplacian_3d(26, 25, 24), th, gpus);
    const auto homes = planners::panel_homes(rec.r, rec.sym, rec.layout, th);
    const bool cuda = gpus > 0 && codelets::kCudaBuild;
    std::map<rt::Where, int> top;
    for (index_t g = 0; g < rec.layout.num_groups(); ++g)
      if (!rec.layout.subtree[g]) ++top[homes[g]];
    EXPECT_GT(top[rt::Where::Cpu], 0) << gpus << " GPUs";
    // Without a GPU the homes above the CPU threshold stay Any (any CPU worker); with one, none does.
    EXPECT_EQ(top[rt::Where::Any] > 0, !cuda) << gpus << " GPUs";
    EXPECT_EQ(top[rt::Where::Cuda] > 0, cuda) << gpus << " GPUs";
  }
}

// The symbolic work a solver keeps between factorizations gives the DAG a fresh computation gives,
// with and without top targets (whose update lists it adds on first need).
TEST(SupernodalPlanPlacement, KeptSymbolicWorkGivesTheSameDag) {
  for (const double subtree_max : {2e5, 1e30}) {
    const auto th = small_thresholds(subtree_max);
    Recorded fresh;
    record(fresh, laplacian_3d(16, 15, 14), th, 1);
    Recorded kept;
    kept.r.set_cuda_workers(1);
    kept.sym = fresh.sym;
    kept.layout = planners::plan_factor_layout(kept.sym, th.subtree_max_flops);
    kept.info.assign(kept.sym.num_supernodes(), 0);
    kept.data = std::make_unique<planners::RegisteredFactor>(kept.r, kept.sym, kept.layout, nullptr, kept.info.data());
    planners::SymbolicWork work = planners::symbolic_work(kept.sym);
    EXPECT_FALSE(work.has_lists);
    for (int round = 0; round < 2; ++round) {  // a second factorization reuses the lists
      const std::size_t before = kept.r.tasks().size();
      planners::submit_supernodal_cholesky(kept.r, kept.sym, kept.layout, *kept.data, th, &work);
      const bool tops = std::count(kept.layout.subtree.begin(), kept.layout.subtree.end(), 0) > 0;
      EXPECT_EQ(work.has_lists, tops);
      ASSERT_EQ(kept.r.tasks().size() - before, fresh.r.tasks().size());
      for (std::size_t i = 0; i < fresh.r.tasks().size(); ++i) {
        const auto& a = fresh.r.tasks()[i].spec;
        const auto& b = kept.r.tasks()[before + i].spec;
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.priority, b.priority) << a.name;
        EXPECT_EQ(a.where, b.where) << a.name;
        EXPECT_EQ(a.flops, b.flops) << a.name;
      }
    }
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

// A GPU takes the whole factor of a 2D-like problem (little work per entry of L), never a 3D one,
// nor without a GPU, nor when the caller set the subtree limit or kept the work on CPUs.
TEST(SupernodalPlanPlacement, WholeFactorOnTheGpuOnlyFor2dLikeFactors) {
  planners::SizeClassThresholds th;
  th.gpu_subtree_only_min_flops = 0;  // the test problems are small
  const auto flat = cholesky::analyze(triangle(laplacian_2d(120, 110), Triangle::Lower));
  const auto cube = cholesky::analyze(triangle(laplacian_3d(24, 23, 22), Triangle::Lower));
  // Work per entry grows with the size (the default limit sits between 2D and 3D meshes of a
  // million rows); for these small ones, a limit between the two.
  const double flat_per_entry = flat.flops / double(flat.nnz_L_exact);
  const double cube_per_entry = cube.flops / double(cube.nnz_L_exact);
  ASSERT_LT(2 * flat_per_entry, cube_per_entry);
  th.gpu_whole_max_flops_per_entry = std::sqrt(flat_per_entry * cube_per_entry);
  EXPECT_EQ(planners::gpu_takes_whole_factor(flat, th, 1), codelets::kCudaBuild);
  EXPECT_FALSE(planners::gpu_takes_whole_factor(cube, th, 1));
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, th, 0));
  auto set = th;
  set.subtree_max_flops = 1e6;
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, set, 1));
  set = th;
  set.restrict_to = rt::Where::Cpu;
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, set, 1));
  set = th;
  set.gpu_subtree_only_min_flops = 2 * flat.flops;  // too little work: the CPU path
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, set, 1));
  // The layout limit: one group for one GPU, the caller's limit when the CPU path is taken.
  if (codelets::kCudaBuild) EXPECT_TRUE(std::isinf(planners::gpu_factor_subtree_limit(flat, th, 1)));
  EXPECT_EQ(planners::gpu_factor_subtree_limit(cube, th, 1), th.subtree_max_flops);
  EXPECT_EQ(planners::gpu_factor_subtree_limit(flat, th, 0), th.subtree_max_flops);
}

// With several GPUs the factor a GPU would take whole is cut into subtrees that every CUDA worker
// may take (forced onto GPUs), and top separators with tasks of their own.
TEST(SupernodalPlanPlacement, WholeFactorSpreadsOverSeveralGpus) {
  if (!codelets::kCudaBuild) GTEST_SKIP() << "no CUDA codelets in this build";
  const Csr A = laplacian_2d(120, 110);
  planners::SizeClassThresholds th;
  th.gpu_subtree_only_min_flops = 1e5;
  Recorded probe;
  probe.sym = cholesky::analyze(triangle(A, Triangle::Lower));
  th.gpu_whole_max_flops_per_entry = 2 * probe.sym.flops / double(probe.sym.nnz_L_exact);
  const double limit = planners::gpu_factor_subtree_limit(probe.sym, th, 4);
  ASSERT_TRUE(std::isfinite(limit));
  EXPECT_GE(limit, th.gpu_subtree_only_min_flops);
  th.subtree_max_flops = limit;
  Recorded rec;
  record(rec, A, th, 4);
  int gpu_subtrees = 0, tops = 0;
  for (const auto& t : rec.r.tasks()) {
    if (t.kernel == "sn_subtree") {
      EXPECT_EQ(t.spec.where, t.spec.flops >= th.gpu_subtree_only_min_flops ? rt::Where::Cuda : rt::Where::Cpu);
      gpu_subtrees += t.spec.where == rt::Where::Cuda;
    } else if (t.kernel == "sn_factor") {
      ++tops;
    }
  }
  EXPECT_GE(gpu_subtrees, 4);  // at least one per GPU
  EXPECT_GT(tops, 0);
}

}  // namespace
}  // namespace hetsparse::test
