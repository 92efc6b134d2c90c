// TriangularSolver::analyze of a host CSR analysed on the GPU (AnalysisPlace::Auto with CUDA
// workers): uploaded, analysed there, the schemes prepared from the device arrays; the same scheme,
// features and solutions as the host analysis (AnalysisPlace::Host), new values through
// update_values, a changed pattern refused, unnormalised input analysed on the host. Label gpu:
// skipped without a CUDA worker.
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

// The host analysis's normalised arrays as a CSR: input the GPU takes as it is.
Csr normalised(const Csr& T, Triangle tri, bool unit) {
  const sptrsv::TriangularPattern host(T, tri, unit);
  Csr c;
  c.rows = c.cols = host.rows();
  c.rowptr.assign(host.rowptr().begin(), host.rowptr().end());
  c.colind = host.colind();
  c.values = host.values();
  return c;
}

void expect_solves(sptrsv::TriangularSolver& s, const Csr& T, Triangle tri, bool unit, const std::string& what) {
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 41);
  for (int round = 0; round < 2; ++round) {  // the first prepares the scheme on the worker
    std::vector<double> X(B.size(), std::nan(""));
    s.solve(B.data(), X.data());
    expect_matches_reference(T, tri, unit, false, B, X, 1, what + " round " + std::to_string(round));
  }
  const std::vector<double> B3 = random_values(3 * static_cast<std::size_t>(T.rows), 42);
  std::vector<double> X3(B3.size(), std::nan(""));
  s.solve(B3.data(), X3.data(), 3, true);  // a CPU worker: StarPU copies the matrix from the GPU
  expect_matches_reference(T, tri, unit, true, B3, X3, 3, what + " transposed nrhs 3");
}

bool has_step(const sptrsv::PreparationSteps& steps, const std::string& name) {
  for (const sptrsv::PreparationStep& s : steps.steps())
    if (s.name == name) return true;
  return false;
}

TEST(TriangularSolverGpu, HostInputAnalysedOnTheGpu) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  for (std::size_t k = 0; k < solver_cases().size(); ++k) {
    const SolverCase& c = solver_cases()[k];
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      for (bool unit : {false, true}) {
        const Csr T = normalised(solver_input(c.lower, tri, unit, 43), tri, unit);
        std::vector<std::string> schemes = {"syncfree_levelorder", "cusparse", "clusterlevels"};
        if (k == 0) schemes.emplace_back("pow4:clusterlevels");  // the Laplacian: M^4 fits
        for (const std::string& v : schemes) {
          const std::string what =
              std::string(c.name) + (tri == Triangle::Upper ? " upper " : " lower ") + (unit ? "unit " : "") + v;
          sptrsv::TriangularSolveOptions o;
          o.device = sptrsv::SolveDevice::Gpu;
          o.variant = v;
          sptrsv::TriangularSolver on_host(r);
          o.analysis_place = sptrsv::AnalysisPlace::Host;
          on_host.analyze(T, tri, unit, o);
          EXPECT_FALSE(on_host.analysed_on_device()) << what;
          sptrsv::TriangularSolver s(r);
          o.analysis_place = sptrsv::AnalysisPlace::Gpu;  // small: Auto would analyse it on the host
          s.analyze(T, tri, unit, o);
          EXPECT_TRUE(s.analysed_on_device()) << what;
          EXPECT_EQ(s.chosen_variant(), v) << what;
          EXPECT_EQ(s.features().layer_num, on_host.features().layer_num) << what;
          EXPECT_EQ(s.features().rnnz_max, on_host.features().rnnz_max) << what;
          EXPECT_EQ(s.nnz(), on_host.nnz()) << what;
          expect_solves(s, T, tri, unit, what);
          const sptrsv::PreparationSteps steps = s.preprocess_steps();
          EXPECT_TRUE(has_step(steps, "analysis.upload")) << what;
          if (v != "syncfree_levelorder") {
            EXPECT_GT(s.preprocess_seconds(), s.analysis_seconds()) << what << ": preparation not counted";
          }
          Csr T2 = T;
          for (double& val : T2.values) val *= 2.0;
          s.update_values(T2);  // analysed again with the new values
          EXPECT_TRUE(s.analysed_on_device()) << what;
          expect_solves(s, T2, tri, unit, what + " new values");
          Csr moved = T2;  // one column moved: a different pattern
          moved.colind[0] = moved.colind[0] == 0 ? 1 : 0;
          EXPECT_THROW(s.update_values(moved), InvalidArgument) << what;
        }
      }
    }
  }
}

TEST(TriangularSolverGpu, HostInputNotNormalisedIsAnalysedOnTheHost) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = solver_input(solver_cases()[0].lower, Triangle::Lower, false, 32);  // entries shuffled
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = "clusterlevels";
  o.analysis_place = sptrsv::AnalysisPlace::Gpu;  // refused there: analysed on the host
  sptrsv::TriangularSolver s(r);
  s.analyze(T, Triangle::Lower, false, o);
  EXPECT_FALSE(s.analysed_on_device());
  expect_solves(s, T, Triangle::Lower, false, "shuffled input");
  Csr bad = normalised(T, Triangle::Lower, false);
  bad.values[static_cast<std::size_t>(bad.rowptr[5] - 1)] = std::nan("");  // row 4's diagonal
  EXPECT_THROW(s.analyze(bad, Triangle::Lower, false, o), StructureError);
}

// Auto's size rule: a triangle of at most kHostAnalysisMaxRows rows and kHostAnalysisMaxEntries
// entries is analysed on the host, a larger one (rows or entries) on the GPU; both solve right.
TEST(TriangularSolverGpu, AutoAnalysesSmallTrianglesOnTheHost) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  struct Case {
    index_t side;
    bool on_gpu;
  };
  // 2D Laplacians of 5 entries a row: 60^2 = 3,600 rows (host), 64^2 = 4,096 rows (GPU).
  for (const Case c : {Case{60, false}, Case{64, true}}) {
    const Csr T = normalised(solver_input(anchor_laplacian_lower(2, c.side, 5), Triangle::Lower, false, 44),
                             Triangle::Lower, false);
    ASSERT_EQ(T.rows <= sptrsv::kHostAnalysisMaxRows && T.nnz() <= sptrsv::kHostAnalysisMaxEntries, !c.on_gpu);
    sptrsv::TriangularSolveOptions o;
    o.device = sptrsv::SolveDevice::Gpu;
    o.variant = "wavefront";
    sptrsv::TriangularSolver s(r);
    s.analyze(T, Triangle::Lower, false, o);
    const std::string what = std::to_string(T.rows) + " rows";
    EXPECT_EQ(s.analysed_on_device(), c.on_gpu) << what;
    expect_solves(s, T, Triangle::Lower, false, what);
  }
  // Few rows but many entries: the GPU.
  const Csr dense = normalised(solver_input(anchor_rmat_lower(11, 40, 5), Triangle::Lower, false, 45),
                               Triangle::Lower, false);
  ASSERT_LE(dense.rows, sptrsv::kHostAnalysisMaxRows);
  ASSERT_GT(dense.nnz(), sptrsv::kHostAnalysisMaxEntries);
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = "wavefront";
  sptrsv::TriangularSolver s(r);
  s.analyze(dense, Triangle::Lower, false, o);
  EXPECT_TRUE(s.analysed_on_device());
  expect_solves(s, dense, Triangle::Lower, false, "R-MAT 11:40");
}

}  // namespace
}  // namespace hetsparse::test
