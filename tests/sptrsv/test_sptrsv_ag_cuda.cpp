// AG-SpTRSV on the GPU against the serial sptrsv_cpu: every scheme of the pruned search space and
// the hand-picked ones (every option value) on every SpTRSV test matrix, lower and upper, x
// NaN-poisoned before each solve; plus repeat determinism, in-place solves, a level reorder
// without the level-ordered copy, graph capture and argument checks. Suites named *Small* use
// only small matrices: the compute-sanitizer racecheck subset. Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/ag/ag_plan.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_ag_schemes.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using kernels::AgScheme;
using kernels::AgSolver;
using kernels::check_cuda;

struct AgProblem {
  Csr input;
  sptrsv::TriangularPattern pattern;
  kernels::DeviceTriangular matrix;
  DeviceArray<unsigned char> workspace;
  std::vector<double> b, expected;
  DeviceArray<double> db, dx;

  AgProblem(cudaStream_t stream, Csr in, Triangle tri, const sptrsv::AnalysisOptions& options = {})
      : input(std::move(in)),
        pattern(input, tri, false, options),
        matrix(stream, pattern.host_view()),
        workspace(kernels::solve_workspace_bytes(input.rows)),
        b(random_values(static_cast<std::size_t>(input.rows), 21)),
        expected(b.size()),
        db(stream, b),
        dx(b.size()) {
    const kernels::TriangularView t = pattern.host_view();
    kernels::sptrsv_cpu(t, b.data(), t.n, expected.data(), t.n, 1);
  }
  kernels::SolveWorkspace ws() const { return kernels::make_solve_workspace(workspace.get(), input.rows); }
  std::vector<double> solve(cudaStream_t stream, const AgSolver& solver) {
    dx.poison(stream);
    solver.solve(stream, db.get(), dx.get(), ws());
    return dx.download(stream);
  }
  std::vector<AgScheme> schemes() const {
    std::vector<AgScheme> all = ag_test_schemes();
    const kernels::TriangularView t = pattern.host_view();
    const auto space = sptrsv::ag::ag_search_space(t.n, pattern.nnz(), t.num_levels,
                                                static_cast<double>(pattern.nnz()) / std::max<index_t>(t.n, 1));
    all.insert(all.end(), space.begin(), space.end());
    return all;
  }
};

// Every scheme of `schemes` on `lower`, as lower and as upper triangle.
void check_all_schemes(cudaStream_t stream, const Csr& lower, bool hand_picked_only) {
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    AgProblem p(stream, solver_input(lower, tri, false, 31), tri);
    for (const AgScheme& s : hand_picked_only ? ag_test_schemes() : p.schemes()) {
      SCOPED_TRACE((tri == Triangle::Lower ? "lower " : "upper ") + sptrsv::ag::to_string(s));
      const AgSolver solver = sptrsv::ag::prepare_ag(stream, p.pattern.host_view(), p.matrix.view(), s);
      EXPECT_TRUE(close_to(p.solve(stream, solver).data(), p.expected));
    }
  }
}

class AgCuda : public CudaStreamTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(AgCuda, EverySchemeMatchesSerialSolve) { check_all_schemes(stream_, sptrsv_matrix(GetParam()), false); }

INSTANTIATE_TEST_SUITE_P(Matrices, AgCuda, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& m) { return m.param; });

using AgCudaSmall = CudaStreamTest;

TEST_F(AgCudaSmall, HandPickedSchemesOnSmallMatrices) {
  check_all_schemes(stream_, anchor_laplacian_lower(2, 12, 3), true);
  check_all_schemes(stream_, anchor_rmat_lower(8, 8, 5), true);
}

// b1, b2, b1 on one solver and workspace: correct each time, the third bitwise equal to the first.
TEST_F(AgCudaSmall, RepeatedSolvesAreBitwiseDeterministic) {
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    AgProblem p(stream_, solver_input(anchor_rmat_lower(8, 8, 7), tri, false, 32), tri);
    for (const AgScheme& s : ag_test_schemes()) {
      SCOPED_TRACE(sptrsv::ag::to_string(s));
      const AgSolver solver = sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), s);
      const std::vector<double> first = p.solve(stream_, solver);
      EXPECT_TRUE(close_to(first.data(), p.expected));
      const std::vector<double> b1 = p.b;
      p.db.upload(stream_, random_values(b1.size(), 99));
      const std::vector<double> other = p.solve(stream_, solver);
      EXPECT_FALSE(std::memcmp(other.data(), first.data(), first.size() * sizeof(double)) == 0);
      p.db.upload(stream_, b1);
      const std::vector<double> again = p.solve(stream_, solver);
      EXPECT_EQ(std::memcmp(again.data(), first.data(), first.size() * sizeof(double)), 0) << "not deterministic";
    }
  }
}

TEST_F(AgCudaSmall, InPlaceSolve) {
  AgProblem p(stream_, solver_input(sptrsv_matrix("dense_lower_300"), Triangle::Upper, false, 33), Triangle::Upper);
  for (const AgScheme& s : ag_test_schemes()) {
    SCOPED_TRACE(sptrsv::ag::to_string(s));
    const AgSolver solver = sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), s);
    p.dx.upload(stream_, p.b);
    solver.solve(stream_, p.dx.get(), p.dx.get(), p.ws());
    EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected));
  }
}

// Level reorder reads rows by row (not position) when the analysis kept no level-ordered copy,
// and then has no contiguous node entries to read into shared memory.
TEST_F(AgCudaSmall, LevelReorderWithoutLevelOrderedCopy) {
  sptrsv::AnalysisOptions options;
  options.level_ordered_copy = false;
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    AgProblem p(stream_, solver_input(anchor_laplacian_lower(2, 12, 9), tri, false, 34), tri, options);
    ASSERT_EQ(p.matrix.view().level_rowptr, nullptr);
    for (const char* name : {"ag:lr=1,sr=1,ng=4,sw=0", "ag:lr=1,sr=1,ng=1,sw=inf,rb=32,al=0",
                             "ag:lr=1,tf=thresh,rb=8,th=4,ws=locality,al=2"}) {
      SCOPED_TRACE(name);
      const AgSolver solver = sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), sptrsv::ag::parse_ag_scheme(name));
      EXPECT_TRUE(close_to(p.solve(stream_, solver).data(), p.expected));
    }
  }
}

// A multi-kernel scheme (one kernel per level) captured once, replayed for two right-hand sides.
TEST_F(AgCudaSmall, GraphCaptureReplays) {
  AgProblem p(stream_, solver_input(anchor_rmat_lower(8, 8, 11), Triangle::Lower, false, 35), Triangle::Lower);
  const AgSolver solver = sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), sptrsv::ag::parse_ag_scheme("ag:al=0,sr=1"));
  EXPECT_GT(solver.num_kernels(), 1);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  check_cuda(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  solver.solve(stream_, p.db.get(), p.dx.get(), p.ws());
  check_cuda(cudaStreamEndCapture(stream_, &graph), "cudaStreamEndCapture");
  check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (const std::uint64_t seed : {82u, 83u}) {
    p.b = random_values(p.b.size(), seed);
    p.db.upload(stream_, p.b);
    const kernels::TriangularView t = p.pattern.host_view();
    kernels::sptrsv_cpu(t, p.b.data(), t.n, p.expected.data(), t.n, 1);
    p.dx.poison(stream_);
    check_cuda(cudaGraphLaunch(exec, stream_), "cudaGraphLaunch");
    EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_F(AgCudaSmall, RejectsBadArguments) {
  AgProblem p(stream_, solver_input(anchor_laplacian_lower(2, 12, 13), Triangle::Lower, false, 36), Triangle::Lower);
  AgScheme bad;
  bad.subwarps = 3;
  EXPECT_THROW(sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), bad), InvalidArgument);
  kernels::TriangularDeviceView other = p.matrix.view();
  other.upper = true;
  EXPECT_THROW(sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), other, AgScheme{}), InvalidArgument);
  const sptrsv::ag::AgPlan plan = sptrsv::ag::make_ag_plan(p.pattern.host_view(), AgScheme{}, kernels::ag_machine(AgScheme{}));
  AgScheme wider;
  wider.resident_warps = 8;
  EXPECT_THROW(AgSolver(stream_, p.pattern.host_view(), p.matrix.view(), wider, plan), InvalidArgument)
      << "a plan made for another machine";
  const AgSolver solver = sptrsv::ag::prepare_ag(stream_, p.pattern.host_view(), p.matrix.view(), AgScheme{});
  EXPECT_GT(solver.preprocess_seconds(), 0.0);
  EXPECT_EQ(solver.scheme(), AgScheme{});
  const kernels::SolveWorkspace small = kernels::make_solve_workspace(p.workspace.get(), p.input.rows - 1);
  EXPECT_THROW(solver.solve(stream_, p.db.get(), p.dx.get(), small), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
