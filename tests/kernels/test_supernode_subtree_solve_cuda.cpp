// The batched GPU subtree solve (supernode_subtrees_{forward,backward}_cuda) against the CPU group
// kernels: a dense 200 x 200 factor cut into 5 supernodes (NaN above the diagonal: never read),
// groups of 2 and 1 supernodes in one forward launch, one group backward, nrhs 1 and 3.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "kernels/supernode/supernode_solve.hpp"
#include "reference/dense_reference.hpp"
#include "tests/support/supernode_problems.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

constexpr int kN = 200;

template <class T>
struct Dev {
  T* p = nullptr;
  std::size_t n = 0;
  explicit Dev(const std::vector<T>& h) : n(h.size()) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(1, n) * sizeof(T)), cudaSuccess);
    if (n) {
      EXPECT_EQ(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    if (n) {
      EXPECT_EQ(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    }
    return h;
  }
};

void expect_close(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  double scale = 1e-300, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(b[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  EXPECT_LE(worst, 1e-12 * scale) << what;
}

TEST(SupernodeSubtreeSolveCuda, MatchesTheCpuGroupKernels) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
  Rng rng(57);
  std::vector<double> L = random_spd_matrix(rng, kN);
  ASSERT_EQ(ref::potrf('L', kN, L.data(), kN), 0);
  const std::vector<int> bounds{0, 30, 70, 110, 165, 200};
  std::vector<PanelLocation> loc;
  std::vector<std::int32_t> rows;
  std::vector<double> values;
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
    const int first = bounds[s], ncols = bounds[s + 1] - first, nrows = kN - first;
    loc.push_back({static_cast<std::int64_t>(values.size()), static_cast<std::int64_t>(rows.size()), nrows, ncols,
                   first, 0});
    for (int i = first; i < kN; ++i) rows.push_back(i);
    for (int c = 0; c < ncols; ++c)
      for (int i = 0; i < nrows; ++i) values.push_back(i < c ? kNaN : L[first + i + std::size_t(first + c) * kN]);
  }
  // Group A: supernodes [0, 2), columns [0, 70), external rows [70, 200); group B: [3, 4), columns
  // [110, 165), external rows [165, 200).
  std::vector<std::int32_t> ext_rows;
  for (int i = 70; i < kN; ++i) ext_rows.push_back(i);
  const std::int64_t b_ext = static_cast<std::int64_t>(ext_rows.size());
  for (int i = 165; i < kN; ++i) ext_rows.push_back(i);
  const Dev<PanelLocation> dloc(loc);
  const Dev<std::int32_t> drows(rows), dext_rows(ext_rows);
  const Dev<double> dvalues(values);
  for (const int nrhs : {1, 3}) {
    const std::vector<double> stage = random_vector(rng, std::size_t(kN) * nrhs);
    struct G {
      int first, last, c0, c1, next;
      std::int64_t ext_offset;
    };
    const G groups[2] = {{0, 2, 0, 70, 130, 0}, {3, 4, 110, 165, 35, b_ext}};
    std::vector<std::unique_ptr<Dev<double>>> xs, exts;
    std::vector<SubtreeSolveItem> items;
    std::vector<std::vector<double>> want_x, want_c;
    for (const G& g : groups) {
      const int n = g.c1 - g.c0;
      xs.push_back(std::make_unique<Dev<double>>(std::vector<double>(std::size_t(n) * nrhs, kNaN)));
      exts.push_back(std::make_unique<Dev<double>>(std::vector<double>(std::size_t(g.next) * nrhs, kNaN)));
      items.push_back({dvalues.p + loc[g.first].value_offset, xs.back()->p, exts.back()->p, dext_rows.p + g.ext_offset,
                       g.first, g.last, g.c0, g.c1, g.next, 0});
      // The CPU group kernel on the same right-hand side.
      const SolveGroup cg{loc.data(), rows.data(), values.data() + loc[g.first].value_offset,
                          ext_rows.data() + g.ext_offset, g.first, g.last, g.c0, g.c1, g.next, 0};
      std::vector<double> x(std::size_t(n) * nrhs), c(std::size_t(g.next) * nrhs);
      for (int r = 0; r < nrhs; ++r)
        for (int i = 0; i < n; ++i) x[i + std::size_t(r) * n] = stage[g.c0 + i + std::size_t(r) * kN];
      std::vector<double> work(supernode_group_solve_work_doubles(cg, nrhs));
      supernode_group_forward_cpu(cg, x.data(), n, c.data(), g.next, nrhs, work.data());
      want_x.push_back(x);
      want_c.push_back(c);
    }
    const Dev<double> dstage(stage);
    supernode_subtrees_forward_cuda(nullptr, items.data(), 2, dloc.p, drows.p, dstage.p, kN, nrhs);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int k = 0; k < 2; ++k) {
      expect_close(xs[k]->get(), want_x[k], "forward x");
      expect_close(exts[k]->get(), want_c[k], "forward external block");
    }
    // Backward on group A: its external unknowns from the stage, its solution into the stage.
    const G& g = groups[0];
    const int n = g.c1 - g.c0;
    const SolveGroup cg{loc.data(), rows.data(), values.data(), ext_rows.data(), g.first, g.last, g.c0, g.c1, g.next, 0};
    std::vector<double> x = want_x[0], w(std::size_t(g.next) * nrhs);
    for (int r = 0; r < nrhs; ++r)
      for (int p = 0; p < g.next; ++p) w[p + std::size_t(r) * g.next] = stage[ext_rows[p] + std::size_t(r) * kN];
    std::vector<double> work(supernode_group_solve_work_doubles(cg, nrhs));
    supernode_group_backward_cpu(cg, x.data(), n, w.data(), g.next, nrhs, work.data());
    std::vector<double> want_stage = stage;
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < n; ++i) want_stage[g.c0 + i + std::size_t(r) * kN] = x[i + std::size_t(r) * n];
    supernode_subtrees_backward_cuda(nullptr, items.data(), 1, dloc.p, drows.p, dstage.p, kN, nrhs);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    expect_close(xs[0]->get(), x, "backward x");
    expect_close(dstage.get(), want_stage, "backward stage");
  }
}

}  // namespace
}  // namespace hetsparse::test
