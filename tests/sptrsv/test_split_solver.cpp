// TriangularSolver with the split on StarPU's CPU workers: the CPU-CPU split (level-scheduled part 1,
// serial part 2) under peager (a 2-wide parallel task) and dmdas, lower and upper, 1 and 3
// right-hand sides, transposed (unified) and in place, new values; `auto` on a machine without GPU;
// forced policies this machine or triangle cannot run are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "codelets/sptrsv/sptrsv_level_workers.hpp"
#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

// Wide levels, then a thin tail: the HTS rule cuts after the wide levels.
Csr wide_then_thin() { return level_profile_lower("b6000x6+c400", 4, 3); }

sptrsv::TriangularSolveOptions split_options(sptrsv::SplitMode mode, int width) {
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Cpu;
  o.split.mode = mode;
  o.split.cpu_parallel_width = width;
  return o;
}

void check_cpu_cpu(rt::Runtime& r) {
  for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr T = solver_input(wide_then_thin(), tri, false, 4);
    const std::string what = std::string("cpu-cpu ") + (tri == Triangle::Upper ? "upper" : "lower");
    sptrsv::TriangularSolver s(r);
    s.analyze(T, tri, false, split_options(sptrsv::SplitMode::CpuCpu, codelets::widest_parallel_worker()));
    ASSERT_NE(s.split(), nullptr);
    ASSERT_TRUE(s.split()->active()) << what;
    EXPECT_EQ(s.chosen_variant(), "split:cpu-cpu");
    EXPECT_EQ(s.split()->part(1).chosen_variant(), "cpu_parallel_task") << what;
    EXPECT_EQ(s.split()->part(2).chosen_variant(), "cpu_serial") << what;
    EXPECT_GT(s.split()->blocks().a21_nnz(), 0) << what;
    EXPECT_GT(s.preprocess_seconds(), s.analysis_seconds());
    run_solves(s, T, tri, false, what);
  }
}

TEST(SplitSolverCpu, CpuCpuUnderPeager) {
  rt::Runtime r(test_runtime_options("peager", 2, 0));
  ASSERT_EQ(codelets::widest_parallel_worker(), 2);
  check_cpu_cpu(r);
}

TEST(SplitSolverCpu, CpuCpuUnderDmdas) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  check_cpu_cpu(r);
}

TEST(SplitSolverCpu, NewValuesWithoutNewAnalysis) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  const Csr T = wide_then_thin();
  sptrsv::TriangularSolver s(r);
  s.analyze(T, Triangle::Lower, false, split_options(sptrsv::SplitMode::CpuCpu, 2));
  const index_t cut = s.split()->decision().cut_level;
  Csr T2 = T;
  for (std::size_t k = 0; k < T2.values.size(); ++k) T2.values[k] *= 1.0 + 0.5 * std::sin(static_cast<double>(k));
  s.update_values(T2);
  EXPECT_EQ(s.split()->decision().cut_level, cut);
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 21);
  std::vector<double> X(B.size(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T2, Triangle::Lower, false, false, B, X, 1, "after update_values");
}

TEST(SplitSolverCpu, AutoWithoutGpuStaysOnTheCpus) {
  rt::Runtime r(test_runtime_options("peager", 2, 0));
  // The starting cost models (an empty model file), and ones where thin levels crawl in the
  // level-scheduled task, which sends a wide-then-thin triangle to the CPU-CPU split when enough
  // solves are expected to pay back its setup (the blocks, the parts' analyses), not for one.
  const std::string crawl = test::test_output_dir() + "split_model_crawl.tsv";
  std::ofstream(crawl) << "cost_cpu_1\t1e-5\ncost_cpu_levels_1\t1e-4\ncost_cpu_cpu\t0\n";
  const int many = 1 << 30;
  const std::tuple<const char*, const char*, int, planners::SplitPolicy> cases[] = {
      {"b6000x6+c400", "/dev/null", many, planners::SplitPolicy::UnifiedCpuLevels},
      {"c3000+b20000x5", "/dev/null", many, planners::SplitPolicy::UnifiedCpuLevels},
      {"c2000", "/dev/null", many, planners::SplitPolicy::UnifiedCpu},
      {"b6000x6+c400", crawl.c_str(), many, planners::SplitPolicy::CpuCpu},
      {"b6000x6+c400", crawl.c_str(), 1, planners::SplitPolicy::UnifiedCpu}};
  for (const auto& [spec, model, solves, expected] : cases) {
    const Csr T = level_profile_lower(spec, 4, 5);
    sptrsv::TriangularSolveOptions o;  // device auto
    o.expected_solves = solves;
    o.split.mode = sptrsv::SplitMode::Auto;
    o.split.cpu_parallel_width = 2;
    o.split.model_file = model;
    o.split.measure.enabled = false;  // the model's own decision (the tie-break: MeasuredTieBreak)
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false, o);
    ASSERT_NE(s.split(), nullptr);
    const planners::SplitPolicy p = s.split()->decision().policy;
    EXPECT_EQ(p, expected) << spec << ": " << s.split()->describe();
    EXPECT_EQ(s.chosen_variant(), expected == planners::SplitPolicy::CpuCpu           ? "split:cpu-cpu"
                                  : expected == planners::SplitPolicy::UnifiedCpuLevels ? "cpu_parallel_task"
                                                                                        : "cpu_serial");
    EXPECT_FALSE(s.split()->describe().empty());
    if (solves == 1 && model == crawl.c_str()) {
      EXPECT_NE(s.split()->decision().reason.find("does not pay back in 1 solves"), std::string::npos)
          << s.split()->decision().reason;
    }
    // The whole split setup counts: the structure, the decision, and the blocks and parts of a split.
    EXPECT_GE(s.split()->setup_seconds(), s.split()->structure().seconds) << spec;
    if (s.split()->active()) {
      EXPECT_GE(s.split()->setup_seconds(), s.split()->part(1).analysis_seconds() + s.split()->part(2).analysis_seconds());
    }
    run_solves(s, T, Triangle::Lower, false, spec);
  }
}

// The measured tie-break on the CPUs: with a margin that takes every CPU policy in (one core, the
// 2-wide level-scheduled task, the CPU-CPU split where the triangle has a thin tail), each is timed,
// the pick is the fastest median and the solver runs it; with device Cpu it is not measured.
TEST(SplitSolverCpu, MeasuredTieBreak) {
  rt::Runtime r(test_runtime_options("peager", 2, 0));
  for (const char* spec : {"b6000x6+c400", "c300+b8000x4"}) {
    const Csr T = level_profile_lower(spec, 4, 9);
    sptrsv::TriangularSolveOptions o;  // device auto
    o.expected_solves = 1 << 30;       // every split a candidate, whatever its setup
    o.split.mode = sptrsv::SplitMode::Auto;
    o.split.cpu_parallel_width = 2;
    o.split.model_file = "/dev/null";  // the starting cost models
    o.split.measure = planners::SplitMeasureOptions::parse("on:margin=1000,max-ms=1e9,solves=3");
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false, o);
    ASSERT_NE(s.split(), nullptr);
    const planners::SplitMeasurement& m = s.split()->measurement();
    ASSERT_TRUE(m.measured) << spec << ": " << s.split()->describe();
    EXPECT_GE(m.candidates.size(), 2u) << spec;
    double fastest = INFINITY;
    for (const planners::MeasuredPolicy& c : m.candidates) {
      EXPECT_TRUE(c.error.empty()) << spec << " " << planners::to_string(c.policy) << ": " << c.error;
      EXPECT_GT(c.measured_ms, 0.0) << spec;
      fastest = std::min(fastest, c.measured_ms);
    }
    for (const planners::MeasuredPolicy& c : m.candidates)
      if (c.policy == m.pick) {
        EXPECT_EQ(c.measured_ms, fastest) << spec;
      }
    EXPECT_EQ(s.split()->decision().policy, m.pick) << spec;
    EXPECT_EQ(s.split()->active(), planners::is_split(m.pick)) << spec;
    EXPECT_EQ(s.chosen_variant(), m.pick == planners::SplitPolicy::CpuCpu      ? "split:cpu-cpu"
                                  : m.pick == planners::SplitPolicy::UnifiedCpu ? "cpu_serial"
                                                                                : "cpu_parallel_task")
        << spec;
    EXPECT_GT(m.seconds, 0.0);
    EXPECT_GE(s.split()->setup_seconds(), m.seconds);
    EXPECT_NE(s.split()->describe().find("measured:"), std::string::npos) << s.split()->describe();
    run_solves(s, T, Triangle::Lower, false, std::string(spec) + " measured");
    // Device Cpu: the caller fixed the device, so the model's decision stands.
    o.device = sptrsv::SolveDevice::Cpu;
    s.analyze(T, Triangle::Lower, false, o);
    EXPECT_FALSE(s.split()->measurement().measured) << spec;
    EXPECT_STREQ(s.split()->measurement().how(), "model");
  }
}

TEST(SplitSolverCpu, RefusesWhatItCannotRun) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 0));
  sptrsv::TriangularSolver s(r);
  // A GPU split without CUDA workers, and a CPU-CPU split of a triangle with no thin tail.
  EXPECT_THROW(s.analyze(wide_then_thin(), Triangle::Lower, false, split_options(sptrsv::SplitMode::CpuGpu, 2)),
               InvalidArgument);
  EXPECT_THROW(s.analyze(level_profile_lower("b6000x6", 4, 3), Triangle::Lower, false,
                         split_options(sptrsv::SplitMode::CpuCpu, 2)),
               InvalidArgument);
  EXPECT_THROW(sptrsv::parse_split_mode("gpu-cpu"), InvalidArgument);
  EXPECT_EQ(sptrsv::parse_split_mode("cpu-cpu"), sptrsv::SplitMode::CpuCpu);
  sptrsv::TriangularSolveOptions bad = split_options(sptrsv::SplitMode::Auto, 2);
  bad.split.model_file = "/nonexistent/split_model.tsv";
  EXPECT_THROW(s.analyze(wide_then_thin(), Triangle::Lower, false, bad), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
