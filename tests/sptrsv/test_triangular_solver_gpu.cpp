// TriangularSolver through StarPU on a CUDA worker (label gpu, skipped without one): every GPU
// variant, the cuSPARSE, AG and powered schemes through the codelet's per-worker prepared path, and
// the automatic selection (search, its cache, then a model trained on the search's timings).
#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"
#include "sparse/convert.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_model.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/timing_table.hpp"
#include "sptrsv/triangular_solver.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_solver_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

// A solver analysed for scheme v on CUDA workers.
std::unique_ptr<sptrsv::TriangularSolver> gpu_solver(rt::Runtime& r, const Csr& T, Triangle tri, const std::string& v) {
  auto s = std::make_unique<sptrsv::TriangularSolver>(r);
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = v;
  s->analyze(T, tri, false, o);
  EXPECT_EQ(s->chosen_variant(), v);
  return s;
}

TEST(TriangularSolverGpu, EveryGpuVariantThroughStarpu) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  for (const SolverCase& c : solver_cases()) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      const Csr T = solver_input(c.lower, tri, false, 6);
      for (const std::string& v : codelets::sptrsv_cuda_variants()) {
        const std::unique_ptr<sptrsv::TriangularSolver> solver = gpu_solver(r, T, tri, v);
        sptrsv::TriangularSolver& s = *solver;
        const std::string what = std::string(c.name) + (tri == Triangle::Upper ? " upper " : " lower ") + v;
        const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 9);
        std::vector<double> X(B.size(), std::nan(""));
        s.solve(B.data(), X.data());
        expect_matches_reference(T, tri, false, false, B, X, 1, what);
        // nrhs > 1 and transposed solves go to a CPU worker even with device gpu.
        const std::vector<double> B3 = random_values(3 * static_cast<std::size_t>(T.rows), 10);
        std::vector<double> X3(B3.size(), std::nan(""));
        s.solve(B3.data(), X3.data(), 3, true);
        expect_matches_reference(T, tri, false, true, B3, X3, 3, what + " transposed nrhs 3");
      }
    }
  }
}

// A named scheme on the CUDA worker: two solves (the first prepares), x aliasing b, new values
// (prepared again), each against the reference.
void check_scheme_through_starpu(rt::Runtime& r, const Csr& T, Triangle tri, const std::string& v,
                                 const std::string& what) {
  const std::unique_ptr<sptrsv::TriangularSolver> solver = gpu_solver(r, T, tri, v);
  sptrsv::TriangularSolver& s = *solver;
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 9);
  for (int round = 0; round < 2; ++round) {
    std::vector<double> X(B.size(), std::nan(""));
    s.solve(B.data(), X.data());
    expect_matches_reference(T, tri, false, false, B, X, 1, what + " round " + std::to_string(round));
  }
  EXPECT_GT(s.preprocess_seconds(), s.analysis_seconds()) << what << ": preparation not counted";
  std::vector<double> XB = B;  // x aliasing b
  s.solve(XB.data(), XB.data());
  expect_matches_reference(T, tri, false, false, B, XB, 1, what + " in place");
  Csr T2 = T;
  for (double& val : T2.values) val *= 2.0;
  s.update_values(T2);
  std::vector<double> X2(B.size(), std::nan(""));
  s.solve(B.data(), X2.data());
  expect_matches_reference(T2, tri, false, false, B, X2, 1, what + " new values");
}

// cuSPARSE and AG schemes go through the codelet's per-worker prepared path: first solve prepares,
// later ones reuse; x aliasing b and new values (re-preparation) included.
TEST(TriangularSolverGpu, SmallSolvesThroughPinnedBuffersLargeOnesThroughTheCallersMemory) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  // solve() stages b and x below 1 MiB: 40,000 rows go through the solver's pinned buffers, 160,000
  // rows through the caller's memory registered for the call.
  for (index_t side : {200, 400}) {
    const Csr T = solver_input(anchor_laplacian_lower(2, side, 5), Triangle::Lower, false, 6);
    const std::unique_ptr<sptrsv::TriangularSolver> solver = gpu_solver(r, T, Triangle::Lower, "syncfree");
    sptrsv::TriangularSolver& s = *solver;
    const std::string what = std::to_string(T.rows) + " rows";
    // Successive right-hand sides: a staged buffer must never hand back the previous solve.
    for (std::uint64_t seed : {11, 12, 13}) {
      const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), seed);
      std::vector<double> X(B.size(), std::nan(""));
      s.solve(B.data(), X.data());
      expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, what + " seed " + std::to_string(seed));
    }
    // x aliasing b.
    const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 14);
    std::vector<double> XB = B;
    s.solve(XB.data(), XB.data());
    expect_matches_reference(T, Triangle::Lower, false, false, B, XB, 1, what + " in place");
    // Two columns (a CPU worker, the caller's memory), then one column again, then new values.
    const std::vector<double> B2 = random_values(2 * static_cast<std::size_t>(T.rows), 15);
    std::vector<double> X2(B2.size(), std::nan(""));
    s.solve(B2.data(), X2.data(), 2);
    expect_matches_reference(T, Triangle::Lower, false, false, B2, X2, 2, what + " nrhs 2");
    Csr T2 = T;
    for (double& v : T2.values) v *= 1.5;
    s.update_values(T2);
    std::vector<double> X(B.size(), std::nan(""));
    s.solve(B.data(), X.data());
    expect_matches_reference(T2, Triangle::Lower, false, false, B, X, 1, what + " new values");
  }
}

TEST(TriangularSolverGpu, EverySchemeKindThroughStarpu) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const std::vector<std::string> schemes = {"cusparse", "ag", "ag:ng=8,sw=4,tf=avg,rb=4,th=4,lr=1,ws=locality,al=2",
                                            "ag:ng=32,sw=64,lr=1,al=0", "ag:ng=1,sw=1,tf=thresh,rb=2,th=16"};
  for (const SolverCase& c : solver_cases()) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      const Csr T = solver_input(c.lower, tri, false, 6);
      for (const std::string& v : schemes)
        check_scheme_through_starpu(r, T, tri, v, std::string(c.name) + (tri == Triangle::Upper ? " upper " : " lower ") + v);
    }
  }
}

// powK:BASE the same way on the Laplacian; on the R-MAT triangle M^2 fills in and analyze()
// refuses the scheme, naming it.
TEST(TriangularSolverGpu, PoweredSchemesThroughStarpu) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const SolverCase& lap = solver_cases()[0];
  for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr T = solver_input(lap.lower, tri, false, 6);
    for (const std::string v : {"pow4:cusparse", "pow8:yuenyeung_levelorder", "pow2:syncfree"})
      check_scheme_through_starpu(r, T, tri, v, std::string(lap.name) + (tri == Triangle::Upper ? " upper " : " lower ") + v);
  }
  const Csr R = solver_input(solver_cases()[1].lower, Triangle::Lower, false, 6);
  sptrsv::TriangularSolver s(r);
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.variant = "pow2:cusparse";
  try {
    s.analyze(R, Triangle::Lower, false, o);
    ADD_FAILURE() << "pow2 accepted on the R-MAT triangle";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("pow2: M^2 too large"), std::string::npos) << e.what();
  }
}

// auto: a search (cached under the fingerprint, so a second analyze reuses it), then a model fitted
// from the search's timing table picks a scheme without timing.
TEST(TriangularSolverGpu, AutoSearchCachesAndModelPredicts) {
  ::unsetenv("HETSPARSE_SPTRSV_MODEL");  // an explicit model would override the one trained below
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const std::string dir = test::test_output_dir() + "hetsparse_auto_" + std::to_string(::getpid());
  const Csr T = solver_input(solver_cases()[1].lower, Triangle::Lower, false, 6);
  sptrsv::TriangularSolveOptions o;
  o.device = sptrsv::SolveDevice::Gpu;
  o.select = sptrsv::SelectMode::Search;
  o.perfmodel_dir = dir;
  sptrsv::TriangularSolver s(r);
  s.analyze(T, Triangle::Lower, false, o);
  ASSERT_EQ(s.selection().how, "search") << s.selection().note;
  const std::string searched = s.chosen_variant();
  EXPECT_GT(s.selection().best_ms, 0.0);
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 9);
  std::vector<double> X(B.size(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, "auto search " + searched);

  s.analyze(T, Triangle::Lower, false, o);
  EXPECT_EQ(s.selection().how, "search-cache");
  EXPECT_EQ(s.chosen_variant(), searched);

  const sptrsv::SelectionStore store(dir, s.selection().gpu);
  const std::vector<sptrsv::TimingSample> table = sptrsv::read_timing_tables({store.timings_path()});
  ASSERT_EQ(table.size(), 1u);
  sptrsv::SchemeModel::fit(table, 1, store.gpu()).save(store.model_path());
  o.select = sptrsv::SelectMode::Default;  // a model exists now
  s.analyze(T, Triangle::Lower, false, o);
  EXPECT_EQ(s.selection().how, "model");
  EXPECT_EQ(s.chosen_variant(), searched);  // one training matrix, the same one
  std::fill(X.begin(), X.end(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, "auto model " + searched);
}

// A model that always picks a powered form, on a triangle whose M^16 the limits refuse (a chain whose
// rows also reach one of the 4 rows before: M^16 holds some 16x T's entries) and whose rows of 3
// entries let a powered pick that pays back stand over wavefront: "auto" takes the model's pick among
// the unpowered schemes, adjusted as any pick (wavefront), and says why, instead of failing the analysis.
TEST(TriangularSolverGpu, AutoFallsBackWhenThePoweredFormIsRefused) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = level_profile_lower("c4000", 2, 17);
  const sptrsv::TriangularPattern p(T, Triangle::Lower, false);
  ASSERT_GE(p.num_levels(), sptrsv::kPoweredMinLevels);
  ASSERT_LE(p.features().rnnz_max, 3);
  sptrsv::TimingSample sample;
  sample.name = "always-powered";
  for (const auto& [name, value] : p.features().as_list()) sample.features[name] = value;
  sample.times_ms = {{"pow16:cusparse", 1.0}, {"syncfree", 3.0}, {"yuenyeung", 2.0}, {"cusparse", 4.0}};
  const std::string model = test::test_output_dir() + "always_powered_" + std::to_string(::getpid()) + ".tsv";
  sptrsv::SchemeModel::fit({sample}, 1).save(model);
  ::setenv("HETSPARSE_SPTRSV_MODEL", model.c_str(), 1);
  sptrsv::TriangularSolveOptions o;
  o.select = sptrsv::SelectMode::Model;
  // With 100 expected solves the powered pick gives way before its transform is tried.
  sptrsv::TriangularSolver few(r);
  few.analyze(T, Triangle::Lower, false, o);
  EXPECT_EQ(few.chosen_variant(), "wavefront");
  EXPECT_NE(few.selection().note.find("does not pay back"), std::string::npos) << few.selection().note;
  o.expected_solves = 1 << 20;  // enough solves to pay: the transform is tried and refused
  sptrsv::TriangularSolver s(r);
  s.analyze(T, Triangle::Lower, false, o);
  ::unsetenv("HETSPARSE_SPTRSV_MODEL");
  EXPECT_EQ(s.chosen_variant(), "wavefront");  // the model's best unpowered pick, adjusted
  EXPECT_NE(s.selection().note.find("pow16:cusparse refused"), std::string::npos) << s.selection().note;
  const std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 10);
  std::vector<double> X(B.size(), std::nan(""));
  s.solve(B.data(), X.data());
  expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, "auto after a refused powered form");
}

// A resident solve still in flight when its solver's values change or the solver goes: its task holds
// the values' handle, which update_values and the solver's end unregister first, so the solve ends
// with the values it was submitted with before the prepared scheme is let go.
TEST(TriangularSolverGpu, AnInFlightSolveEndsBeforeItsSchemeGoes) {
  rt::Runtime r(test_runtime_options("eager", 1, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  const Csr T = solver_input(anchor_laplacian_lower(3, 40, 7), Triangle::Lower, false, 6);  // 64,000 rows
  Csr T2 = T;
  for (double& v : T2.values) v *= 2.0;
  std::vector<double> B = random_values(static_cast<std::size_t>(T.rows), 21);  // registered: not const
  for (const bool destroy : {false, true}) {
    std::unique_ptr<sptrsv::TriangularSolver> solver = gpu_solver(r, T, Triangle::Lower, "wavefront");
    std::vector<double> X(B.size(), std::nan(""));
    rt::DataHandle hb = rt::make_vector_handle(r, B), hx = rt::make_vector_handle(r, X);
    solver->submit(hb.id(), hx.id());
    if (destroy) {
      solver.reset();
    } else {
      solver->update_values(T2);
    }
    r.wait_all();
    hx.reset();
    expect_matches_reference(T, Triangle::Lower, false, false, B, X, 1, destroy ? "solver gone" : "values changed");
  }
}

}  // namespace
}  // namespace hetsparse::test
