// TriangularSolver's level-scheduled CPU modes through StarPU on 2 CPU workers, against ref::sptrsv:
// the parallel task under peager (a 2-wide combined worker) and under dmdas (no combined workers:
// one worker), per-level tasks under dmdas and lws, the fork-join parallel task through the
// codelet. Lower and upper, unit diagonal, 1 and 3 right-hand sides, transposed (serial) and in place.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "codelets/sptrsv/sptrsv_level_workers.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

// Every case, triangle and diagonal, with sharing forced (1 entry per share) and at the default.
void check_mode(rt::Runtime& r, sptrsv::CpuMode mode) {
  for (const SolverCase& c : solver_cases()) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      for (bool unit : {false, true}) {
        for (std::int64_t min_entries : {std::int64_t{1}, std::int64_t{0}}) {
          const Csr T = solver_input(c.lower, tri, unit, 3);
          const std::string what = std::string(c.name) + (tri == Triangle::Upper ? " upper" : " lower") +
                                   (unit ? " unit" : "") + " min " + std::to_string(min_entries);
          sptrsv::TriangularSolver s(r);
          sptrsv::TriangularSolveOptions o;
          o.device = sptrsv::SolveDevice::Cpu;
          o.cpu_mode = mode;
          o.cpu_min_entries = min_entries;
          s.analyze(T, tri, unit, o);
          EXPECT_EQ(s.chosen_variant(),
                    mode == sptrsv::CpuMode::ParallelTask ? "cpu_parallel_task" : "cpu_level_tasks");
          run_solves(s, T, tri, unit, what);
          if (mode == sptrsv::CpuMode::LevelTasks) {
            ASSERT_NE(s.level_tasks(), nullptr);
            EXPECT_EQ(s.level_tasks()->options().chunks, 2) << "one share per CPU worker";
            std::size_t expected = 2;  // the fences, then a task per run or non-empty share
            for (const kernels::LevelStep& step : s.level_tasks()->steps()) {
              if (!step.shared()) ++expected;
              for (std::size_t i = 0; i + 1 < step.cuts.size(); ++i) expected += step.cuts[i] < step.cuts[i + 1];
            }
            EXPECT_EQ(s.level_tasks()->tasks_last_submit(), expected) << what;
          }
        }
      }
    }
  }
}

TEST(TriangularSolverCpuModes, ParallelTaskSpansTheCombinedWorkerUnderPeager) {
  rt::Runtime r(test_runtime_options("peager", 2, 0));
  ASSERT_EQ(codelets::widest_parallel_worker(), 2) << "peager combines the 2 CPU workers";
  check_mode(r, sptrsv::CpuMode::ParallelTask);
  EXPECT_EQ(codelets::last_parallel_task_width(), 2);
}

TEST(TriangularSolverCpuModes, ParallelTaskRunsOnOneWorkerUnderDmdas) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  EXPECT_EQ(codelets::widest_parallel_worker(), 1);
  check_mode(r, sptrsv::CpuMode::ParallelTask);
  EXPECT_EQ(codelets::last_parallel_task_width(), 1);
}

TEST(TriangularSolverCpuModes, LevelTasksUnderDmdas) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  check_mode(r, sptrsv::CpuMode::LevelTasks);
}

TEST(TriangularSolverCpuModes, LevelTasksUnderLws) {
  rt::Runtime r(test_runtime_options("lws", 2, 0));
  check_mode(r, sptrsv::CpuMode::LevelTasks);
}

TEST(TriangularSolverCpuModes, ForkJoinParallelTaskThroughTheCodelet) {
  rt::Runtime r(test_runtime_options("peager", 2, 0));
  for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr T = solver_input(solver_cases()[1].lower, tri, false, 8);
    const sptrsv::TriangularPattern p(T, tri, false);
    const kernels::TriangularView v = p.host_view();
    const auto n = static_cast<std::size_t>(p.rows());
    const auto nnz = static_cast<std::size_t>(p.nnz());
    const auto vec = [&r](const auto* data, std::size_t count) {
      using V = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
      return rt::DataHandle(r, r.register_vector({const_cast<V*>(data), count, sizeof(V)}));
    };
    rt::DataHandle rows = vec(v.level_rows, n), rp = vec(v.level_rowptr, n + 1), ci = vec(v.level_colind, nnz),
                   va = vec(v.level_values, nnz);
    constexpr int kRhs = 2;
    std::vector<double> B = random_values(n * kRhs, 9), X(B.size(), std::nan(""));
    rt::DataHandle hb = rt::make_matrix_handle(r, B.data(), n, n, kRhs),
                   hx = rt::make_matrix_handle(r, X.data(), n, n, kRhs);
    codelets::SptrsvMatrixHandles th;
    th.level_rows = rows.id();
    th.has_level_copy = true;
    th.level_rowptr = rp.id();
    th.level_colind = ci.id();
    th.level_values = va.id();
    codelets::SptrsvLevelParams params;
    params.n = p.rows();
    params.upper = tri == Triangle::Upper;
    params.nrhs = kRhs;
    params.num_levels = p.num_levels();
    params.host_level_ptr = p.level_ptr().data();
    params.host_level_nnz = p.level_nnz().data();
    params.min_entries_per_share = 1;
    codelets::insert_sptrsv_parallel(r, {}, th, hb.id(), hx.id(), params, p.nnz(),
                                     codelets::ParallelTaskKind::ForkJoin);
    r.wait_all();
    hx.reset();
    expect_matches_reference(T, tri, false, false, B, X, kRhs, tri == Triangle::Upper ? "fork-join upper" : "fork-join lower");
    EXPECT_EQ(codelets::last_parallel_task_width(), 2);
  }
}

}  // namespace
}  // namespace hetsparse::test
