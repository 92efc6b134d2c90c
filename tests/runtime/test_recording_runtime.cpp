// The recording runtime: dependencies inferred from data accesses as StarPU does, and planners' DAGs
// checked without StarPU.
#include <gtest/gtest.h>

#include <set>

#include "codelets/vector/vector_codelet.hpp"
#include "hetsparse/error.hpp"
#include "planners/tiled_cholesky.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/generators.hpp"
#include "spmv/distributed_spmv.hpp"

namespace hetsparse::test {
namespace {

TEST(RecordingRuntime, ReadAfterWriteWriteAfterReadAndScratch) {
  rt::RecordingRuntime r;
  std::vector<double> x(10), y(10), d(1), n(1);
  auto hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y), hd = rt::make_vector_handle(r, d),
       hn = rt::make_vector_handle(r, n);
  codelets::insert_axpy(r, {}, 10, 1.0, hx.id(), hy.id());           // t0 writes y
  codelets::insert_dot(r, {}, 10, hx.id(), hy.id(), hd.id());        // t1 reads y: after t0
  codelets::insert_nrm2(r, {}, 10, hx.id(), hn.id());                // t2 independent of t0/t1
  codelets::insert_axpy(r, {"again", 5, rt::Where::Cpu, -1}, 10, 2.0, hy.id(), hx.id());  // t3 writes x: after t1, t2, t0
  const auto& t = r.tasks();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_TRUE(t[0].deps.empty());
  EXPECT_EQ(t[1].deps, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(t[2].deps.empty());
  EXPECT_EQ(t[3].deps, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(t[3].spec.name, "again");
  EXPECT_EQ(t[3].spec.priority, 5);
  EXPECT_EQ(t[3].spec.where, rt::Where::Cpu);
  EXPECT_EQ(r.critical_path_length(), 3u);
  EXPECT_NE(r.to_dot().find("t1 -> t3"), std::string::npos);
  EXPECT_DOUBLE_EQ(t[1].spec.flops, 20.0);
}

TEST(RecordingRuntime, CommutingWritersWaitForWhatCameBeforeNotForEachOther) {
  rt::RecordingRuntime r;
  std::vector<double> v(8), w(8);
  rt::DataHandle hv = rt::make_vector_handle(r, v), hw = rt::make_vector_handle(r, w);
  rt::Kernel k{"k"};
  auto task = [&](rt::Access mode) {
    rt::TaskSpec t;
    t.kernel = &k;
    t.data = {{hv.id(), mode}, {hw.id(), rt::Access::Read}};
    r.submit(std::move(t));
  };
  task(rt::Access::Write);    // t0
  task(rt::Access::Commute);  // t1
  task(rt::Access::Commute);  // t2
  task(rt::Access::Commute);  // t3
  task(rt::Access::Read);     // t4: after the whole group
  task(rt::Access::Write);    // t5
  const auto& t = r.tasks();
  EXPECT_EQ(t[1].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[2].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[3].deps, (std::vector<std::size_t>{0}));
  EXPECT_EQ(t[4].deps, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(t[5].deps, (std::vector<std::size_t>{1, 2, 3, 4}));
  EXPECT_EQ(r.critical_path_length(), 4u);
}

TEST(RecordingRuntime, RejectsUnregisteredHandles) {
  rt::RecordingRuntime r;
  std::vector<double> x(4), y(4);
  auto hx = rt::make_vector_handle(r, x);
  rt::HandleId dead;
  {
    auto hy = rt::make_vector_handle(r, y);
    dead = hy.id();
  }
  EXPECT_THROW(codelets::insert_axpy(r, {}, 4, 1.0, hx.id(), dead), InvalidArgument);
}

TEST(RecordingRuntime, DistributedSpmvDag) {
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

TEST(RecordingRuntime, TiledCholeskyDagShape) {
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
