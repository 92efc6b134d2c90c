// Small host solves of a prepared scheme on a CUDA worker (TriangularSolver::stages_in_task): b and x
// copied in and out by the solve's own task through the solver's pinned buffers. Successive
// right-hand sides, x aliasing b, resident solves in between, new values, a new analysis of another
// size, and vectors past the staging size (the caller's memory registered for the call), each
// against the reference. With device auto, host solves of a small deep triangle go to a CPU worker
// while resident ones stay on the GPU. Label gpu: skipped without a CUDA worker.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "sparse/generators.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

sptrsv::TriangularSolveOptions on_gpu(const std::string& scheme) {
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = scheme;
  o.inline_solves = false;  // the task path (test_triangular_solver_inline_gpu.cpp has the inline one)
  return o;
}

void expect_host_solves(sptrsv::TriangularSolver& s, const Csr& T, const std::string& what, std::uint64_t seed) {
  for (std::uint64_t k = seed; k < seed + 3; ++k) {  // a staged buffer must never hand back the last x
    const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), k);
    std::vector<double> X(B.size(), std::nan(""));
    s.solve(B.data(), X.data());
    expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, what + " seed " + std::to_string(k));
  }
}

TEST(TriangularSolverHostTask, PreparedSchemesCopyTheirHostVectorsInTheTask) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  for (const std::string scheme : {"wavefront", "cusparse", "yuenyeung"}) {
    const Csr T = solver_input(anchor_laplacian_lower(2, 150, 5), Triangle::Lower, false, 6);  // 22,500 rows
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false, on_gpu(scheme));
    ASSERT_EQ(s.chosen_variant(), scheme);
    const bool prepared = scheme != "yuenyeung";  // yuenyeung: a plain variant on registered handles
    EXPECT_EQ(s.stages_in_task(), prepared) << scheme;
    expect_host_solves(s, T, scheme, 30);

    // x aliasing b.
    const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 40);
    std::vector<double> XB = B;
    s.solve(XB.data(), XB.data());
    expect_matches_reference(T, Triangle::Lower, false, false, B, XB, 1, scheme + " in place");

    // A resident solve between host ones.
    std::vector<double> Br = random_values(static_cast<std::size_t>(T.rows), 41), Xr(B.size(), std::nan(""));
    {
      rt::DataHandle hb = rt::make_vector_handle(r, Br), hx = rt::make_vector_handle(r, Xr);
      s.submit(hb.id(), hx.id());
      r.wait_all();
    }
    expect_matches_reference(T, Triangle::Lower, false, false, Br, Xr, 1, scheme + " resident");
    expect_host_solves(s, T, scheme + " after a resident solve", 42);

    // New values: prepared again, staged through the same buffers.
    Csr T2 = T;
    for (double& v : T2.values) v *= 1.5;
    s.update_values(T2);
    expect_host_solves(s, T2, scheme + " new values", 50);

    // Another size: the staging follows the new analysis; then past the staging size.
    for (const index_t side : {90, 380}) {
      const Csr U = solver_input(anchor_laplacian_lower(2, side, 5), Triangle::Lower, false, 6);
      s.analyze(U, Triangle::Lower, false, on_gpu(scheme));
      expect_host_solves(s, U, scheme + " " + std::to_string(U.rows) + " rows", 60);
    }
  }
}

// Device auto: a chain of 3,000 levels solves on one core long before 3,000 dependent GPU steps end,
// so solve() runs there (in its task, on the caller's vectors); a 3D mesh of 216,000 rows stays on
// the GPU. Resident solves of the chain stay on the GPU either way.
TEST(TriangularSolverHostTask, AutoSendsHostSolvesOfSmallDeepTrianglesToACpuWorker) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr chain = level_profile_lower("c3000", 2, 7);
  sptrsv::TriangularSolver s(r);
  s.analyze(chain, Triangle::Lower, false, {});
  EXPECT_TRUE(s.host_solve_placement().cpu) << s.host_solve_placement().why();
  EXPECT_LT(s.host_solve_placement().cpu_us, s.host_solve_placement().gpu_us);
  EXPECT_TRUE(s.host_solves_on_cpu());
  run_solves(s, chain, Triangle::Lower, false, "chain on a CPU worker");
  std::vector<double> Br = random_values(static_cast<std::size_t>(chain.rows), 71), Xr(Br.size(), std::nan(""));
  {
    rt::DataHandle hb = rt::make_vector_handle(r, Br), hx = rt::make_vector_handle(r, Xr);
    s.submit(hb.id(), hx.id());
    r.wait_all();
  }
  expect_matches_reference(chain, Triangle::Lower, false, false, Br, Xr, 1, "chain, submitted (the GPU)");

  // Analysed on the GPU: the matrix handles live there, and the CPU task has StarPU bring them home.
  sptrsv::TriangularSolveOptions on_device;
  on_device.analysis_place = sptrsv::AnalysisPlace::Gpu;
  s.analyze(chain, Triangle::Lower, false, on_device);
  EXPECT_TRUE(s.analysed_on_device());
  EXPECT_TRUE(s.host_solves_on_cpu()) << s.host_solve_placement().why();
  run_solves(s, chain, Triangle::Lower, false, "chain analysed on the GPU, solved on a CPU worker");

  const Csr mesh = solver_input(anchor_laplacian_lower(3, 60, 5), Triangle::Lower, false, 6);
  s.analyze(mesh, Triangle::Lower, false, {});
  EXPECT_FALSE(s.host_solve_placement().cpu) << s.host_solve_placement().why();
  EXPECT_FALSE(s.host_solves_on_cpu());
  expect_host_solves(s, mesh, "3D mesh on the GPU", 80);
}

}  // namespace
}  // namespace hetsparse::test
