// Synchronous GPU solves run in the calling thread (TriangularSolver::inline_solves, Runtime::run_inline):
// solve() on handles acquires b and x on the GPU after the tasks submitted on them and before those
// submitted later, for prepared schemes and plain variants, after a host or a GPU analysis; host
// solves take the same path through the pinned staging buffers. Each x against the reference, and
// against the task path (inline_solves off). Label gpu: skipped without a CUDA worker.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

sptrsv::TriangularSolveOptions on_gpu(const std::string& scheme, bool inline_solves) {
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = scheme;
  o.inline_solves = inline_solves;
  return o;
}

// x1 = T^-1 b as a task, x2 = T^-1 x1 by solve() (after that task), x3 = T^-1 x2 as a task (after
// the inline write), then x2 again in place of x1's old values: each stage against the reference.
void expect_ordered_solves(rt::Runtime& r, sptrsv::TriangularSolver& s, const Csr& T, const std::string& what) {
  const auto n = static_cast<std::size_t>(T.rows);
  std::vector<double> b = random_values(n, 90), x1(n, std::nan("")), x2(n, std::nan("")), x3(n, std::nan(""));
  {
    rt::DataHandle hb = rt::make_vector_handle(r, b), h1 = rt::make_vector_handle(r, x1),
                   h2 = rt::make_vector_handle(r, x2), h3 = rt::make_vector_handle(r, x3);
    s.submit(hb.id(), h1.id());
    s.solve(h1.id(), h2.id());
    s.submit(h2.id(), h3.id());
    r.wait_all();
  }
  expect_matches_reference(T, Triangle::Lower, false, false, b, x1, 1, what + ": task");
  expect_matches_reference(T, Triangle::Lower, false, false, x1, x2, 1, what + ": solve on handles after a task");
  expect_matches_reference(T, Triangle::Lower, false, false, x2, x3, 1, what + ": task after a solve on handles");

  // Host values written between solves on the same handles: each solve sees the new b.
  std::vector<double> bb(n, 0.0), xx(n, std::nan(""));
  rt::DataHandle hb = rt::make_vector_handle(r, bb), hx = rt::make_vector_handle(r, xx);
  for (std::uint64_t k = 0; k < 3; ++k) {
    const std::vector<double> B = random_values(n, 100 + k);
    {
      rt::HostAccess w(r, hb.id(), rt::Access::Write);
      bb = B;  // same storage: the vector keeps its size
    }
    s.solve(hb.id(), hx.id());
    rt::HostAccess x_home(r, hx.id(), rt::Access::Read);
    expect_matches_reference(T, Triangle::Lower, false, false, B, xx, 1, what + ": handles, b " + std::to_string(k));
  }
  EXPECT_THROW(s.solve(hb.id(), hb.id()), InvalidArgument);
}

TEST(TriangularSolverInline, SolvesOnHandlesInOrderWithTheTasks) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = solver_input(anchor_laplacian_lower(2, 150, 5), Triangle::Lower, false, 6);  // 22,500 rows
  for (const std::string scheme : {"wavefront", "cusparse", "yuenyeung", "clusterlevels"}) {
    for (const bool inline_solves : {true, false}) {
      const std::string what = scheme + (inline_solves ? " inline" : " as tasks");
      sptrsv::TriangularSolver s(r);
      s.analyze(T, Triangle::Lower, false, on_gpu(scheme, inline_solves));
      ASSERT_EQ(s.chosen_variant(), scheme);
      EXPECT_EQ(s.inline_solves(), inline_solves) << what;
      expect_ordered_solves(r, s, T, what);
      run_solves(s, T, Triangle::Lower, false, what + ", host vectors");
    }
  }
}

// After a GPU analysis the inline plain variant solves on the analysis's arrays; a new analysis and
// new values are seen by the next inline solve.
TEST(TriangularSolverInline, FollowsNewAnalysesAndValues) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = level_profile_lower("b20000x6+c500", 2, 7);  // normalised already: analysed on the GPU
  sptrsv::TriangularSolver s(r);
  sptrsv::TriangularSolveOptions o = on_gpu("yuenyeung", true);
  o.analysis_place = sptrsv::AnalysisPlace::Gpu;
  s.analyze(T, Triangle::Lower, false, o);
  EXPECT_TRUE(s.analysed_on_device());
  EXPECT_TRUE(s.inline_solves());
  expect_ordered_solves(r, s, T, "yuenyeung after a GPU analysis");

  const Csr U = solver_input(anchor_laplacian_lower(2, 70, 5), Triangle::Lower, false, 8);
  s.analyze(U, Triangle::Lower, false, on_gpu("wavefront", true));
  expect_ordered_solves(r, s, U, "wavefront, a second analysis");
  Csr U2 = U;
  for (double& v : U2.values) v *= -0.75;
  s.update_values(U2);
  expect_ordered_solves(r, s, U2, "wavefront, new values");
  s.analyze(U2, Triangle::Lower, false, on_gpu("yuenyeung", true));
  s.update_values(U);
  expect_ordered_solves(r, s, U, "yuenyeung, new values");
}

}  // namespace
}  // namespace hetsparse::test
