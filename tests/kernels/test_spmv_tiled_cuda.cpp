// CUDA-only checks of the tiled SpMV kernel (the shared cases run in test_spmv.cpp): each block shape
// of the launcher against the reference, with long rows and without (the two kinds of loads),
// bit-identical results from run to run (long rows' pieces are added in piece order, whatever order the
// blocks finish in), a workspace reused by calls on one stream, and the missing-workspace error.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "tests/kernels/backend_cuda.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {
namespace {

using SpmvTiledCuda = CudaKernelTest;

// A matrix with rows of every kind: empty, short, a few hundred, and hubs split into pieces.
CsrMatrix mixed_rows(Rng& rng, std::uint32_t nrows) {
  std::vector<std::uint32_t> lengths = random_row_lengths(rng, nrows, 0, 12);
  for (std::uint32_t r = 7; r < nrows; r += 997) lengths[r] = 300 + r % 500;
  for (std::uint32_t r = 333; r < nrows; r += 2503) lengths[r] = 9000 + r % 3000;
  for (std::uint32_t r = 1500; r < 1600 && r < nrows; ++r) lengths[r] = 0;
  return random_csr(rng, 15000, lengths);
}

// y = alpha A x + beta y on the device with the plan of `o`; returns the downloaded y.
std::vector<double> run_tiled(cudaStream_t stream, const CsrMatrix& A, kernels::TilePlanOptions o,
                              const std::vector<double>& x, const std::vector<double>& y, double alpha, double beta,
                              DeviceArray<double>* shared_workspace = nullptr) {
  const kernels::TilePlan plan(A.rowptr.data(), A.nrows, 0, o);
  const DeviceArray<std::uint32_t> words(stream, plan.words()), rowptr(stream, A.rowptr), colind(stream, A.colind);
  const DeviceArray<double> values(stream, A.values), dx(stream, x);
  DeviceArray<double> dy(stream, y);
  if (beta == 0.0) dy.poison(stream);
  DeviceArray<double> own(plan.workspace_bytes() / sizeof(double) + 1);
  own.poison(stream);
  DeviceArray<double>& workspace = shared_workspace ? *shared_workspace : own;
  EXPECT_GE(workspace.size() * sizeof(double), plan.workspace_bytes());
  const kernels::CsrView view{A.nrows, A.nnz(), rowptr.get(), colind.get(), values.get(), 0};
  kernels::spmv_tiled_cuda(stream, plan.view_at(words.get()), view, dx.get(), dy.get(), alpha, beta, workspace.get());
  return dy.download(stream);
}

// Every block the launcher has (128, 256 and 512 threads loading 4, 8 or 16 entries each), each with
// uneven tiles reduced both ways, on A: the plans of a matrix with long rows load on lines of colind,
// those of one without load where each tile starts.
void every_block_shape_matches_reference(cudaStream_t stream, const CsrMatrix& A, Rng& rng, bool long_rows) {
  const std::vector<double> x = random_vector(rng, A.ncols), y = random_vector(rng, A.nrows);
  std::vector<kernels::TilePlanOptions> shapes;
  for (const auto& [e, r, t] : {std::tuple{512u, 64u, 128u}, {1024u, 256u, 128u}, {2048u, 512u, 128u},
                               {1024u, 256u, 256u}, {2048u, 512u, 256u}, {4096u, 1024u, 256u},
                               {2048u, 512u, 512u}, {4096u, 1024u, 512u}, {33u, 3u, 0u}})
    for (const auto reduce : {kernels::TileReduce::Grouped, kernels::TileReduce::Balanced})
      shapes.push_back({e, r, t, long_rows ? e / 4 : 0, reduce});
  std::vector<SpmvExpectation> expected;  // the dense reference once per beta, not per shape
  for (const double beta : {0.0, -0.5}) expected.push_back(expected_spmv(A, 0, A.nrows, x, y, 1.25, beta));
  for (const kernels::TilePlanOptions o : shapes) {
    SCOPED_TRACE("tiles of " + std::to_string(o.max_entries) + " in blocks of " + std::to_string(o.block_threads) +
                 (o.reduce == kernels::TileReduce::Balanced ? ", balanced" : ", grouped"));
    ASSERT_EQ(kernels::TilePlan(A.rowptr.data(), A.nrows, 0, o).long_rows() > 0, long_rows);
    for (const int b : {0, 1}) {
      const SpmvExpectation& e = expected[b];
      EXPECT_TRUE(within_bounds(run_tiled(stream, A, o, x, y, 1.25, b == 0 ? 0.0 : -0.5), e.values, e.bounds));
    }
  }
}

TEST_F(SpmvTiledCuda, EveryBlockShapeMatchesReference) {
  Rng rng(41);
  every_block_shape_matches_reference(stream_, mixed_rows(rng, 6000), rng, true);
}

TEST_F(SpmvTiledCuda, EveryBlockShapeWithoutLongRowsMatchesReference) {
  Rng rng(43);
  std::vector<std::uint32_t> lengths = random_row_lengths(rng, 9000, 0, 30);  // uneven, none past a tile
  for (std::uint32_t r = 11; r < lengths.size(); r += 613) lengths[r] = 0;
  every_block_shape_matches_reference(stream_, random_csr(rng, 12000, lengths), rng, false);
}

TEST_F(SpmvTiledCuda, PiecesAddUpTheSameEveryRun) {
  Rng rng(42);
  const CsrMatrix A = mixed_rows(rng, 12000);
  const std::vector<double> x = random_vector(rng, A.ncols), y = random_vector(rng, A.nrows);
  kernels::TilePlanOptions o{256, 64, 0, 0, kernels::TileReduce::Auto};
  const std::vector<double> first = run_tiled(stream_, A, o, x, y, 1.0, 0.5);
  for (int run = 0; run < 4; ++run) {
    const std::vector<double> again = run_tiled(stream_, A, o, x, y, 1.0, 0.5);
    ASSERT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(double)), 0) << "run " << run;
  }
}

TEST_F(SpmvTiledCuda, WorkspaceReusedAcrossCalls) {
  Rng rng(43);
  const CsrMatrix A = mixed_rows(rng, 5000);
  const std::vector<double> x = random_vector(rng, A.ncols), y = random_vector(rng, A.nrows);
  const kernels::TilePlan plan(A.rowptr.data(), A.nrows, 0, {512, 128});
  ASSERT_GT(plan.long_rows(), 0u);
  DeviceArray<double> shared(plan.workspace_bytes() / sizeof(double) + 1);
  shared.poison(stream_);  // the counters must be reset by each call, not assumed zero
  const SpmvExpectation e = expected_spmv(A, 0, A.nrows, x, y, -0.8, 1.0);
  for (int call = 0; call < 3; ++call)
    EXPECT_TRUE(within_bounds(run_tiled(stream_, A, {512, 128}, x, y, -0.8, 1.0, &shared), e.values, e.bounds))
        << "call " << call;
}

TEST_F(SpmvTiledCuda, LongRowsNeedAWorkspace) {
  const std::vector<std::uint32_t> rowptr{0, 100};
  const kernels::TilePlan plan(rowptr.data(), 1, 0, {64, 8});
  ASSERT_EQ(plan.long_rows(), 1u);
  const kernels::CsrView view{1, 100, nullptr, nullptr, nullptr, 0};
  EXPECT_THROW(kernels::spmv_tiled_cuda(stream_, plan.view(), view, nullptr, nullptr, 1.0, 0.0, nullptr),
               InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
