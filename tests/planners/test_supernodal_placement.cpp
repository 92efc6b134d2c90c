// Where the supernodal Cholesky's tasks run, through the recording runtime: every task of a top
// target where its panel lives, the default homes, a 2D-like factor whole on the GPU (or cut into
// subtrees over several), and the symbolic work a solver keeps between factorizations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "codelets/cuda_build.hpp"
#include "codelets/supernode/supernode_codelet.hpp"
#include "planners/subtree_plans.hpp"
#include "sparse/generators.hpp"
#include "tests/planners/supernodal_recording.hpp"

namespace hetsparse::test {
namespace {

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
    RecordedFactor kept;
    register_factor(kept, fresh.sym, th.subtree_max_flops, 1);
    planners::SymbolicWork work = planners::symbolic_work(kept.sym);
    EXPECT_TRUE(work.by_target.empty());
    for (int round = 0; round < 2; ++round) {  // a second factorization reuses the lists
      const std::size_t before = kept.r.tasks().size();
      planners::submit_supernodal_cholesky(kept.r, kept.sym, kept.layout, *kept.data, th, &work);
      const bool tops = std::count(kept.layout.subtree.begin(), kept.layout.subtree.end(), 0) > 0;
      EXPECT_EQ(!work.by_target.empty(), tops);
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

// A GPU takes the whole factor of a 2D-like problem (little work per entry of L), never a 3D one,
// nor without a GPU, nor when the caller set the subtree limit or kept the work on CPUs.
TEST(SupernodalPlanPlacement, WholeFactorOnTheGpuOnlyFor2dLikeFactors) {
  planners::SizeClassThresholds th;
  th.gpu_whole_any_max_flops = 0;  // the test problems are small
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
  set.gpu_whole_any_max_flops = 2 * flat.flops;  // under it, small factors go whole (3D too)...
  set.gpu_whole_min_flops = flat.flops / 2;
  EXPECT_EQ(planners::gpu_takes_whole_factor(flat, set, 1), codelets::kCudaBuild);
  set.gpu_whole_any_max_flops = 2 * cube.flops;
  EXPECT_EQ(planners::gpu_takes_whole_factor(cube, set, 1), codelets::kCudaBuild);
  EXPECT_FALSE(planners::gpu_takes_whole_factor(cube, set, 0));
  set.gpu_whole_min_flops = 2 * cube.flops;  // ...from gpu_whole_min_flops on: below, the CPU path
  EXPECT_FALSE(planners::gpu_takes_whole_factor(cube, set, 1));
  set.gpu_whole_min_flops = -1;
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, set, 1));
  // A factor the calling thread takes goes to no GPU.
  set = th;
  set.host_whole_max_flops = 2 * flat.flops;
  EXPECT_TRUE(planners::host_takes_whole_factor(flat, set));
  EXPECT_FALSE(planners::gpu_takes_whole_factor(flat, set, 1));
  set.subtree_max_flops = 1e6;  // a caller-set layout keeps its tasks
  EXPECT_FALSE(planners::host_takes_whole_factor(flat, set));
  set = th;
  set.host_whole_max_flops = flat.flops / 2;
  EXPECT_FALSE(planners::host_takes_whole_factor(flat, set));
  set.host_whole_max_flops = -1;
  EXPECT_FALSE(planners::host_takes_whole_factor(flat, set));
  // The layout limit: one group for one GPU, the caller's limit when the CPU path is taken.
  if (codelets::kCudaBuild) {
    EXPECT_TRUE(std::isinf(planners::gpu_factor_subtree_limit(flat, th, 1)));
  }
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

// Kept GPU subtree schedules: a GPU subtree task carries the caller's plan (the levels the task would
// have planned, with the submission's limits), a CPU one none; a second submission reuses them.
TEST(SupernodalPlanPlacement, GpuSubtreeTasksCarryTheKeptPlans) {
  if (!codelets::kCudaBuild) GTEST_SKIP() << "no CUDA codelets in this build";
  const Csr A = laplacian_2d(90, 70);
  planners::SizeClassThresholds th = small_thresholds(3e5);
  th.gpu_subtree_only_min_flops = 1e5;
  th.gpu_subtree_fused_max_flops = 5e4;
  th.gpu_subtree_batched_max_cols = 24;
  RecordedFactor rec;
  register_factor(rec, cholesky::analyze(triangle(A, Triangle::Lower)), th.subtree_max_flops, 1);
  planners::SubtreePlans plans;
  std::vector<const kernels::SubtreeLevels*> first;
  for (int round = 0; round < 2; ++round) {
    const std::size_t from = rec.r.tasks().size();
    planners::submit_supernodal_cholesky(rec.r, rec.sym, rec.layout, *rec.data, th, nullptr, &plans);
    ASSERT_EQ(plans.group.size(), std::size_t(rec.layout.num_groups()));
    int gpu = 0, cpu = 0;
    for (std::size_t i = from; i < rec.r.tasks().size(); ++i) {
      const auto& t = rec.r.tasks()[i];
      if (t.kernel != "sn_subtree") continue;
      codelets::SubtreeArgs a;
      ASSERT_EQ(t.spec.args.size(), sizeof(a));
      std::memcpy(&a, t.spec.args.data(), sizeof(a));
      const index_t g = rec.group_of_handle.at(t.spec.data.at(0).handle);
      if (t.spec.where == rt::Where::Cpu) {
        EXPECT_EQ(a.plan, nullptr);
        ++cpu;
        continue;
      }
      ++gpu;
      ASSERT_NE(a.plan, nullptr);
      EXPECT_EQ(a.plan, plans.group[g].get());
      const auto fresh = kernels::plan_subtree_levels(rec.layout.loc.data(), rec.sym.rows.data(),
                                                      rec.sym.col_to_supernode.data(), a.first, a.last);
      EXPECT_EQ(a.plan->order, fresh.order);
      EXPECT_EQ(a.plan->level_begin, fresh.level_begin);
      EXPECT_EQ(a.plan->update_begin, fresh.update_begin);
      EXPECT_EQ(a.plan->fused_max_flops, th.gpu_subtree_fused_max_flops);
      EXPECT_EQ(a.plan->batched_max_cols, th.gpu_subtree_batched_max_cols);
      if (round == 0) first.push_back(a.plan);
      else EXPECT_NE(std::find(first.begin(), first.end(), a.plan), first.end());  // kept, not rebuilt
    }
    EXPECT_GT(gpu, 0);
    EXPECT_GT(cpu, 0);
  }
}

}  // namespace
}  // namespace hetsparse::test
