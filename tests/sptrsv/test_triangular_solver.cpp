// TriangularSolver through StarPU on CPU workers: every solve (lower/upper, unit, transposed, several
// right-hand sides, new values) compared with ref::sptrsv; structural errors and unknown variants or
// schemes at analyze. The CUDA-worker tests are in test_triangular_solver_gpu.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "codelets/cuda_build.hpp"
#include "hetsparse/error.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"

namespace hetsparse::test {
namespace {

TEST(TriangularSolver, LowerUpperUnitTransposeAndSeveralRhsOnCpuWorkers) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  for (const SolverCase& c : solver_cases()) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      for (bool unit : {false, true}) {
        const Csr T = solver_input(c.lower, tri, unit, 3);
        for (sptrsv::SolveDevice device : {sptrsv::SolveDevice::Auto, sptrsv::SolveDevice::Any, sptrsv::SolveDevice::Cpu}) {
          sptrsv::TriangularSolver s(r);
          sptrsv::TriangularSolveOptions o;
          o.device = device;
          s.analyze(T, tri, unit, o);
          EXPECT_GT(s.features().m, 0);
          EXPECT_GE(s.analysis_seconds(), 0.0);
          EXPECT_FALSE(s.chosen_variant().empty());
          // Auto and Cpu: one task reads b and writes x in host memory; Any: the scheduler's placement.
          EXPECT_EQ(s.host_solves_on_cpu(), device != sptrsv::SolveDevice::Any) << sptrsv::to_string(device);
          run_solves(s, T, tri, unit,
                     std::string(c.name) + (tri == Triangle::Upper ? " upper" : " lower") + (unit ? " unit" : "") +
                         " device " + sptrsv::to_string(device));
        }
      }
    }
  }
}

// submit() on vectors the caller registered: solves chained through their handles (x1 = T^-1 b,
// x2 = T^-1 x1) wait for each other without a wait in between, on every CPU mode.
TEST(TriangularSolver, SubmitChainsSolvesOnRegisteredVectors) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const SolverCase& c = solver_cases()[1];
  const Csr T = solver_input(c.lower, Triangle::Lower, false, 5);
  const auto n = static_cast<std::size_t>(T.rows);
  for (const sptrsv::CpuMode mode : {sptrsv::CpuMode::Serial, sptrsv::CpuMode::LevelTasks}) {
    sptrsv::TriangularSolver s(r);
    sptrsv::TriangularSolveOptions o;
    o.cpu_mode = mode;
    o.cpu_min_entries = 1;
    s.analyze(T, Triangle::Lower, false, o);
    std::vector<double> b(n), x1(n, std::nan("")), x2(n, std::nan(""));
    for (std::size_t i = 0; i < n; ++i) b[i] = std::cos(0.37 * double(i)) + 0.25;
    {
      rt::DataHandle hb = rt::make_vector_handle(r, b), h1 = rt::make_vector_handle(r, x1),
                     h2 = rt::make_vector_handle(r, x2);
      s.submit(hb.id(), h1.id());
      s.submit(h1.id(), h2.id());
      EXPECT_THROW(s.submit(h2.id(), h2.id()), InvalidArgument);
      r.wait_all();
    }  // unregistered: x1 and x2 are home
    const std::string what = std::string(c.name) + " " + sptrsv::to_string(mode);
    expect_matches_reference(T, Triangle::Lower, false, false, b, x1, 1, what + " first");
    expect_matches_reference(T, Triangle::Lower, false, false, x1, x2, 1, what + " chained");
  }
}

// solve() on handles without a GPU: no inline path (run_inline refuses), so the solve is a task on a
// CPU worker, ordered after the task before it and awaited.
TEST(TriangularSolver, SolveOnHandlesWithoutAGpuIsAnAwaitedTask) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  const Csr T = solver_input(solver_cases()[1].lower, Triangle::Lower, false, 9);
  const auto n = static_cast<std::size_t>(T.rows);
  sptrsv::TriangularSolver s(r);
  s.analyze(T, Triangle::Lower, false, {});
  EXPECT_FALSE(s.inline_solves());
  std::vector<double> b = random_values(n, 11), x1(n, std::nan("")), x2(n, std::nan(""));
  rt::DataHandle hb = rt::make_vector_handle(r, b), h1 = rt::make_vector_handle(r, x1),
                 h2 = rt::make_vector_handle(r, x2);
  s.submit(hb.id(), h1.id());
  s.solve(h1.id(), h2.id());
  EXPECT_EQ(r.pending_tasks(), 0u);  // done when it returns
  EXPECT_THROW(s.solve(h2.id(), h2.id()), InvalidArgument);
  rt::TaskSpec t;
  t.kernel = &codelets::sptrsv_kernel();
  EXPECT_FALSE(r.run_inline(t));  // no CUDA worker to run it on
  t.data = {{h1.id(), rt::Access::Read}, {h1.id(), rt::Access::Write}};  // would wait for itself
  if (codelets::kCudaBuild) {
    EXPECT_THROW(r.run_inline(t), InvalidArgument);
  }
  h1.reset();
  h2.reset();
  expect_matches_reference(T, Triangle::Lower, false, false, b, x1, 1, "submitted");
  expect_matches_reference(T, Triangle::Lower, false, false, x1, x2, 1, "solve on handles");
}

TEST(TriangularSolver, SolveDeviceNamesParseOnce) {
  for (const sptrsv::SolveDevice d :
       {sptrsv::SolveDevice::Auto, sptrsv::SolveDevice::Any, sptrsv::SolveDevice::Cpu, sptrsv::SolveDevice::Gpu}) {
    EXPECT_EQ(sptrsv::parse_solve_device(sptrsv::to_string(d)), d);
  }
  EXPECT_THROW(sptrsv::parse_solve_device("gpus"), InvalidArgument);
  EXPECT_EQ(sptrsv::solve_where(sptrsv::SolveDevice::Auto, false), rt::Where::Cpu);
  EXPECT_EQ(sptrsv::solve_where(sptrsv::SolveDevice::Auto, true), rt::Where::Cuda);
  EXPECT_EQ(sptrsv::solve_where(sptrsv::SolveDevice::Any, true), rt::Where::Any);
}

TEST(TriangularSolver, UpdateValuesKeepsTheAnalysis) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  for (const SolverCase& c : solver_cases()) {
    const Csr T = solver_input(c.lower, Triangle::Lower, false, 4);
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false);
    const auto levels = s.pattern().num_levels();
    Csr T2 = T;
    for (std::size_t k = 0; k < T2.values.size(); ++k) T2.values[k] *= 1.0 + 0.25 * std::sin(double(k));
    s.update_values(T2);
    EXPECT_EQ(s.pattern().num_levels(), levels);
    run_solves(s, T2, Triangle::Lower, false, std::string(c.name) + " updated");
    // A different pattern is refused and leaves the solver usable.
    Csr bad = T;
    bad.colind.pop_back();
    bad.values.pop_back();
    bad.rowptr.back() -= 1;
    EXPECT_THROW(s.update_values(bad), Error);
    run_solves(s, T2, Triangle::Lower, false, std::string(c.name) + " after a refused update");
  }
}

TEST(TriangularSolver, MissingDiagonalIsAStructureErrorAtAnalyze) {
  rt::Runtime r(test_runtime_options("eager", 2, 0));
  Csr T;  // 3 x 3 lower, row 1 has no diagonal
  T.rows = T.cols = 3;
  T.rowptr = {0, 1, 2, 4};
  T.colind = {0, 0, 1, 2};
  T.values = {2.0, 1.0, 1.0, 3.0};
  sptrsv::TriangularSolver s(r);
  EXPECT_THROW(s.analyze(T, Triangle::Lower, false), StructureError);
  EXPECT_NO_THROW(s.analyze(T, Triangle::Lower, true));  // a unit diagonal needs none stored
  EXPECT_THROW(s.solve(nullptr, nullptr, 0), InvalidArgument);
}

TEST(TriangularSolver, UnknownVariantIsRefused) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  sptrsv::TriangularSolver s(r);
  sptrsv::TriangularSolveOptions o;
  o.variant = "no_such_variant";
  EXPECT_THROW(s.analyze(solver_cases()[0].lower, Triangle::Lower, false, o), InvalidArgument);
}

TEST(TriangularSolver, UnknownSchemeIsNamed) {
  rt::Runtime r(test_runtime_options("eager", 1, 0));
  const Csr T = solver_input(solver_cases()[0].lower, Triangle::Lower, false, 6);
  for (const std::string bad : {"warp_magic", "ag:ng=3"}) {
    sptrsv::TriangularSolver s(r);
    sptrsv::TriangularSolveOptions o;
    o.variant = bad;
    try {
      s.analyze(T, Triangle::Lower, false, o);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace hetsparse::test
