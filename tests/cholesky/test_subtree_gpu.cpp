// The level-batched GPU subtree factorization (kernels/supernode/supernode_subtree_gpu.hpp): its
// host schedule (runs everywhere) and its result against the serial reference supernode_subtree_cpu
// on the same assembled panels (skips without a GPU).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "cholesky/numeric/panel_storage.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "planners/supernodal_layout.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/analysis.hpp"

namespace hetsparse::test {
namespace {

struct Problem {
  Csr lower;
  cholesky::SymbolicFactor sym;
  std::vector<kernels::PanelLocation> loc;
  explicit Problem(const Csr& A) : lower(triangle(A, Triangle::Lower)), sym(cholesky::analyze(lower)),
                                   loc(planners::supernode_locations(sym)) {}
  std::vector<double> assembled() const {
    cholesky::PanelStorage L(sym);
    cholesky::assemble(lower, cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym), L);
    return {L.values.begin(), L.values.end()};
  }
};

TEST(SubtreeLevels, EveryUpdateOnceAndAfterItsSource) {
  for (const Csr& A : {laplacian_3d(12, 11, 10), laplacian_2d(60, 50), elasticity_3d(6, 6, 5)}) {
    const Problem p(A);
    const index_t ns = p.sym.num_supernodes();
    const auto plan = kernels::plan_subtree_levels(p.loc.data(), p.sym.rows.data(), p.sym.col_to_supernode.data(), 0, ns);
    ASSERT_EQ(plan.order.size(), std::size_t(ns));
    std::vector<int> level(ns, -1);
    for (int l = 0; l < plan.levels(); ++l)
      for (auto k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) level[plan.order[k]] = l;
    EXPECT_EQ(std::count(level.begin(), level.end(), -1), 0);
    std::multiset<std::pair<index_t, index_t>> want, seen;
    for (const auto& into : planners::updates_by_target(p.sym))
      for (const auto& u : into) want.insert({u.d, u.t});
    for (int l = 0; l < plan.levels(); ++l)
      for (auto k = plan.update_begin[l]; k < plan.update_begin[l + 1]; ++k) {
        const auto& u = plan.updates[k];
        seen.insert({u.d, u.t});
        EXPECT_EQ(level[u.d], l);
        EXPECT_GT(level[u.t], level[u.d]);  // the target is factored on a later level
        EXPECT_LT(u.r0, u.r1);
      }
    EXPECT_EQ(seen, want);
    EXPECT_GT(plan.levels(), 2);
  }
}

template <class F>
void check(F status, const char* what) {
  ASSERT_EQ(static_cast<int>(status), 0) << what;
}

// Factors [first, last) of p with the CPU reference and on the GPU; returns the largest difference
// relative to the largest entry. `negate`: a supernode and a column of it whose assembled pivot is
// made negative, so that both report a failure there: then the reports are compared up to the
// reference's stop, and 0 is returned.
struct Pivot {
  std::int32_t supernode = -1, column = 0;
};
double gpu_against_reference(const Problem& p, std::int32_t first, std::int32_t last, std::int32_t batched_max_cols = 64,
                             double fused_max_flops = 1e8, Pivot negate = {}) {
  std::vector<double> all = p.assembled();
  if (negate.supernode >= 0) {
    const auto& l = p.loc[negate.supernode];
    all[std::size_t(l.value_offset) + std::size_t(negate.column) * (l.nrows + 1)] = -1e6;
  }
  const std::int64_t begin = p.loc[first].value_offset;
  const std::int64_t end = p.loc[last - 1].value_offset + std::int64_t(p.loc[last - 1].nrows) * p.loc[last - 1].ncols;
  std::vector<double> ref(all.begin() + begin, all.begin() + end), gpu_out(ref.size());
  std::vector<int> info_ref(last - first, -7), info_gpu(last - first, -7);
  std::vector<double> work(kernels::supernode_subtree_work_doubles(p.loc.data(), first, last) + 1);
  const std::int32_t done = kernels::supernode_subtree_cpu(p.loc.data(), p.sym.rows.data(),
                                                          p.sym.col_to_supernode.data(), first, last, ref.data(),
                                                          info_ref.data(), work.data());
  EXPECT_EQ(done, negate.supernode >= 0 ? negate.supernode - first + 1 : last - first);
  cudaStream_t stream;
  cublasHandle_t blas;
  cusolverDnHandle_t solver;
  cudaStreamCreate(&stream);
  cublasCreate(&blas);
  cusolverDnCreate(&solver);
  auto plan = kernels::plan_subtree_levels(p.loc.data(), p.sym.rows.data(), p.sym.col_to_supernode.data(), first, last);
  plan.batched_max_cols = batched_max_cols;
  plan.fused_max_flops = fused_max_flops;
  const std::size_t bytes = kernels::supernode_subtree_cuda_work_bytes(solver, p.loc.data(), plan);
  double* values = nullptr;
  std::int32_t* rows = nullptr;
  void* dwork = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&values), ref.size() * sizeof(double));
  cudaMalloc(reinterpret_cast<void**>(&rows), p.sym.rows.size() * sizeof(std::int32_t));
  cudaMalloc(&dwork, std::max<std::size_t>(bytes, 8));
  cudaMemcpy(values, all.data() + begin, ref.size() * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(rows, p.sym.rows.data(), p.sym.rows.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice);
  kernels::supernode_subtree_cuda(blas, solver, stream, p.loc.data(), plan, first, last, rows, values, info_gpu.data(),
                                  dwork, bytes);
  cudaMemcpy(gpu_out.data(), values, ref.size() * sizeof(double), cudaMemcpyDeviceToHost);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(values);
  cudaFree(rows);
  cudaFree(dwork);
  cublasDestroy(blas);
  cusolverDnDestroy(solver);
  cudaStreamDestroy(stream);
  if (negate.supernode >= 0) {
    // The reference stops at the failure; the GPU goes on past it, its later reports unspecified
    // (the failing supernode's ancestors, all after it in postorder).
    for (std::int32_t s = first; s <= negate.supernode; ++s) EXPECT_EQ(info_gpu[s - first], info_ref[s - first]) << s;
    EXPECT_EQ(info_ref[negate.supernode - first], negate.column + 1);
    return 0;
  }
  EXPECT_EQ(info_gpu, info_ref);
  double diff = 0, scale = 0;
  // Compare the lower part of every panel only (the strict upper triangle is never written).
  for (std::int32_t s = first; s < last; ++s) {
    const auto& l = p.loc[s];
    for (std::int32_t c = 0; c < l.ncols; ++c)
      for (std::int32_t r = c; r < l.nrows; ++r) {
        const std::size_t at = std::size_t(l.value_offset - begin) + std::size_t(c) * l.nrows + r;
        diff = std::max(diff, std::abs(ref[at] - gpu_out[at]));
        scale = std::max(scale, std::abs(ref[at]));
      }
  }
  return diff / scale;
}

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

TEST(SubtreeGpu, WholeForestMatchesTheCpuReference) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  // 3D: large panels through cuSOLVER and large updates through cuBLAS; 2D: many small ones.
  for (const Csr& A : {laplacian_3d(16, 15, 14), laplacian_2d(120, 110), elasticity_3d(8, 7, 7)}) {
    const Problem p(A);
    const index_t ns = p.sym.num_supernodes();
    EXPECT_LE(gpu_against_reference(p, 0, ns), 1e-12) << A.rows;
    // Every panel and update through cuSOLVER / cuBLAS; then every one through the batched kernels.
    EXPECT_LE(gpu_against_reference(p, 0, ns, 0, 0.0), 1e-12) << A.rows;
    EXPECT_LE(gpu_against_reference(p, 0, ns, 1 << 20, 1e300), 1e-12) << A.rows;
  }
}

// Small forests, every panel and update through the batched kernels: the case compute-sanitizer's
// racecheck and memcheck run in minutes.
TEST(SubtreeGpu, SmallForestsThroughTheBatchedKernels) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  for (const Csr& A : {laplacian_3d(7, 6, 6), laplacian_2d(30, 28), elasticity_3d(4, 3, 3)}) {
    const Problem p(A);
    EXPECT_LE(gpu_against_reference(p, 0, p.sym.num_supernodes(), 1 << 20, 1e300), 1e-12) << A.rows;
  }
}

// A non-positive pivot deep in a wide panel (past its first block column) is reported at the same
// column as the reference, through the batched panel kernels and through cuSOLVER.
TEST(SubtreeGpu, FailedPivotReportedAtTheReferenceColumn) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const Problem p(laplacian_3d(16, 15, 14));
  std::int32_t wide = -1;
  for (index_t s = 0; s < p.sym.num_supernodes(); ++s)
    if (p.loc[s].ncols > 150) wide = s;
  ASSERT_GE(wide, 0);
  for (std::int32_t column : {3, 70, 140}) {
    gpu_against_reference(p, 0, p.sym.num_supernodes(), 1 << 20, 1e8, {wide, column});
    gpu_against_reference(p, 0, p.sym.num_supernodes(), 64, 1e8, {wide, column});
  }
}

TEST(SubtreeGpu, LeafSubtreeGroupsMatchTheCpuReference) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const Problem p(laplacian_3d(20, 19, 18));
  const auto layout = planners::plan_factor_layout(p.sym, 5e6);
  int tested = 0;
  for (index_t g = 0; g < layout.num_groups() && tested < 8; ++g) {
    if (!layout.subtree[g]) continue;
    EXPECT_LE(gpu_against_reference(p, layout.group_begin[g], layout.group_begin[g + 1]), 1e-12) << g;
    ++tested;
  }
  EXPECT_GT(tested, 0);
}

}  // namespace
}  // namespace hetsparse::test
