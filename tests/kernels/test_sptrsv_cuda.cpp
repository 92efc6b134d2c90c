// Every CUDA SpTRSV variant against ref::sptrsv (normwise relative error <= 1e-12) on every test
// matrix, lower and upper, unit and non-unit; x is NaN-poisoned before each solve. Also: repeated
// solves on one workspace (the flags must be reset), bitwise determinism (every variant sums each
// row in a fixed order), in-place solves, CUDA-graph replay, concurrent solves, matrices
// large enough that the grid exceeds the GPU's resident warps, and argument checks.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using kernels::check_cuda;
using kernels::DeviceTriangular;

using StreamTest = CudaStreamTest;

// An analysed input on the device with a workspace, b and x, and the reference for b.
struct DeviceProblem {
  Csr input;
  sptrsv::TriangularPattern pattern;
  DeviceTriangular matrix;
  DeviceArray<unsigned char> workspace;
  std::vector<double> b, expected;
  DeviceArray<double> db, dx;

  DeviceProblem(cudaStream_t stream, Csr in, Triangle tri, bool unit, const sptrsv::AnalysisOptions& options = {})
      : input(std::move(in)),
        pattern(input, tri, unit, options),
        matrix(stream, pattern.host_view()),
        workspace(kernels::solve_workspace_bytes(input.rows)),
        b(random_values(static_cast<std::size_t>(input.rows), 21)),
        expected(b.size()),
        db(stream, b),
        dx(b.size()) {
    ref::sptrsv(input, tri, unit, b.data(), expected.data());
  }
  kernels::SolveWorkspace ws() const { return kernels::make_solve_workspace(workspace.get(), input.rows); }

  std::vector<double> solve(cudaStream_t stream, const std::string& variant) {
    dx.poison(stream);
    kernels::solve_cuda(variant, stream, matrix.view(), db.get(), dx.get(), ws());
    return dx.download(stream);
  }
  // New right-hand side (and its reference) for the next solves.
  void set_rhs(cudaStream_t stream, std::uint64_t seed) {
    b = random_values(b.size(), seed);
    db.upload(stream, b);
    ref::sptrsv(input, pattern.triangle(), pattern.unit_diagonal(), b.data(), expected.data());
  }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class SptrsvCuda : public StreamTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(SptrsvCuda, EveryVariantMatchesReference) {
  for (const SolveCase& c : solve_cases()) {
    DeviceProblem p(stream_, solver_input(sptrsv_matrix(GetParam()), c.tri, c.unit_diagonal, 31), c.tri,
                    c.unit_diagonal);
    for (const std::string& variant : kernels::gpu_variants()) {
      SCOPED_TRACE(c.label() + " " + variant);
      EXPECT_TRUE(close_to(p.solve(stream_, variant).data(), p.expected));
    }
  }
}

// Three solves on one workspace: b1, b2, b1. The third must equal the first bit for bit.
TEST_P(SptrsvCuda, RepeatedSolvesAreCorrectAndBitwiseDeterministic) {
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    DeviceProblem p(stream_, solver_input(sptrsv_matrix(GetParam()), tri, false, 32), tri, false);
    for (const std::string& variant : kernels::gpu_variants()) {
      SCOPED_TRACE(std::string(tri == Triangle::Lower ? "lower " : "upper ") + variant);
      p.set_rhs(stream_, 41);
      const std::vector<double> first = p.solve(stream_, variant);
      EXPECT_TRUE(close_to(first.data(), p.expected));
      p.set_rhs(stream_, 42);
      EXPECT_TRUE(close_to(p.solve(stream_, variant).data(), p.expected));
      p.set_rhs(stream_, 41);
      EXPECT_TRUE(same_bits(p.solve(stream_, variant), first)) << "not deterministic";
    }
  }
}

TEST_P(SptrsvCuda, InPlaceSolve) {
  for (const SolveCase& c : solve_cases()) {
    DeviceProblem p(stream_, solver_input(sptrsv_matrix(GetParam()), c.tri, c.unit_diagonal, 33), c.tri,
                    c.unit_diagonal);
    for (const std::string& variant : kernels::gpu_variants()) {
      SCOPED_TRACE(c.label() + " " + variant);
      p.dx.upload(stream_, p.b);
      kernels::solve_cuda(variant, stream_, p.matrix.view(), p.dx.get(), p.dx.get(), p.ws());
      EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected));
    }
  }
}

// The level-ordered variants read rows by position from the level-ordered copy when the analysis
// kept one (every test above) and by row otherwise (here).
TEST_P(SptrsvCuda, LevelOrderWithoutLevelOrderedCopy) {
  sptrsv::AnalysisOptions options;
  options.level_ordered_copy = false;
  for (const SolveCase& c : solve_cases()) {
    DeviceProblem p(stream_, solver_input(sptrsv_matrix(GetParam()), c.tri, c.unit_diagonal, 34), c.tri,
                    c.unit_diagonal, options);
    ASSERT_EQ(p.matrix.view().level_rowptr, nullptr);
    for (const std::string variant :
         {"levelset", "syncfree_levelorder", "capellini_levelorder", "yuenyeung_levelorder"}) {
      SCOPED_TRACE(c.label() + " " + variant);
      EXPECT_TRUE(close_to(p.solve(stream_, variant).data(), p.expected));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, SptrsvCuda, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& matrix) { return matrix.param; });

using SptrsvCudaExtra = StreamTest;

// Grids far beyond the resident warps of any GPU: the claim counter must keep them deadlock-free.
TEST_F(SptrsvCudaExtra, LargeAnchorMatrices) {
  const std::vector<std::pair<std::string, Csr>> matrices{{"lap3d_100", anchor_laplacian_lower(3, 100, 51)},
                                                          {"rmat_18_8", anchor_rmat_lower(18, 8, 52)}};
  for (const auto& [name, lower] : matrices) {
    for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      DeviceProblem p(stream_, solver_input(lower, tri, false, 53), tri, false);
      for (const std::string& variant : kernels::gpu_variants()) {
        SCOPED_TRACE(name + (tri == Triangle::Lower ? " lower " : " upper ") + variant);
        EXPECT_TRUE(close_to(p.solve(stream_, variant).data(), p.expected));
      }
    }
  }
}

// Yuenyeung at thresholds that make every warp warp-level (0), every chunk thread-level (inf), and
// mixes in between, on the matrices with the most uneven rows.
TEST_F(SptrsvCudaExtra, FusionThresholdsFromAllWarpToAllThread) {
  for (const std::string name : {"power_law_hubs", "anchor_rmat_12_8", "banded_wide"}) {
    for (const double threshold : {0.0, 2.0, 4.0, 16.0, 64.0, std::numeric_limits<double>::infinity()}) {
      SCOPED_TRACE(name + " threshold " + std::to_string(threshold));
      sptrsv::AnalysisOptions options;
      options.fusion_threshold = threshold;
      DeviceProblem p(stream_, solver_input(sptrsv_matrix(name), Triangle::Lower, false, 61), Triangle::Lower, false,
                      options);
      EXPECT_TRUE(close_to(p.solve(stream_, "yuenyeung").data(), p.expected));
      EXPECT_TRUE(close_to(p.solve(stream_, "yuenyeung_levelorder").data(), p.expected));
    }
  }
}

TEST_F(SptrsvCudaExtra, UpdatedValuesAfterReupload) {
  Csr input = solver_input(sptrsv_matrix("power_law_hubs"), Triangle::Lower, false, 71);
  sptrsv::TriangularPattern pattern(input, Triangle::Lower, false);
  for (double& v : input.values) v *= 0.5;
  pattern.update_values(input);
  const DeviceTriangular matrix(stream_, pattern.host_view());
  const std::vector<double> b = random_values(static_cast<std::size_t>(input.rows), 72);
  std::vector<double> expected(b.size());
  ref::sptrsv(input, Triangle::Lower, false, b.data(), expected.data());
  DeviceArray<double> db(stream_, b), dx(b.size());
  DeviceArray<unsigned char> workspace(kernels::solve_workspace_bytes(input.rows));
  for (const std::string& variant : kernels::gpu_variants()) {
    dx.poison(stream_);
    kernels::solve_cuda(variant, stream_, matrix.view(), db.get(), dx.get(),
                        kernels::make_solve_workspace(workspace.get(), input.rows));
    EXPECT_TRUE(close_to(dx.download(stream_).data(), expected)) << variant;
  }
}

// Each variant captured once into a graph (reset memset included), replayed for two right-hand sides.
TEST_F(SptrsvCudaExtra, GraphCaptureReplays) {
  DeviceProblem p(stream_, solver_input(sptrsv_matrix("anchor_rmat_12_8"), Triangle::Upper, false, 81),
                  Triangle::Upper, false);
  for (const std::string& variant : kernels::gpu_variants()) {
    SCOPED_TRACE(variant);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    kernels::solve_cuda(variant, stream_, p.matrix.view(), p.db.get(), p.dx.get(), p.ws());
    check_cuda(cudaStreamEndCapture(stream_, &graph), "cudaStreamEndCapture");
    check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    for (const std::uint64_t seed : {82u, 83u}) {
      p.set_rhs(stream_, seed);
      p.dx.poison(stream_);
      check_cuda(cudaGraphLaunch(exec, stream_), "cudaGraphLaunch");
      EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected));
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
}

// Two solves in flight at once on two streams, each with its own workspace.
TEST_F(SptrsvCudaExtra, ConcurrentSolvesWithSeparateWorkspaces) {
  cudaStream_t other = nullptr;
  check_cuda(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  DeviceProblem a(stream_, solver_input(sptrsv_matrix("power_law_hubs"), Triangle::Lower, false, 91),
                  Triangle::Lower, false);
  DeviceProblem b(other, solver_input(sptrsv_matrix("anchor_laplacian_2d_60"), Triangle::Upper, true, 92),
                  Triangle::Upper, true);
  for (const std::string& variant : kernels::gpu_variants()) {
    a.dx.poison(stream_);
    b.dx.poison(other);
    kernels::solve_cuda(variant, stream_, a.matrix.view(), a.db.get(), a.dx.get(), a.ws());
    kernels::solve_cuda(variant, other, b.matrix.view(), b.db.get(), b.dx.get(), b.ws());
    EXPECT_TRUE(close_to(a.dx.download(stream_).data(), a.expected)) << variant;
    EXPECT_TRUE(close_to(b.dx.download(other).data(), b.expected)) << variant;
  }
  EXPECT_EQ(cudaStreamSynchronize(other), cudaSuccess);
  cudaStreamDestroy(other);
}

TEST_F(SptrsvCudaExtra, RejectsBadArguments) {
  DeviceProblem p(stream_, solver_input(sptrsv_matrix("banded_narrow"), Triangle::Lower, false, 101),
                  Triangle::Lower, false);
  EXPECT_THROW(kernels::solve_cuda("cusparse", stream_, p.matrix.view(), p.db.get(), p.dx.get(), p.ws()),
               InvalidArgument);
  const kernels::SolveWorkspace small = kernels::make_solve_workspace(p.workspace.get(), p.input.rows - 1);
  for (const std::string variant : {"syncfree", "capellini", "yuenyeung"}) {
    EXPECT_THROW(kernels::solve_cuda(variant, stream_, p.matrix.view(), p.db.get(), p.dx.get(), small),
                 InvalidArgument)
        << variant;
  }
  kernels::TriangularDeviceView no_segments = p.matrix.view();
  no_segments.segments = nullptr;
  EXPECT_THROW(kernels::sptrsv_yuenyeung_cuda(stream_, no_segments, p.db.get(), p.dx.get(), p.ws()), InvalidArgument);
  no_segments.level_segments = nullptr;
  EXPECT_THROW(kernels::solve_cuda("yuenyeung_levelorder", stream_, no_segments, p.db.get(), p.dx.get(), p.ws()),
               InvalidArgument);
  kernels::TriangularDeviceView no_levels = p.matrix.view();
  no_levels.level_rows = nullptr;
  EXPECT_THROW(kernels::solve_cuda("syncfree_levelorder", stream_, no_levels, p.db.get(), p.dx.get(), p.ws()),
               InvalidArgument);
  // A segment of 33 rows would leave a row unsolved and its dependants waiting forever.
  kernels::TriangularView host = p.pattern.host_view();
  std::vector<index_t> too_long{0, 33, host.n, 0, 0};
  host.segments = too_long.data();
  host.num_segments = 2;
  EXPECT_THROW(DeviceTriangular(stream_, host), InvalidArgument);
  // Split-row parts that never reach their last one would leave the row unpublished.
  std::vector<index_t> unfinished{0, 0, 1, host.n, kernels::SegmentPart::encode(0, 0, 3),
                                  kernels::SegmentPart::encode(0, 1, 3), 0};
  host.segments = unfinished.data();
  host.num_segments = 3;
  try {
    DeviceTriangular refused(stream_, host);
    ADD_FAILURE() << "a row whose last part is missing was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("segment 1 is not a valid part"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetsparse::test
