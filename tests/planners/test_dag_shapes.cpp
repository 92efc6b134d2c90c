// The DAGs of DistributedSpmv and of the dense tiled Cholesky planner, recorded on the
// RecordingRuntime (no StarPU): independence of the SpMV blocks and their balance, task counts,
// critical path and placement of the tiled factorization.
#include <gtest/gtest.h>

#include <set>

#include "planners/tiled_cholesky.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/generators.hpp"
#include "spmv/distributed_spmv.hpp"

namespace hetsparse::test {
namespace {

TEST(PlannerDags, DistributedSpmvDag) {
  rt::RecordingRuntime r;
  Csr A = laplacian_2d(60, 50);
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  DistributedSpmv s(r, A, x, y, {6, rt::Where::Any, codelets::SpmvCudaImpl::Own});
  ASSERT_EQ(s.num_blocks(), 6u);
  s.submit();
  s.submit(1.0, 1.0);
  const auto& t = r.tasks();
  ASSERT_EQ(t.size(), 12u);
  double flops = 0;
  for (std::size_t b = 0; b < 6; ++b) {
    EXPECT_TRUE(t[b].deps.empty());                                  // first product: independent blocks
    EXPECT_EQ(t[6 + b].deps, (std::vector<std::size_t>{b}));         // second: only its own block's y
    flops += t[b].spec.flops;
  }
  EXPECT_DOUBLE_EQ(flops, 2.0 * double(A.nnz()));
  // Blocks balanced by nonzeros: no block above 1/6 of nnz by more than one row's worth.
  const auto bounds = balanced_row_blocks(A, 6);
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b)
    EXPECT_LE(double(A.rowptr[bounds[b + 1]] - A.rowptr[bounds[b]]), A.nnz() / 6.0 + 5);
}

TEST(PlannerDags, TiledCholeskyDagShape) {
  rt::RecordingRuntime r;
  planners::TiledLayout lay{1000, 200};  // 5 x 5 tiles
  const int T = lay.tiles();
  std::vector<std::vector<rt::HandleId>> tiles(T, std::vector<rt::HandleId>(T));
  std::vector<rt::HandleId> info(T);
  std::vector<double> dummy(1);
  for (int i = 0; i < T; ++i) {
    for (int j = 0; j <= i; ++j) tiles[i][j] = r.register_matrix({dummy.data(), 200, 200, 200});
    info[i] = r.register_vector({dummy.data(), 1, sizeof(int)});
  }
  planners::submit_tiled_cholesky(r, lay, tiles, info, {300});
  // T potrf, T(T-1)/2 trsm and syrk, T(T-1)(T-2)/6 gemm.
  EXPECT_EQ(r.tasks().size(), std::size_t(T + T * (T - 1) + T * (T - 1) * (T - 2) / 6));
  // The critical path: potrf, trsm, syrk per panel, 3T - 2 tasks.
  EXPECT_EQ(r.critical_path_length(), std::size_t(3 * T - 2));
  std::set<std::string> names;
  for (const auto& t : r.tasks()) {
    EXPECT_TRUE(names.insert(t.spec.name).second) << "duplicate task " << t.spec.name;
    EXPECT_EQ(t.spec.where, rt::Where::Cpu);  // 200 < gpu_min_tile 300: kept off the GPU
  }
}

}  // namespace
}  // namespace hetsparse::test
