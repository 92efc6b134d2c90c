// The per-level task planner on the RecordingRuntime (no StarPU): fences first and last, every
// position solved by exactly one task, every row's dependencies solved by an ancestor task (so the
// recorded dependencies are enough for any concurrent execution), and executing the recorded tasks
// in random dependency-respecting orders gives ref::sptrsv's solution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "runtime/recording_runtime.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/cpu_solve.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

constexpr index_t kRhs = 2;

struct Recorded {
  rt::RecordingRuntime rec;
  codelets::SptrsvMatrixHandles T;
  rt::HandleId b = 0, x = 0;
};

template <class V>
rt::HandleId reg(rt::RecordingRuntime& rec, const V* p, std::size_t n) {
  return rec.register_vector({const_cast<V*>(p), n, sizeof(V)});
}

void register_inputs(Recorded& r, const sptrsv::TriangularPattern& p, std::vector<double>& b, std::vector<double>& x) {
  const kernels::TriangularView v = p.host_view();
  const auto n = static_cast<std::size_t>(p.rows());
  const auto nnz = static_cast<std::size_t>(p.nnz());
  r.T.level_rows = reg(r.rec, v.level_rows, n);
  r.T.rowptr = reg(r.rec, v.rowptr, n + 1);
  r.T.colind = reg(r.rec, v.colind, nnz);
  r.T.values = reg(r.rec, v.values, nnz);
  r.T.has_level_copy = v.level_rowptr != nullptr;
  if (r.T.has_level_copy) {
    r.T.level_rowptr = reg(r.rec, v.level_rowptr, n + 1);
    r.T.level_colind = reg(r.rec, v.level_colind, nnz);
    r.T.level_values = reg(r.rec, v.level_values, nnz);
  }
  r.b = r.rec.register_matrix({b.data(), n, n, kRhs});
  r.x = r.rec.register_matrix({x.data(), n, n, kRhs});
}

// ancestors[t][u]: task u precedes task t through the recorded dependencies.
std::vector<std::vector<char>> ancestors(const std::vector<rt::RecordingRuntime::Task>& tasks) {
  std::vector<std::vector<char>> a(tasks.size(), std::vector<char>(tasks.size(), 0));
  for (const auto& t : tasks) {
    for (std::size_t d : t.deps) {
      a[t.id][d] = 1;
      for (std::size_t u = 0; u < d; ++u) a[t.id][u] |= a[d][u];
    }
  }
  return a;
}

void check_dag(const sptrsv::TriangularPattern& p, const rt::RecordingRuntime& rec, std::size_t steps) {
  const auto& tasks = rec.tasks();
  ASSERT_GE(tasks.size(), 3u);
  EXPECT_EQ(tasks.front().spec.name, "sptrsv_level_open");
  EXPECT_EQ(tasks.back().spec.name, "sptrsv_level_close");
  EXPECT_EQ(rec.critical_path_length(), steps + 2);
  const auto anc = ancestors(tasks);
  const auto n = static_cast<std::size_t>(p.rows());
  std::vector<std::size_t> owner(n, tasks.size());
  for (std::size_t t = 1; t + 1 < tasks.size(); ++t) {
    EXPECT_EQ(tasks[t].spec.where, rt::Where::Cpu);
    EXPECT_TRUE(anc[t][0]) << "task " << t << " does not wait for the opening fence";
    EXPECT_TRUE(anc[tasks.size() - 1][t]) << "the closing fence does not wait for task " << t;
    const auto [begin, end] = codelets::level_range_positions(tasks[t].spec);
    for (index_t pos = begin; pos < end; ++pos) {
      ASSERT_EQ(owner[static_cast<std::size_t>(pos)], tasks.size()) << "position " << pos << " solved twice";
      owner[static_cast<std::size_t>(pos)] = t;
    }
  }
  std::vector<index_t> position(n);
  for (std::size_t k = 0; k < n; ++k) position[static_cast<std::size_t>(p.level_rows()[k])] = static_cast<index_t>(k);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t t = owner[k];
    ASSERT_LT(t, tasks.size()) << "position " << k << " never solved";
    const index_t row = p.level_rows()[k];
    for (index_t e = p.rowptr()[row]; e < p.rowptr()[row + 1]; ++e) {
      const index_t col = p.colind()[e];
      if (col == row) continue;
      const auto q = static_cast<std::size_t>(position[static_cast<std::size_t>(col)]);
      EXPECT_TRUE(anc[t][owner[q]] || (owner[q] == t && q < k))
          << "row " << row << " (task " << t << ") reads row " << col << " of task " << owner[q] << ", not an ancestor";
    }
  }
}

// Runs the recorded range tasks in a random order that respects the dependencies.
void execute_shuffled(const sptrsv::TriangularPattern& p, const rt::RecordingRuntime& rec, const std::vector<double>& b,
                      std::vector<double>& x, std::uint64_t seed) {
  const auto& tasks = rec.tasks();
  std::vector<std::vector<std::size_t>> next(tasks.size());
  std::vector<std::size_t> waiting(tasks.size());
  for (const auto& t : tasks) {
    waiting[t.id] = t.deps.size();
    for (std::size_t d : t.deps) next[d].push_back(t.id);
  }
  std::vector<std::size_t> ready;
  for (const auto& t : tasks)
    if (waiting[t.id] == 0) ready.push_back(t.id);
  std::mt19937_64 rng(seed);
  while (!ready.empty()) {
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng);
    const std::size_t t = ready[pick];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(pick));
    if (tasks[t].kernel == std::string(codelets::sptrsv_level_range_kernel().name)) {
      const auto [begin, end] = codelets::level_range_positions(tasks[t].spec);
      kernels::sptrsv_cpu_level(p.host_view(), begin, end, b.data(), p.rows(), x.data(), p.rows(), kRhs);
    }
    for (std::size_t s : next[t])
      if (--waiting[s] == 0) ready.push_back(s);
  }
}

class SptrsvLevelTasks : public ::testing::TestWithParam<std::string> {};

TEST_P(SptrsvLevelTasks, DependenciesSufficeAndShuffledExecutionsSolve) {
  for (const SolveCase& c : solve_cases()) {
    for (const bool copy : {true, false}) {
      sptrsv::AnalysisOptions ao;
      ao.level_ordered_copy = copy;
      const Csr input = solver_input(sptrsv_matrix(GetParam()), c.tri, c.unit_diagonal, 31);
      const sptrsv::TriangularPattern p(input, c.tri, c.unit_diagonal, ao);
      const auto n = static_cast<std::size_t>(p.rows());
      std::vector<double> b = random_values(n * kRhs, 32), x(b.size());
      for (const int chunks : {2, 3}) {
        for (const std::int64_t min_entries : {std::int64_t{1}, std::int64_t{200}}) {
          SCOPED_TRACE(c.label() + (copy ? ", level copy, " : ", no copy, ") + std::to_string(chunks) +
                       " chunks, min " + std::to_string(min_entries));
          Recorded r;
          register_inputs(r, p, b, x);
          sptrsv::LevelTaskPlanner planner(r.rec, {chunks, min_entries});
          planner.submit(p.host_view(), r.T, r.b, r.x, kRhs);
          EXPECT_EQ(r.rec.tasks().size(), planner.tasks_last_submit());
          check_dag(p, r.rec, planner.steps().size());
          for (std::uint64_t seed : {1u, 2u}) {
            std::fill(x.begin(), x.end(), std::nan(""));
            execute_shuffled(p, r.rec, b, x, seed);
            for (index_t col = 0; col < kRhs; ++col) {
              std::vector<double> expected(n);
              ref::sptrsv(input, c.tri, c.unit_diagonal, b.data() + col * n, expected.data());
              EXPECT_TRUE(close_to(x.data() + col * n, expected)) << "order " << seed << ", column " << col;
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, SptrsvLevelTasks, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& matrix) { return matrix.param; });

TEST(SptrsvLevelTaskPlanner, TwoSetsPerChunkAndArgumentsChecked) {
  rt::RecordingRuntime rec;
  { sptrsv::LevelTaskPlanner planner(rec, {4, 100}); }
  EXPECT_EQ(rec.tasks().size(), 0u);
  for (rt::HandleId h = 0; h < 8; ++h) EXPECT_EQ(rec.data(h).kind, rt::RecordingRuntime::DataKind::Temporary);
  EXPECT_THROW(sptrsv::LevelTaskPlanner(rec, {0, 100}), InvalidArgument);
  EXPECT_THROW(sptrsv::LevelTaskPlanner(rec, {2, 0}), InvalidArgument);
  EXPECT_EQ(sptrsv::parse_cpu_mode("level-tasks"), sptrsv::CpuMode::LevelTasks);
  EXPECT_STREQ(sptrsv::to_string(sptrsv::parse_cpu_mode("parallel-task")), "parallel-task");
  EXPECT_THROW(sptrsv::parse_cpu_mode("threads"), InvalidArgument);
}

// The solver's task emission per CPU mode; T^T solves stay one serial task.
TEST(SptrsvLevelTaskPlanner, TriangularSolverEmitsEachCpuModeOnTheRecordingRuntime) {
  rt::RecordingRuntime rec;
  const Csr T = solver_input(sptrsv_matrix("anchor_laplacian_2d_60"), Triangle::Lower, false, 3);
  const auto n = static_cast<std::size_t>(T.rows);
  std::vector<double> b(2 * n, 1.0), x(2 * n);
  for (const sptrsv::CpuMode mode :
       {sptrsv::CpuMode::Serial, sptrsv::CpuMode::ParallelTask, sptrsv::CpuMode::LevelTasks}) {
    SCOPED_TRACE(sptrsv::to_string(mode));
    sptrsv::TriangularSolver s(rec);
    sptrsv::TriangularSolveOptions o;
    o.device = sptrsv::SolveDevice::Cpu;
    o.cpu_mode = mode;
    o.cpu_min_entries = 1;
    o.cpu_chunks = 3;
    s.analyze(T, Triangle::Lower, false, o);
    std::size_t first = rec.tasks().size();
    s.solve(b.data(), x.data(), 2);
    const std::size_t emitted = rec.tasks().size() - first;
    switch (mode) {
      case sptrsv::CpuMode::Serial:
        ASSERT_EQ(emitted, 1u);
        EXPECT_EQ(rec.tasks().back().kernel, "sptrsv");
        break;
      case sptrsv::CpuMode::ParallelTask:
        ASSERT_EQ(emitted, 1u);
        EXPECT_EQ(rec.tasks().back().kernel, std::string(codelets::sptrsv_spmd_kernel().name));
        EXPECT_EQ(rec.tasks().back().spec.where, rt::Where::Cpu);
        break;
      case sptrsv::CpuMode::LevelTasks:
        ASSERT_NE(s.level_tasks(), nullptr);
        EXPECT_EQ(s.level_tasks()->options().chunks, 3);
        EXPECT_EQ(emitted, s.level_tasks()->tasks_last_submit());
        EXPECT_GT(emitted, s.level_tasks()->steps().size() + 2) << "some level is shared";
        EXPECT_EQ(rec.tasks()[first].spec.name, "sptrsv_level_open");
        break;
    }
    first = rec.tasks().size();
    s.solve(b.data(), x.data(), 2, /*transpose=*/true);
    ASSERT_EQ(rec.tasks().size() - first, 1u);
    EXPECT_EQ(rec.tasks().back().spec.name, "sptrsv_transpose");
  }
}

}  // namespace
}  // namespace hetsparse::test
