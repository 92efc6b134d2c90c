// The supernodal solve's task graph through the recording runtime: every group has a forward and a
// backward task on its panels' home, each forward task waits for the groups that send to it (their
// external blocks) and each backward task for the groups it reads, the plan's links cover every
// external row once, and the right-hand side and the solution go where the path (host or device
// handles) says.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "symbolic/analysis.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "hetsparse/error.hpp"
#include "planners/supernodal_solve.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/planners/supernodal_recording.hpp"

namespace hetsparse::test {
namespace {

struct SolveRecord : RecordedFactor {
  std::vector<rt::Where> homes;
  planners::SolvePlan plan;
  planners::SolveHandles h{};
  std::vector<double> b;
  std::size_t first_task = 0;  // the solve's tasks start here
};

void record_solve(SolveRecord& rec, const Csr& A, double subtree_max, int nrhs, bool device, int cuda_workers = 1,
                  bool sweeps = false) {
  register_factor(rec, cholesky::analyze(triangle(A, Triangle::Lower)), subtree_max, cuda_workers);
  planners::SizeClassThresholds th;
  th.gpu_min_task_flops = 1e4;  // small problem: all three homes appear
  th.gpu_only_min_flops = 2e5;
  th.subtree_max_flops = subtree_max;
  rec.homes = planners::panel_homes(rec.r, rec.sym, rec.layout, th);
  rec.plan = planners::plan_supernodal_solve(rec.sym, rec.layout, rec.homes);
  // No locations handle: groups of several supernodes run on CPU tasks (as the solver places them).
  for (index_t g = 0; g < rec.layout.num_groups(); ++g)
    if (rec.layout.group_begin[g + 1] - rec.layout.group_begin[g] > 1) rec.plan.where[g] = rt::Where::Cpu;
  rec.h.panels = &rec.data->group;
  rec.h.rows = rec.data->rows;
  rec.h.ext_rows = rec.r.register_vector({nullptr, rec.plan.ext_rows.size() + 1, sizeof(std::int32_t), -1, false});
  for (index_t g = 0; g < rec.layout.num_groups(); ++g) {
    rec.h.x.push_back(rec.r.register_temporary(std::size_t(rec.plan.rows(g)) * nrhs, sizeof(double)));
    rec.h.ext.push_back(rec.plan.next(g) ? rec.r.register_temporary(std::size_t(rec.plan.next(g)) * nrhs, 8) : 0);
  }
  rec.h.stage = rec.r.register_temporary(std::size_t(rec.sym.n) * nrhs, sizeof(double));
  rec.first_task = rec.r.tasks().size();
  planners::SolveRhs rhs;
  rhs.nrhs = nrhs;
  if (device) {
    rhs.device_b = rec.r.register_vector({nullptr, std::size_t(rec.sym.n) * nrhs});
    rhs.device_x = rec.r.register_vector({nullptr, std::size_t(rec.sym.n) * nrhs});
    rhs.perm = rec.r.register_vector({nullptr, std::size_t(rec.sym.n), sizeof(index_t), -1, false});
  } else {
    rec.b.assign(std::size_t(rec.sym.n) * nrhs, 0.0);
    rhs.host_b = rec.b.data();
    rhs.ldb = rec.sym.n;
  }
  planners::submit_supernodal_solve(rec.r, rec.sym, rec.layout, rec.plan, rec.h, rhs, sweeps);
}

bool reads(const rt::TaskSpec& t, rt::HandleId h) {
  for (const auto& d : t.data)
    if (d.handle == h) return true;
  return false;
}

class SupernodalSolveDag : public ::testing::TestWithParam<std::tuple<double, int, bool>> {};

TEST_P(SupernodalSolveDag, SweepsFollowTheLinksOnThePanelsHomes) {
  const auto [subtree_max, nrhs, device] = GetParam();
  SolveRecord rec;
  record_solve(rec, laplacian_3d(14, 13, 12), subtree_max, nrhs, device);
  const auto& tasks = rec.r.tasks();
  const index_t G = rec.layout.num_groups();
  const planners::SolvePlan& plan = rec.plan;

  // The plan: links of a source cover its external rows once, in order, each inside its target.
  for (index_t g = 0; g < G; ++g) {
    std::int32_t covered = 0;
    for (std::int64_t l = plan.links_from[g]; l < plan.links_from[g + 1]; ++l) {
      const auto& k = plan.links[l];
      EXPECT_EQ(k.source, g);
      EXPECT_GT(k.target, g);
      EXPECT_EQ(k.p0, covered);
      EXPECT_LT(k.p0, k.p1);
      for (std::int32_t p = k.p0; p < k.p1; ++p) {
        const std::int32_t row = plan.ext_rows[plan.ext_begin[g] + p];
        EXPECT_GE(row, plan.col_begin[k.target]);
        EXPECT_LT(row, plan.col_begin[k.target + 1]);
      }
      covered = k.p1;
    }
    EXPECT_EQ(covered, plan.next(g));
  }

  // Tasks per group and direction; the last task of each chain is the one that solves.
  std::map<index_t, std::vector<std::size_t>> fwd, bwd;
  std::map<rt::HandleId, index_t> group_of_x;
  for (index_t g = 0; g < G; ++g) group_of_x[rec.h.x[g]] = g;
  int collect = 0, store = 0, permute = 0;
  std::set<index_t> stored;
  for (std::size_t i = rec.first_task; i < tasks.size(); ++i) {
    const auto& t = tasks[i];
    if (t.kernel == "sn_solve_forward" || t.kernel == "sn_solve_backward") {
      const index_t g = group_of_x.at(t.spec.data[0].handle);
      (t.kernel == "sn_solve_forward" ? fwd : bwd)[g].push_back(i);
      EXPECT_EQ(t.spec.data[1].handle, (*rec.h.panels)[g]) << t.spec.name;
      const bool multi = rec.layout.group_begin[g + 1] - rec.layout.group_begin[g] > 1;
      EXPECT_EQ(t.spec.where, multi ? rt::Where::Cpu : rec.homes[g]) << t.spec.name;
      EXPECT_LE(t.spec.data.size(), rt::kMaxTaskData);
    } else if (t.kernel == "sn_solve_collect" || t.kernel == "sn_solve_store") {
      (t.kernel == "sn_solve_collect" ? collect : store)++;
      if (t.kernel == "sn_solve_collect") {
        EXPECT_EQ(t.spec.where, rt::Where::Cpu);
      } else {  // host solves store GPU-side blocks into the stage, device solves into x
        EXPECT_EQ(t.spec.data[0].handle, device ? rec.r.tasks()[i].spec.data[0].handle : rec.h.stage);
        EXPECT_EQ(t.spec.data[0].mode, rt::Access::ReadWrite);
      }
      for (const auto& d : t.spec.data) {
        if (group_of_x.count(d.handle)) {
          EXPECT_TRUE(stored.insert(group_of_x.at(d.handle)).second);
        }
      }
    } else if (t.kernel == "sn_solve_permute") {
      ++permute;
    } else {
      ADD_FAILURE() << "unexpected task " << t.spec.name;
    }
  }
  EXPECT_EQ(static_cast<index_t>(stored.size()), G);  // every block stored once
  bool off_cpu = false;
  for (index_t g = 0; g < G; ++g) off_cpu = off_cpu || planners::needs_stage(plan, g);
  EXPECT_EQ(!device, collect > 0);
  EXPECT_EQ(device || off_cpu, store > 0);
  EXPECT_EQ(device ? 1 : 0, permute);
  ASSERT_EQ(static_cast<index_t>(fwd.size()), G);
  ASSERT_EQ(static_cast<index_t>(bwd.size()), G);

  auto depends = [&](std::size_t later, std::size_t earlier) {
    const auto& d = tasks[later].deps;
    return std::binary_search(d.begin(), d.end(), earlier);
  };
  for (index_t g = 0; g < G; ++g) {
    // Host solves: a task that may leave the CPUs reads the stage, a CPU one the caller's b.
    const auto& first = tasks[fwd[g].front()].spec;
    EXPECT_EQ(reads(first, rec.h.stage), device || planners::needs_stage(plan, g)) << first.name;
    for (std::int64_t l : plan.links_into[g]) {
      const auto& k = plan.links[l];
      // Forward: some task of the target's chain reads the source's external block, after the
      // source's solving task; backward: the source's last task reads the target's unknowns after
      // the target's solving task.
      bool found = false;
      for (std::size_t i : fwd[g])
        if (reads(tasks[i].spec, rec.h.ext[k.source])) {
          found = true;
          EXPECT_TRUE(depends(i, fwd[k.source].back())) << tasks[i].spec.name;
        }
      EXPECT_TRUE(found) << "group " << g << " never reads group " << k.source;
      found = false;
      for (std::size_t i : bwd[k.source])
        if (reads(tasks[i].spec, rec.h.x[g])) {
          found = true;
          EXPECT_TRUE(depends(i, bwd[g].back())) << tasks[i].spec.name;
        }
      EXPECT_TRUE(found) << "group " << k.source << " never reads group " << g << " backward";
    }
    // Backward after forward on the group's own unknowns.
    EXPECT_TRUE(depends(bwd[g].front(), fwd[g].back()) || fwd[g].back() < bwd[g].front());
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SupernodalSolveDag,
                         ::testing::Combine(::testing::Values(0.0, 2e5, -1.0), ::testing::Values(1, 5),
                                            ::testing::Bool()));

// Without CUDA workers every group is a CPU group: no task reads the stage on the host path.
TEST(SupernodalSolveDag, CpuOnlyReadsTheHostRightHandSide) {
  SolveRecord rec;
  record_solve(rec, laplacian_3d(10, 10, 10), 1e5, 2, false, 0);
  for (rt::Where w : rec.homes) EXPECT_NE(w, rt::Where::Cuda);
  for (std::size_t i = rec.first_task; i < rec.r.tasks().size(); ++i) {
    const auto& t = rec.r.tasks()[i];
    if (t.kernel != "sn_solve_forward") continue;
    const bool needs = planners::needs_stage(rec.plan, [&] {
      for (index_t g = 0; g < rec.layout.num_groups(); ++g)
        if (rec.h.x[g] == t.spec.data[0].handle) return g;
      return index_t(-1);
    }());
    EXPECT_EQ(reads(t.spec, rec.h.stage), needs);
  }
}

// A wide separator: a root group receives from more groups than one task may take, so its forward
// step becomes a chain, each link read exactly once.
TEST(SupernodalSolveDag, LongLinkListsBecomeChains) {
  SolveRecord rec;
  record_solve(rec, laplacian_2d(300, 300), 0.0, 1, false);
  const index_t G = rec.layout.num_groups();
  std::size_t most = 0;
  for (index_t g = 0; g < G; ++g) most = std::max(most, rec.plan.links_into[g].size());
  if (most + 6 <= rt::kMaxTaskData) GTEST_SKIP() << "no group receives from more than " << most;
  std::map<rt::HandleId, int> ext_reads;
  for (std::size_t i = rec.first_task; i < rec.r.tasks().size(); ++i) {
    const auto& t = rec.r.tasks()[i];
    EXPECT_LE(t.spec.data.size(), rt::kMaxTaskData) << t.spec.name;
  }
  // Swept: every GPU group of one supernode in the sweeps but the wide one, which keeps its chain.
  {
    SolveRecord swept;
    record_solve(swept, laplacian_2d(300, 300), 0.0, 1, false, 1, true);
    int sweeps = 0, chained = 0;
    for (std::size_t i = swept.first_task; i < swept.r.tasks().size(); ++i) {
      const auto& t = swept.r.tasks()[i];
      EXPECT_LE(t.spec.data.size(), rt::kMaxTaskData) << t.spec.name;
      sweeps += t.kernel == "sn_solve_sweep";
      chained += t.spec.name.find("solve_fwd_") == 0 && t.spec.name.find('_', 10) != std::string::npos;
    }
    EXPECT_GT(sweeps, 0);
    EXPECT_GT(chained, 0);
  }
}

// The level-ordered solve's tasks: every chunk forward in order, then backward in reverse, each a
// CUDA task after the one before (the stage), with each group's panels in exactly one task per
// direction; the right-hand side in and the solution out as the path says.
TEST(SupernodalSolveDag, LevelSolveChainsItsChunksOnTheStage) {
  for (const bool device : {false, true}) {
    rt::RecordingRuntime r;
    r.set_cuda_workers(1);
    r.set_cpu_workers(4);
    const auto sym = cholesky::analyze(triangle(laplacian_3d(16, 15, 14), Triangle::Lower));
    const auto layout = planners::plan_factor_layout(sym, 2e5);
    std::vector<int> info(sym.num_supernodes(), 0);
    planners::RegisteredFactor data(r, sym, layout, nullptr, info.data());
    planners::LevelSolveOptions o;
    o.max_groups = 5;  // several chunks
    const planners::LevelSolvePlan plan = planners::plan_level_solve(sym, layout, o);
    ASSERT_GT(plan.chunks.size(), 2u);
    planners::LevelSolveHandles h{&data.group, data.rows, 0, 0, 0};
    planners::SolveRhs rhs;
    std::vector<double> b(sym.n);
    if (device) {
      rhs.device_b = r.register_vector({nullptr, std::size_t(sym.n)});
      rhs.device_x = rhs.device_b;
      rhs.perm = r.register_vector({nullptr, std::size_t(sym.n), 4, -1, false});
    } else {
      rhs.host_b = b.data();
      rhs.ldb = sym.n;
    }
    EXPECT_THROW(planners::submit_level_solve(r, sym, plan, h, rhs), InvalidArgument);  // handles missing
    h.loc = r.register_vector({nullptr, layout.loc.size(), sizeof(layout.loc[0]), -1, false});
    h.entries = r.register_vector({nullptr, plan.entries.size(), sizeof(plan.entries[0]), -1, false});
    h.stage = r.register_temporary(sym.n, 8);
    const std::size_t first = r.tasks().size();
    const auto st = planners::submit_level_solve(r, sym, plan, h, rhs);
    const auto& tasks = r.tasks();
    EXPECT_EQ(st.tasks, static_cast<long long>(tasks.size() - first));
    std::map<rt::HandleId, index_t> group_of_panels;
    for (index_t g = 0; g < layout.num_groups(); ++g) group_of_panels[data.group[g]] = g;
    std::map<index_t, int> fwd, bwd;
    std::size_t previous = 0, levels = 0;
    for (std::size_t i = first; i < tasks.size(); ++i) {
      const auto& t = tasks[i];
      if (i == first && device) {
        EXPECT_EQ(t.kernel, "sn_solve_permute");
      }
      if (t.kernel != "sn_solve_levels") {
        if (levels > 0) {
          EXPECT_TRUE(reads(t.spec, h.stage)) << t.spec.name;
          EXPECT_TRUE(std::binary_search(t.deps.begin(), t.deps.end(), previous)) << t.spec.name;
          EXPECT_EQ(t.kernel, device ? "sn_solve_store" : "sn_solve_collect");
        }
        continue;
      }
      const bool forward = levels < plan.chunks.size();
      const auto& chunk = plan.chunks[forward ? levels : 2 * plan.chunks.size() - 1 - levels];
      EXPECT_EQ(t.spec.where, rt::Where::Cuda);
      EXPECT_LE(t.spec.data.size(), rt::kMaxTaskData);
      EXPECT_EQ(t.spec.data.size(), chunk.groups.size() + codelets::kLevelFirstPanel);
      EXPECT_EQ(t.spec.data[2].handle, h.stage);
      EXPECT_EQ(t.spec.data[2].mode, rt::Access::ReadWrite);
      if (i > first + (device ? 1 : 0)) {
        EXPECT_TRUE(std::binary_search(t.deps.begin(), t.deps.end(), i - 1)) << t.spec.name;
      }
      for (std::size_t k = codelets::kLevelFirstPanel; k < t.spec.data.size(); ++k) {
        const index_t g = group_of_panels.at(t.spec.data[k].handle);
        EXPECT_EQ(g, chunk.groups[k - codelets::kLevelFirstPanel]);
        ++(forward ? fwd : bwd)[g];
      }
      previous = i;
      ++levels;
    }
    EXPECT_EQ(levels, 2 * plan.chunks.size());
    for (index_t g = 0; g < layout.num_groups(); ++g) {
      EXPECT_EQ(fwd[g], 1) << g;
      EXPECT_EQ(bwd[g], 1) << g;
    }
  }
}

// GPU groups of one supernode swept together: each group solved once per direction (in its own task
// or as an item of a sweep task on CUDA), after every group it reads (earlier in the same sweep, or
// in a task the sweep depends on), and far fewer tasks than groups.
class SupernodalSolveSweeps : public ::testing::TestWithParam<std::tuple<double, int, bool>> {};

TEST_P(SupernodalSolveSweeps, SweptGroupsFollowTheLinks) {
  const auto [subtree_max, nrhs, device] = GetParam();
  SolveRecord rec;
  record_solve(rec, laplacian_3d(14, 13, 12), subtree_max, nrhs, device, 1, true);
  const auto& tasks = rec.r.tasks();
  const index_t G = rec.layout.num_groups();
  const planners::SolvePlan& plan = rec.plan;
  std::map<rt::HandleId, index_t> group_of_x;
  for (index_t g = 0; g < G; ++g) group_of_x[rec.h.x[g]] = g;
  using Pos = std::pair<std::size_t, int>;  // task, item
  std::map<index_t, Pos> fwd, bwd;
  int sweeps = 0, swept = 0;
  for (std::size_t i = rec.first_task; i < tasks.size(); ++i) {
    const auto& t = tasks[i];
    if (t.kernel == "sn_solve_forward" || t.kernel == "sn_solve_backward") {
      const index_t g = group_of_x.at(t.spec.data[0].handle);
      EXPECT_NE(plan.where[g], rt::Where::Cuda) << t.spec.name;  // CUDA groups are swept
      (t.kernel == "sn_solve_forward" ? fwd : bwd)[g] = {i, 0};  // the chain's last task solves
    } else if (t.kernel == "sn_solve_sweep") {
      ++sweeps;
      EXPECT_EQ(t.spec.where, rt::Where::Cuda);
      EXPECT_LE(t.spec.data.size(), rt::kMaxTaskData);
      codelets::SolveSweepHeader hd;
      ASSERT_GE(t.spec.args.size(), sizeof(hd));
      std::memcpy(&hd, t.spec.args.data(), sizeof(hd));
      ASSERT_EQ(t.spec.args.size(), sizeof(hd) + hd.count * sizeof(codelets::SolveSweepItem));
      EXPECT_EQ(hd.nrhs, nrhs);
      for (int k = 0; k < hd.count; ++k) {
        codelets::SolveSweepItem it;
        std::memcpy(&it, t.spec.args.data() + sizeof(hd) + k * sizeof(it), sizeof(it));
        if (it.kind != 0) continue;
        const auto& d = t.spec.data.at(it.x);
        const index_t g = group_of_x.at(d.handle);
        EXPECT_EQ(plan.where[g], rt::Where::Cuda);
        EXPECT_EQ(rec.layout.group_begin[g + 1] - rec.layout.group_begin[g], 1);
        EXPECT_EQ(d.mode, hd.forward ? rt::Access::Write : rt::Access::ReadWrite) << t.spec.name;
        EXPECT_TRUE((hd.forward ? fwd : bwd).emplace(g, Pos{i, k}).second) << "group " << g << " swept twice";
        swept += hd.forward;
        if (hd.forward) {
          EXPECT_TRUE(reads(t.spec, rec.h.stage));
        }
      }
    }
  }
  auto depends = [&](std::size_t later, std::size_t earlier) {
    const auto& d = tasks[later].deps;
    return std::binary_search(d.begin(), d.end(), earlier);
  };
  // Swept or not, one solve per group and direction, after what it reads.
  ASSERT_EQ(static_cast<index_t>(fwd.size()), G);
  ASSERT_EQ(static_cast<index_t>(bwd.size()), G);
  for (const auto& k : plan.links) {
    EXPECT_LT(fwd[k.source], fwd[k.target]) << k.source << " -> " << k.target;
    if (fwd[k.source].first != fwd[k.target].first && plan.links_into[k.target].size() + 6 <= rt::kMaxTaskData) {
      EXPECT_TRUE(depends(fwd[k.target].first, fwd[k.source].first)) << k.source << " -> " << k.target;
    }
    EXPECT_LT(bwd[k.target], bwd[k.source]) << k.source << " -> " << k.target;
  }
  for (index_t g = 0; g < G; ++g) EXPECT_LT(fwd[g].first, bwd[g].first);
  int cuda_groups = 0;
  for (index_t g = 0; g < G; ++g)
    cuda_groups += plan.where[g] == rt::Where::Cuda && rec.layout.group_begin[g + 1] - rec.layout.group_begin[g] == 1;
  EXPECT_EQ(swept, cuda_groups);
  if (cuda_groups > 4) {
    EXPECT_LT(sweeps, cuda_groups);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SupernodalSolveSweeps,
                         ::testing::Combine(::testing::Values(0.0, 2e5, -1.0), ::testing::Values(1, 5),
                                            ::testing::Bool()));

}  // namespace
}  // namespace hetsparse::test
