// TriangularSolver's split on a CUDA worker and CPU workers (label gpu, skipped without one): the
// CPU-GPU split both ways round (serial part first or last), the GPU-GPU single-algorithm split on
// a triangle with long columns, `auto` choosing the CPU-GPU split for a chain glued to a wide block,
// new values; each against ref::sptrsv, lower and upper, 1 and 3 right-hand sides (3: on CPU
// workers), transposed (unified) and in place; the measured tie-break with GPU candidates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sparse/generators.hpp"
#include "sptrsv/split_solver.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

// Hubs 0..15 (level 0) read by every other row, rows in 3 levels: long columns.
Csr hub_triangle() {
  const index_t hubs = 16, k = 3000;
  Csr a;
  a.rows = a.cols = hubs + 2 * k;
  a.rowptr.assign(1, 0);
  for (index_t i = 0; i < a.rows; ++i) {
    if (i >= hubs) {
      a.colind.push_back(i % hubs);
      a.values.push_back(-0.3);
    }
    if (i >= hubs + k) {
      a.colind.push_back(i - k);
      a.values.push_back(0.2);
    }
    a.colind.push_back(i);
    a.values.push_back(2.0 + 0.001 * (i % 7));
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

sptrsv::TriangularSolveOptions split_options(sptrsv::SplitMode mode) {
  sptrsv::TriangularSolveOptions o;
  o.split.mode = mode;
  o.variant = "auto";
  return o;
}

void check(rt::Runtime& r, const Csr& lower, sptrsv::SplitMode mode, planners::SplitPolicy expected, const char* name) {
  for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr T = solver_input(lower, tri, false, 2);
    const std::string what = std::string(name) + (tri == Triangle::Upper ? " upper" : " lower");
    sptrsv::TriangularSolver s(r);
    s.analyze(T, tri, false, split_options(mode));
    ASSERT_NE(s.split(), nullptr) << what;
    EXPECT_EQ(s.split()->decision().policy, expected) << what << ": " << s.split()->describe();
    ASSERT_TRUE(s.split()->active()) << what;
    run_solves(s, T, tri, false, what);
  }
}

TEST(SplitSolverGpu, CpuGpuSerialPartFirst) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  check(r, level_profile_lower("c3000+b60000x6", 4, 1), sptrsv::SplitMode::CpuGpu, planners::SplitPolicy::CpuGpu,
        "chain then block");
}

TEST(SplitSolverGpu, CpuGpuSerialPartLast) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  check(r, level_profile_lower("b60000x6+c3000", 4, 1), sptrsv::SplitMode::CpuGpu, planners::SplitPolicy::CpuGpu,
        "block then chain");
}

TEST(SplitSolverGpu, GpuGpuSingleAlgorithm) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  check(r, hub_triangle(), sptrsv::SplitMode::GpuGpu, planners::SplitPolicy::GpuGpu, "hubs");
}

TEST(SplitSolverGpu, AutoSplitsAChainGluedToABlock) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  // The paper's thresholds and the starting cost models (a trained file could move them): 63k rows,
  // 99.8 % serial levels, 95 % of the rows in parallel-friendly ones, the chain cheap on one core.
  sptrsv::TriangularSolveOptions o = split_options(sptrsv::SplitMode::Auto);
  o.split.model_file = "/dev/null";  // an empty file: every threshold at its default
  o.split.measure.enabled = false;   // the model's decision (the tie-break: MeasuredTieBreak below)
  const Csr T = level_profile_lower("c3000+b60000x6", 4, 8);
  sptrsv::TriangularSolver s(r);
  o.expected_solves = 1;  // one solve cannot pay back the blocks and the parts' analyses
  s.analyze(T, Triangle::Lower, false, o);
  EXPECT_FALSE(s.split()->active()) << s.split()->describe();
  EXPECT_NE(s.split()->decision().reason.find("does not pay back"), std::string::npos) << s.split()->describe();
  o.expected_solves = 1 << 20;
  s.analyze(T, Triangle::Lower, false, o);
  ASSERT_TRUE(s.split()->active()) << s.split()->describe();
  EXPECT_EQ(s.split()->decision().policy, planners::SplitPolicy::CpuGpu);
  EXPECT_EQ(s.split()->part(1).chosen_variant(), "cpu_serial");
  run_solves(s, T, Triangle::Lower, false, "auto chain then block");
  // New values, same pattern.
  Csr T2 = T;
  for (std::size_t k = 0; k < T2.values.size(); ++k) T2.values[k] *= 1.0 + 0.25 * std::cos(static_cast<double>(k));
  s.update_values(T2);
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 12);
  std::vector<double> X(B.size(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T2, Triangle::Lower, false, false, B, X, 1, "auto after update_values");
}

// The measured tie-break with GPU candidates: a margin that takes one core, the GPU and the CPU-GPU
// split in; each is timed, the fastest median is what the solver runs, then new values.
TEST(SplitSolverGpu, MeasuredTieBreak) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  for (const char* spec : {"c3000+b60000x6", "b60000x6+c3000"}) {
    sptrsv::TriangularSolveOptions o = split_options(sptrsv::SplitMode::Auto);
    o.expected_solves = 1 << 20;  // the CPU-GPU split a candidate whatever its setup
    o.split.model_file = "/dev/null";
    o.split.measure = planners::SplitMeasureOptions::parse("on:margin=1000,max-ms=1e9,solves=3");
    const Csr T = level_profile_lower(spec, 4, 8);
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false, o);
    const planners::SplitMeasurement& m = s.split()->measurement();
    ASSERT_TRUE(m.measured) << spec << ": " << s.split()->describe();
    EXPECT_EQ(m.candidates.size(), 3u) << s.split()->describe();
    double fastest = INFINITY;
    for (const planners::MeasuredPolicy& c : m.candidates) {
      EXPECT_TRUE(c.error.empty()) << spec << " " << planners::to_string(c.policy) << ": " << c.error;
      fastest = std::fmin(fastest, c.measured_ms);
    }
    for (const planners::MeasuredPolicy& c : m.candidates)
      if (c.policy == m.pick) {
        EXPECT_EQ(c.measured_ms, fastest) << spec;
      }
    EXPECT_EQ(s.split()->decision().policy, m.pick);
    EXPECT_EQ(s.split()->active(), planners::is_split(m.pick));
    std::printf("%s: %s\n", spec, s.split()->describe().c_str());
    run_solves(s, T, Triangle::Lower, false, std::string(spec) + " measured");
    Csr T2 = T;
    for (std::size_t k = 0; k < T2.values.size(); ++k) T2.values[k] *= 1.0 + 0.25 * std::sin(static_cast<double>(k));
    s.update_values(T2);
    const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 13);
    std::vector<double> X(B.size(), std::nan(""));
    s.solve(B.data(), X.data());
    expect_matches_reference(T2, Triangle::Lower, false, false, B, X, 1, std::string(spec) + " measured, new values");
  }
}

}  // namespace
}  // namespace hetsparse::test
