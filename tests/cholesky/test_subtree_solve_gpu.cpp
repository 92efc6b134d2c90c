// The level-ordered leaf-subtree solve on the GPU (kernels::supernode_subtrees_{forward,backward}_cuda)
// against its serial reference (the _cpu ones) on the same random panels of real structures: leaf
// subtrees in several chunks (warp and block teams, panels of more than 32 columns and 256 rows),
// a whole factor as one subtree (top separators of hundreds of columns), 1, 3 and 16 right-hand
// sides (one and two register blocks of 8, a partial one). Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/supernode/supernode_solve.hpp"
#include "sparse/generators.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/subtree_solve_problems.hpp"
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

class SubtreeSolveGpu : public CudaStreamTest {};

TEST_F(SubtreeSolveGpu, MatchesTheSerialReference) {
  struct Case {
    const char* name;
    Csr A;
    double subtree_max_flops;
    int max_groups;
  };
  const Case cases[] = {{"lap3d subtrees", laplacian_3d(26, 25, 24), 2e6, 7},
                        {"lap3d whole", laplacian_3d(22, 21, 20), 1e30, 1},
                        {"elast3d", elasticity_3d(9, 8, 8), -1.0, 5},
                        {"lap2d whole", laplacian_2d(150, 140), 1e30, 1}};
  int wide = 0;  // panels of more than 32 columns and 256 rows, over all cases
  for (const Case& c : cases) {
    const SubtreeSolveProblem p(c.A, c.subtree_max_flops, c.max_groups, 5);
    const auto& chunks = p.plan.subtrees.chunks;
    ASSERT_FALSE(chunks.empty()) << c.name;
    int block_team = 0;  // both team kinds in every case (else the case tests less than it says)
    for (const auto& e : p.plan.subtrees.entries) {
      block_team += kernels::subtree_solve_block_team(p.layout.loc[e.supernode]);
      wide += p.layout.loc[e.supernode].ncols > 32 && p.layout.loc[e.supernode].nrows > 256;
    }
    EXPECT_GT(block_team, 0) << c.name;
    EXPECT_LT(block_team, static_cast<int>(p.plan.subtrees.entries.size())) << c.name;
    const DeviceArray<double> values(stream_, p.values);
    const DeviceArray<kernels::SubtreeSolveEntry> entries(stream_, p.plan.subtrees.entries);
    const DeviceArray<kernels::PanelLocation> loc(stream_, p.layout.loc);
    const DeviceArray<std::int32_t> rows(stream_, p.sym.rows);
    for (const int nrhs : {1, 3, 16}) {
      Rng rng(100 + nrhs);
      const std::vector<double> b = random_vector(rng, std::size_t(p.sym.n) * nrhs);
      std::vector<double> want = b;
      DeviceArray<double> stage(stream_, b);
      for (const auto& ch : chunks) {
        const auto s = p.schedule(ch, p.plan.subtrees.entries.data());
        kernels::supernode_subtrees_forward_cpu(p.panels(ch, p.values.data()), s, p.layout.loc.data(),
                                                p.sym.rows.data(), want.data(), p.sym.n, nrhs);
        kernels::supernode_subtrees_forward_cuda(stream_, p.panels(ch, values.get()), p.schedule(ch, entries.get()),
                                                 loc.get(), rows.get(), stage.get(), p.sym.n, nrhs);
      }
      const std::vector<double> fwd = stage.download(stream_);
      EXPECT_LE(worst_relative(fwd, want), 1e-12) << c.name << " forward, nrhs " << nrhs;
      // Backward from the same stage on both sides (the reference's forward).
      stage.upload(stream_, want);
      for (auto ch = chunks.rbegin(); ch != chunks.rend(); ++ch) {
        kernels::supernode_subtrees_backward_cpu(p.panels(*ch, p.values.data()),
                                                 p.schedule(*ch, p.plan.subtrees.entries.data()), p.layout.loc.data(),
                                                 p.sym.rows.data(), want.data(), p.sym.n, nrhs);
        kernels::supernode_subtrees_backward_cuda(stream_, p.panels(*ch, values.get()), p.schedule(*ch, entries.get()),
                                                  loc.get(), rows.get(), stage.get(), p.sym.n, nrhs);
      }
      EXPECT_LE(worst_relative(stage.download(stream_), want), 1e-12) << c.name << " backward, nrhs " << nrhs;
    }
  }
  EXPECT_GT(wide, 0);
}

}  // namespace
}  // namespace hetsparse::test
