// The level-ordered solve on the GPU (kernels::supernode_levels_{forward,backward}_cuda) against its
// serial reference (the _cpu ones) on the same random panels of real structures: leaf subtrees and
// the groups above in several chunks, a whole factor as one subtree, all three classes (warp, block,
// wide: cuBLAS from 64 columns in some cases, so that small problems reach it), panels of more than
// 32 columns and 256 rows, wide diagonal blocks of several 256-column steps, 1, 3 and 16
// right-hand sides (split over teams: register blocks of 8 and 1, a partial one; the wide class's
// own step kernel with several). Skips without a GPU.
#include <gtest/gtest.h>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>

#include "kernels/supernode/supernode_solve.hpp"
#include "sparse/generators.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/level_solve_problems.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

double worst_relative(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 1e-300, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) return INFINITY;
    scale = std::max(scale, std::abs(b[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  return worst / scale;
}

class LevelSolveGpu : public CudaStreamTest {
 protected:
  void SetUp() override {
    CudaStreamTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(cublasCreate(&blas_), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (blas_) cublasDestroy(blas_);
    CudaStreamTest::TearDown();
  }
  cublasHandle_t blas_ = nullptr;
};

TEST_F(LevelSolveGpu, MatchesTheSerialReference) {
  struct Case {
    const char* name;
    Csr A;
    double subtree_max_flops;
    int max_groups, wide_min_cols;
  };
  const Case cases[] = {{"lap3d subtrees and tops", laplacian_3d(26, 25, 24), 2e6, 7, 1024},
                        {"lap3d whole, wide from 64", laplacian_3d(22, 21, 20), 1e30, 1, 64},
                        {"elast3d, wide from 64", elasticity_3d(9, 8, 8), -1.0, 5, 64},
                        {"lap2d whole", laplacian_2d(150, 140), 1e30, 1, 1024},
                        {"lap3d no subtrees", laplacian_3d(18, 17, 16), 0.0, 240, 1024}};
  int classes[3] = {0, 0, 0}, wide_panels = 0, wide_steps = 0;  // over all cases
  for (const Case& c : cases) {
    planners::LevelSolveOptions o;
    o.max_groups = c.max_groups;
    o.wide_min_cols = c.wide_min_cols;
    const LevelSolveProblem p(c.A, c.subtree_max_flops, o, 5);
    const auto& chunks = p.plan.chunks;
    ASSERT_FALSE(chunks.empty()) << c.name;
    for (const auto& ch : chunks)
      for (std::size_t l = 0; l < ch.tiles.size(); ++l)
        for (int cls = 0; cls < 3; ++cls) classes[cls] += ch.segments[3 * l + cls + 1] - ch.segments[3 * l + cls];
    for (const auto& ch : chunks)
      for (const auto& w : ch.wide) wide_steps += w.ncols > kernels::kSolveBlock;
    for (const auto& e : p.plan.entries)
      wide_panels += p.layout.loc[e.supernode].ncols > 32 && p.layout.loc[e.supernode].nrows > 256;
    const DeviceArray<double> values(stream_, p.values);
    const DeviceArray<kernels::LevelSolveEntry> entries(stream_, p.plan.entries);
    const DeviceArray<kernels::PanelLocation> loc(stream_, p.layout.loc);
    const DeviceArray<std::int32_t> rows(stream_, p.sym.rows);
    for (const int nrhs : {1, 3, 16}) {
      Rng rng(100 + nrhs);
      const std::vector<double> b = random_vector(rng, std::size_t(p.sym.n) * nrhs);
      std::vector<double> want = b;
      DeviceArray<double> stage(stream_, b);
      for (const auto& ch : chunks) {
        kernels::supernode_levels_forward_cpu(p.panels(ch, p.values.data()), p.schedule(ch, p.plan.entries.data()),
                                              p.layout.loc.data(), p.sym.rows.data(), want.data(), p.sym.n, nrhs);
        kernels::supernode_levels_forward_cuda(blas_, stream_, p.panels(ch, values.get()), p.schedule(ch, entries.get()),
                                               loc.get(), rows.get(), stage.get(), p.sym.n, nrhs);
      }
      EXPECT_LE(worst_relative(stage.download(stream_), want), 1e-12) << c.name << " forward, nrhs " << nrhs;
      stage.upload(stream_, want);  // backward from the same stage on both sides
      for (auto ch = chunks.rbegin(); ch != chunks.rend(); ++ch) {
        kernels::supernode_levels_backward_cpu(p.panels(*ch, p.values.data()), p.schedule(*ch, p.plan.entries.data()),
                                               p.layout.loc.data(), p.sym.rows.data(), want.data(), p.sym.n, nrhs);
        kernels::supernode_levels_backward_cuda(blas_, stream_, p.panels(*ch, values.get()),
                                                p.schedule(*ch, entries.get()), loc.get(), rows.get(), stage.get(),
                                                p.sym.n, nrhs);
      }
      EXPECT_LE(worst_relative(stage.download(stream_), want), 1e-12) << c.name << " backward, nrhs " << nrhs;
    }
  }
  EXPECT_GT(classes[0], 0);
  EXPECT_GT(classes[1], 0);
  EXPECT_GT(classes[2], 0);
  EXPECT_GT(wide_panels, 0);
  EXPECT_GT(wide_steps, 0);
}

}  // namespace
}  // namespace hetsparse::test
