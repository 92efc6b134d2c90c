// The wavefront scheme (kernels::WavefrontSolver, "wavefront[:...]" through sptrsv::PreparedScheme)
// against ref::sptrsv: every test triangle, lower and upper, unit or not, x NaN-poisoned before each
// solve, several solves in a row (the two position buffers alternate), in place, replayed from a CUDA
// graph (the buffer to use is device state), and the refusals. Skipped without a device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_wavefront.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_device_problem.hpp"

namespace hetsparse::test {
namespace {

using SptrsvWavefrontCuda = CudaStreamTest;

// Defaults (blocks by the level profile), one block an SM, as many as fit with a pause between polls,
// every row of more than 4 off-diagonals to a warp, and none (every row to a thread).
const std::vector<std::string> kSchemes = {"wavefront", "wavefront:blocks=1", "wavefront:blocks=8,sleep=64",
                                           "wavefront:warp=4", "wavefront:warp=0"};

// The scheme tests' triangles, and level profiles and hub rows for the overflow and the warp rows.
std::vector<NamedTriangle> cases() {
  std::vector<NamedTriangle> out = scheme_test_triangles();
  out.push_back({"profile_12", level_profile_lower("c40+b3000x30+c20", 12, 9)});  // rows of up to 12 off-diagonals
  out.push_back({"profile_40", level_profile_lower("c30+b4000x20+c30", 40, 5)});  // up to 40: slots + overflow
  out.push_back({"rmat_12_8", anchor_rmat_lower(12, 8, 3)});  // hub rows of hundreds of entries: warp rows
  return out;
}

TEST_F(SptrsvWavefrontCuda, EveryTriangleMatchesTheReference) {
  int solved = 0, overflowing = 0, warp_rows = 0;
  for (const NamedTriangle& m : cases()) {
    for (const SolveCase& c : solve_cases()) {
      for (const std::string& scheme : kSchemes) {
        SCOPED_TRACE(m.name + " " + c.label() + " " + scheme);
        DeviceSolveProblem p(stream_, m.lower, c, 5, 31);
        // Rows past the slots go through the overflow CSR (the dense and long-row triangles).
        const index_t longest = kernels::cluster_levels_longest(p.pattern.host_view());
        if (longest > kernels::WavefrontOptions::kMaxWidth) ++overflowing;
        const kernels::WavefrontOptions o = kernels::parse_wavefront_scheme(scheme);
        if (longest > kernels::wavefront_warp_row(o, p.pattern.rows(), p.pattern.num_levels()) && o.warp_row != 0) ++warp_rows;
        const sptrsv::PreparedScheme prepared(stream_, p.pattern.host_view(), p.matrix.view(), scheme);
        for (int round = 0; round < 3; ++round) {  // both buffers, then the first again
          p.dx.poison(stream_);
          prepared.solve(stream_, p.db.get(), p.dx.get(), p.ws);
          EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected)) << "round " << round;
        }
        prepared.solve(stream_, p.db.get(), p.db.get(), p.ws);
        EXPECT_TRUE(close_to(p.db.download(stream_).data(), p.expected)) << "in place";
        ++solved;
      }
    }
  }
  EXPECT_GT(solved, 50);
  EXPECT_GT(overflowing, 0);
  EXPECT_GT(warp_rows, 10);
}

struct Laplacian3d {
  Laplacian3d(cudaStream_t stream, int side)
      : lower(anchor_laplacian_lower(3, side, 7)),
        pattern(lower, Triangle::Lower, false),
        matrix(stream, pattern.host_view()),
        b(random_values(static_cast<std::size_t>(lower.rows), 3)),
        expected(b.size()) {
    ref::sptrsv(lower, Triangle::Lower, false, b.data(), expected.data());
  }
  Csr lower;
  sptrsv::TriangularPattern pattern;
  kernels::DeviceTriangular matrix;
  std::vector<double> b, expected;
};

// Many solves of a 3D Laplacian with the whole GPU polling (the racecheck target): a word read before
// it was final shows as a wrong x now and then.
TEST_F(SptrsvWavefrontCuda, ManySolvesInARow) {
  const Laplacian3d m(stream_, 48);
  const kernels::WavefrontSolver solver(stream_, m.matrix.view(), 3, kernels::WavefrontOptions{});
  EXPECT_EQ(solver.width(), 3);
  EXPECT_GT(solver.blocks(), 1);
  DeviceArray<double> db(stream_, m.b), dx(m.b.size());
  for (int round = 0; round < 20; ++round) {
    dx.poison(stream_);
    solver.solve(stream_, db.get(), dx.get());
    ASSERT_TRUE(close_to(dx.download(stream_).data(), m.expected)) << "round " << round;
  }
}

// A graph captured once and replayed: the solve keeps which buffer is next on the device, so the
// replays alternate as direct launches do (a host-side choice would be frozen into the graph and
// read stale words from the second replay on).
TEST_F(SptrsvWavefrontCuda, GraphReplaysMatchTheReference) {
  const Laplacian3d m(stream_, 24);
  const kernels::WavefrontSolver solver(stream_, m.matrix.view(), 3, kernels::WavefrontOptions{});
  DeviceArray<double> db(stream_, m.b), dx(m.b.size());
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  kernels::check_cuda(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  solver.solve(stream_, db.get(), dx.get());
  kernels::check_cuda(cudaStreamEndCapture(stream_, &graph), "cudaStreamEndCapture");
  kernels::check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int round = 0; round < 4; ++round) {
    dx.poison(stream_);
    kernels::check_cuda(cudaGraphLaunch(exec, stream_), "cudaGraphLaunch");
    ASSERT_TRUE(close_to(dx.download(stream_).data(), m.expected)) << "replay " << round;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// A NaN in b, even one with the pending pattern's bits, ends the solve: its dependents get NaN, the
// others their values.
TEST_F(SptrsvWavefrontCuda, NaNInTheRightHandSideFinishes) {
  const Laplacian3d m(stream_, 12);
  std::vector<double> b = m.b;
  const unsigned long long pending = ~0ull;
  std::memcpy(&b[5], &pending, sizeof pending);
  b[100] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> expected(b.size());
  ref::sptrsv(m.lower, Triangle::Lower, false, b.data(), expected.data());
  const kernels::WavefrontSolver solver(stream_, m.matrix.view(), 3, kernels::WavefrontOptions{});
  DeviceArray<double> db(stream_, b), dx(b.size());
  for (int round = 0; round < 2; ++round) {
    dx.poison(stream_);
    solver.solve(stream_, db.get(), dx.get());
    const std::vector<double> x = dx.download(stream_);
    int nans = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(std::isnan(x[i]), std::isnan(expected[i])) << "row " << i;
      if (std::isnan(x[i])) {
        ++nans;
      } else {
        ASSERT_NEAR(x[i], expected[i], 1e-12 * (1 + std::abs(expected[i]))) << "row " << i;
      }
    }
    EXPECT_GT(nans, 100);
  }
}

// A longest row the caller understated is caught by the pack, not solved without its entries; an
// overstated one only widens the slots (at most kMaxWidth).
TEST_F(SptrsvWavefrontCuda, RowsLongerThanTheGivenLongestAreRefused) {
  const Laplacian3d m(stream_, 8);
  EXPECT_THROW(kernels::WavefrontSolver(stream_, m.matrix.view(), 2, kernels::WavefrontOptions{}), InvalidArgument);
  EXPECT_THROW(kernels::WavefrontSolver(stream_, m.matrix.view(), -1, kernels::WavefrontOptions{}), InvalidArgument);
  EXPECT_EQ(kernels::WavefrontSolver(stream_, m.matrix.view(), 40, kernels::WavefrontOptions{}).width(), 16);
}

// The slots of a pack hold thread rows only: warp rows do not widen them.
TEST_F(SptrsvWavefrontCuda, WarpRowsLeaveTheSlotsToTheThreadRows) {
  const Csr lower = level_profile_lower("c10+b3000x10+c10", 60, 8);
  const sptrsv::TriangularPattern pattern(lower, Triangle::Lower, false);
  const kernels::DeviceTriangular matrix(stream_, pattern.host_view());
  const index_t longest = kernels::cluster_levels_longest(pattern.host_view());
  ASSERT_GT(longest, 16);
  kernels::WavefrontOptions o;
  o.warp_row = 4;
  const kernels::WavefrontSolver by_warps(stream_, matrix.view(), longest, o);
  EXPECT_TRUE(by_warps.warp_rows());
  EXPECT_EQ(by_warps.width(), 4);
  o.warp_row = 0;
  const kernels::WavefrontSolver by_threads(stream_, matrix.view(), longest, o);
  EXPECT_FALSE(by_threads.warp_rows());
  EXPECT_EQ(by_threads.width(), 16);
}

// Rows of up to 60 off-diagonals over many solves with the whole GPU polling: past the slots as thread
// rows (the overflow chunks wait on their words as the slots do), or as warp rows. `rows` (of the wide
// block) trims the profile for the sanitizers.
void solve_long_rows_many_times(cudaStream_t stream, int rows, int rounds, int warp_row) {
  const Csr lower = level_profile_lower("c20+b" + std::to_string(rows) + "x40+c20", 60, 3);
  const sptrsv::TriangularPattern pattern(lower, Triangle::Lower, false);
  const kernels::DeviceTriangular matrix(stream, pattern.host_view());
  const std::vector<double> b = random_values(static_cast<std::size_t>(lower.rows), 4);
  std::vector<double> expected(b.size());
  ref::sptrsv(lower, Triangle::Lower, false, b.data(), expected.data());
  kernels::WavefrontOptions options;
  options.warp_row = warp_row;
  const kernels::WavefrontSolver solver(stream, matrix.view(), kernels::cluster_levels_longest(pattern.host_view()),
                                        options);
  EXPECT_EQ(solver.width(), 16);
  EXPECT_EQ(solver.warp_rows(), warp_row > 0);
  DeviceArray<double> db(stream, b), dx(b.size());
  for (int round = 0; round < rounds; ++round) {
    dx.poison(stream);
    solver.solve(stream, db.get(), dx.get());
    ASSERT_TRUE(close_to(dx.download(stream).data(), expected)) << "round " << round;
  }
}

TEST_F(SptrsvWavefrontCuda, LongRowsThroughTheOverflowManyTimes) { solve_long_rows_many_times(stream_, 20000, 10, 0); }
TEST_F(SptrsvWavefrontCuda, LongRowsAsWarpRowsManyTimes) { solve_long_rows_many_times(stream_, 20000, 10, 32); }
// Small enough for memcheck and racecheck (a spinning kernel runs orders of magnitude slower there).
TEST_F(SptrsvWavefrontCuda, SmallLongRowsThroughTheOverflow) { solve_long_rows_many_times(stream_, 1000, 2, 0); }
TEST_F(SptrsvWavefrontCuda, SmallLongRowsAsWarpRows) { solve_long_rows_many_times(stream_, 1000, 2, 32); }

}  // namespace
}  // namespace hetsparse::test
