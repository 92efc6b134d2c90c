// The schedule simulator on a hand-built DAG whose schedule is worked out by hand below.
#include <gtest/gtest.h>

#include "cholesky/autotune/schedule_simulator.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// Kernel "k": flops seconds on a CPU core, a quarter of that on the GPU.
CostModels unit_costs() {
  CostModels m;
  m.set("k", ArchKind::Cpu, {{1.0, 1.0, 0.0}, 1});
  m.set("k", ArchKind::Cuda, {{0.25, 1.0, 0.0}, 1});
  return m;
}

//   t0 (2 flops, any, p10)    t1 (3, cpu, p5)
//        |        \             |
//   t2 (4, any, p8)  \---- t3 (1, cpu, p1)
//              \           /
//            t4 (8, any, p9)
TaskGraph diamond() {
  return {{{"k", 2, rt::Where::Any, true, 10, {}},
          {"k", 3, rt::Where::Cpu, true, 5, {}},
          {"k", 4, rt::Where::Any, true, 8, {0}},
          {"k", 1, rt::Where::Cpu, true, 1, {0, 1}},
          {"k", 8, rt::Where::Any, true, 9, {2, 3}}},
          0};
}

TEST(ScheduleSimulator, TwoCpusOneGpuHandComputed) {
  // t0: gpu [0, 0.5] (cpu would end at 2).   t2 (p8 before t1): gpu [0.5, 1.5].
  // t1: cpu A [0, 3].   t3: after t1, cpu B [3, 4].   t4: cpu would end 4 + 8, gpu [4, 6].
  const SimResult r = simulate_schedule(diamond(), {2, 1, 0.0, 0.0, 0.0}, unit_costs());
  EXPECT_DOUBLE_EQ(r.makespan_s, 6.0);
  EXPECT_EQ(r.tasks_on_gpu, 3u);
  EXPECT_DOUBLE_EQ(r.cpu_busy_s, 4.0);
  EXPECT_DOUBLE_EQ(r.gpu_busy_s, 3.5);
}

TEST(ScheduleSimulator, CpusOnlyWithOverhead) {
  // Each task costs flops + 0.5. t0: A [0, 2.5]. t2 (p8): B [2.5, 7]. t1: A [2.5, 6]. t3: A [6, 7.5].
  // t4: after t2 and t3, [7.5, 16].
  const SimResult r = simulate_schedule(diamond(), {2, 0, 0.5, 0.0, 0.0}, unit_costs());
  EXPECT_DOUBLE_EQ(r.makespan_s, 16.0);
  EXPECT_EQ(r.tasks_on_gpu, 0u);
  EXPECT_DOUBLE_EQ(r.cpu_busy_s, 18.0 + 5 * 0.5);
}

TEST(ScheduleSimulator, KernelsWithoutCudaStayOnCpus) {
  TaskGraph tasks = diamond();
  for (SimTask& t : tasks.tasks) t.has_cuda = false;
  const SimResult r = simulate_schedule(tasks, {1, 4, 0.0, 0.0, 0.0}, unit_costs());
  EXPECT_EQ(r.tasks_on_gpu, 0u);
  EXPECT_DOUBLE_EQ(r.makespan_s, 18.0);  // one CPU: the sum of the costs
}

TEST(ScheduleSimulator, SerialSubmissionAndRegistration) {
  // Three independent 1 s tasks on three CPUs, submitted 2 s apart: they end at 3, 5 and 7; four
  // handles at 0.25 s each come on top.
  const TaskGraph g{{{"k", 1, rt::Where::Cpu, true, 0, {}}, {"k", 1, rt::Where::Cpu, true, 0, {}},
                     {"k", 1, rt::Where::Cpu, true, 0, {}}},
                    4};
  const SimResult r = simulate_schedule(g, {3, 0, 0.0, 2.0, 0.25}, unit_costs());
  EXPECT_DOUBLE_EQ(r.makespan_s, 7.0);
  EXPECT_DOUBLE_EQ(r.registration_s, 1.0);
  EXPECT_DOUBLE_EQ(r.total_s, 8.0);
}

TEST(ScheduleSimulator, BadGraphsAndMachinesAreErrors) {
  TaskGraph later = diamond();
  later.tasks[1].deps = {3};
  EXPECT_THROW(simulate_schedule(later, {2, 1, 0.0, 0.0, 0.0}, unit_costs()), InvalidArgument);
  TaskGraph cuda_only = diamond();
  cuda_only.tasks[0].where = rt::Where::Cuda;
  EXPECT_THROW(simulate_schedule(cuda_only, {2, 0, 0.0, 0.0, 0.0}, unit_costs()), InvalidArgument);
  EXPECT_THROW(simulate_schedule(diamond(), {0, 0, 0.0, 0.0, 0.0}, unit_costs()), InvalidArgument);
  EXPECT_THROW(simulate_schedule(diamond(), {1, 0, 0.0, -1.0, 0.0}, unit_costs()), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::cholesky::autotune
