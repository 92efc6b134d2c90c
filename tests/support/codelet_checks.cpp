#include "tests/support/codelet_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "codelets/gemm/gemm_codelet.hpp"
#include "codelets/potrf/potrf_codelet.hpp"
#include "codelets/syrk/syrk_codelet.hpp"
#include "codelets/trsm/trsm_codelet.hpp"
#include "codelets/vector/vector_codelet.hpp"
#include "planners/tiled_cholesky.hpp"
#include "reference/dense_reference.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "spmv/distributed_spmv.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> random_values(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

// max |a - b| / max |b|: normwise relative difference.
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i])) return std::numeric_limits<double>::infinity();
    num = std::max(num, std::abs(a[i] - b[i]));
    den = std::max(den, std::abs(b[i]));
  }
  return den > 0 ? num / den : num;
}

// Random SPD matrix: symmetric with entries in [-1, 1) and diagonal n, so diagonally dominant. O(n^2)
// to build, so large orders stay cheap.
std::vector<double> random_spd(std::mt19937_64& rng, int n) {
  std::vector<double> a = random_values(rng, std::size_t(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < j; ++i) a[i + std::size_t(j) * n] = a[j + std::size_t(i) * n];
    a[j + std::size_t(j) * n] = n;
  }
  return a;
}

}  // namespace

rt::RuntimeOptions test_runtime_options(const std::string& sched, int ncpu, int ncuda) {
  rt::RuntimeOptions o;
  o.scheduler = sched;
  o.ncpu = ncpu;
  o.ncuda = ncuda;
  o.perfmodel_dir = (std::filesystem::path(test::test_output_dir()) / "hetsparse-test-perfmodels").string();
  return o;
}

void check_spmv(rt::Runtime& r, rt::Where where, codelets::SpmvCudaImpl impl, int blocks, std::uint64_t seed) {
  // Power-law rows (R-MAT) and a banded matrix: ragged and regular row lengths.
  for (const Csr& A : {rmat_spd({11, 8, 0.57, 0.19, 0.19, 0.05, seed}), random_banded(3000, 40, 0.5, seed, false)}) {
    std::mt19937_64 rng(seed);
    std::vector<double> x = random_values(rng, A.cols), y0 = random_values(rng, A.rows), y = y0;
    std::vector<double> expect(A.rows);
    // Three products y = 0.5 A x + 2 y chained through the runtime.
    std::vector<double> e = y0;
    for (int it = 0; it < 3; ++it) {
      ref::spmv(A, x.data(), expect.data(), 0.5, 0.0);
      for (index_t i = 0; i < A.rows; ++i) e[i] = expect[i] + 2.0 * e[i];
    }
    DistributedSpmv s(r, A, x, y, {blocks, where, impl});
    for (int it = 0; it < 3; ++it) s.submit(0.5, 2.0);
    s.finish();
    EXPECT_LT(rel_diff(y, e), 1e-13) << "rows " << A.rows << " nnz " << A.nnz();

    // beta = 0 must not read y: poison it.
    std::fill(y.begin(), y.end(), kNaN);
    DistributedSpmv s0(r, A, x, y, {blocks, where, impl});
    s0.submit(1.0, 0.0);
    s0.finish();
    ref::spmv(A, x.data(), expect.data());
    EXPECT_LT(rel_diff(y, expect), 1e-13);
  }
}

void check_gemm_syrk_trsm(rt::Runtime& r, rt::Where where, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int m = 97, n = 45, k = 70, ld = 101;
  rt::TaskOptions o;
  o.where = where;
  // gemm C = 1.5 A^T B - 0.5 C with lda > rows.
  std::vector<double> A = random_values(rng, std::size_t(ld) * m), B = random_values(rng, std::size_t(ld) * n),
                      C = random_values(rng, std::size_t(ld) * n), Cref = C;
  ref::gemm('T', 'N', m, n, k, 1.5, A.data(), ld, B.data(), ld, -0.5, Cref.data(), ld);
  {
    rt::DataHandle hA = rt::make_matrix_handle(r, A.data(), ld, k, m), hB = rt::make_matrix_handle(r, B.data(), ld, k, n),
                   hC = rt::make_matrix_handle(r, C.data(), ld, m, n);
    codelets::insert_gemm(r, o, 'T', 'N', m, n, k, 1.5, hA.id(), hB.id(), -0.5, hC.id());
  }
  EXPECT_LT(rel_diff(C, Cref), 1e-14) << "gemm";

  // syrk on the lower triangle: C = -A A^T + C (n x k A).
  std::vector<double> S = random_values(rng, std::size_t(ld) * n), Sref = S;
  ref::syrk('L', 'N', n, k, -1.0, A.data(), ld, 1.0, Sref.data(), ld);
  {
    rt::DataHandle hA = rt::make_matrix_handle(r, A.data(), ld, n, k), hS = rt::make_matrix_handle(r, S.data(), ld, n, n);
    codelets::insert_syrk(r, o, 'L', 'N', n, k, -1.0, hA.id(), 1.0, hS.id());
  }
  EXPECT_LT(rel_diff(S, Sref), 1e-14) << "syrk";

  // trsm: X L^T = B with a well-conditioned lower L.
  std::vector<double> L = random_values(rng, std::size_t(ld) * n);
  for (int i = 0; i < n; ++i) L[i + std::size_t(i) * ld] = 4.0 + std::abs(L[i + std::size_t(i) * ld]);
  std::vector<double> X = random_values(rng, std::size_t(ld) * n), Xref = X;
  ref::trsm('R', 'L', 'T', 'N', m, n, 2.0, L.data(), ld, Xref.data(), ld);
  {
    rt::DataHandle hL = rt::make_matrix_handle(r, L.data(), ld, n, n), hX = rt::make_matrix_handle(r, X.data(), ld, m, n);
    codelets::insert_trsm(r, o, 'R', 'L', 'T', 'N', m, n, 2.0, hL.id(), hX.id());
  }
  EXPECT_LT(rel_diff(X, Xref), 1e-13) << "trsm";
}

void check_potrf(rt::Runtime& r, rt::Where where, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = 150;
  std::vector<double> A = random_spd(rng, n), Aref = A;
  ASSERT_EQ(ref::potrf('L', n, Aref.data(), n), 0);
  rt::TaskOptions o;
  o.where = where;
  std::vector<int> info{-1};
  {
    rt::DataHandle hA = rt::make_matrix_handle(r, A.data(), n, n, n);
    rt::DataHandle hI(r, r.register_vector({info.data(), 1, sizeof(int)}));
    codelets::insert_potrf(r, o, 'L', n, hA.id(), hI.id());
  }
  EXPECT_EQ(info[0], 0);
  double err = 0;  // compare the lower triangle only
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) err = std::max(err, std::abs(A[i + std::size_t(j) * n] - Aref[i + std::size_t(j) * n]));
  EXPECT_LT(err, 1e-12);

  // Indefinite at column 77 (0-based): LAPACK reports 78.
  std::vector<double> B = random_spd(rng, n);
  B[77 + std::size_t(77) * n] = -1e6;
  info[0] = -1;
  {
    rt::DataHandle hB = rt::make_matrix_handle(r, B.data(), n, n, n);
    rt::DataHandle hI(r, r.register_vector({info.data(), 1, sizeof(int)}));
    codelets::insert_potrf(r, o, 'L', n, hB.id(), hI.id());
  }
  EXPECT_EQ(info[0], 78);
}

void check_vector_ops(rt::Runtime& r, rt::Where where, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = 10007;
  std::vector<double> x = random_values(rng, n), y = random_values(rng, n), yref = y;
  ref::axpy(n, -0.75, x.data(), yref.data());
  const double dot_ref = ref::dot(n, x.data(), yref.data()), nrm_ref = ref::nrm2(n, x.data());
  std::vector<double> d{kNaN}, nrm{kNaN};
  rt::TaskOptions o;
  o.where = where;
  {
    rt::DataHandle hx = rt::make_vector_handle(r, x), hy = rt::make_vector_handle(r, y),
                   hd = rt::make_vector_handle(r, d), hn = rt::make_vector_handle(r, nrm);
    codelets::insert_axpy(r, o, n, -0.75, hx.id(), hy.id());
    codelets::insert_dot(r, o, n, hx.id(), hy.id(), hd.id());  // depends on the axpy through y
    codelets::insert_nrm2(r, o, n, hx.id(), hn.id());
  }
  EXPECT_LT(rel_diff(y, yref), 1e-15);
  EXPECT_NEAR(d[0], dot_ref, 1e-12 * n);
  EXPECT_NEAR(nrm[0], nrm_ref, 1e-13 * nrm_ref);
}

void check_tiled_cholesky(rt::Runtime& r, int n, int nb, int gpu_min_tile, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> A = random_spd(rng, n), Lref = A;
  ASSERT_EQ(ref::potrf('L', n, Lref.data(), n), 0);
  planners::TiledLayout lay{n, nb};
  const int T = lay.tiles();
  // Copy into tiles, factor through the runtime, compare tile by tile.
  std::vector<std::vector<std::vector<double>>> tiles(T, std::vector<std::vector<double>>(T));
  std::vector<std::vector<rt::DataHandle>> owned(T);
  std::vector<std::vector<rt::HandleId>> ids(T, std::vector<rt::HandleId>(T));
  std::vector<int> info(T, -1);
  std::vector<rt::DataHandle> info_h;
  for (int i = 0; i < T; ++i) {
    for (int j = 0; j <= i; ++j) {
      const int mi = lay.tile_size(i), nj = lay.tile_size(j);
      auto& t = tiles[i][j];
      t.resize(std::size_t(mi) * nj);
      for (int c = 0; c < nj; ++c)
        for (int rr = 0; rr < mi; ++rr) t[rr + std::size_t(c) * mi] = A[(i * nb + rr) + std::size_t(j * nb + c) * n];
      owned[i].push_back(rt::make_matrix_handle(r, t.data(), mi, mi, nj));
      ids[i][j] = owned[i].back().id();
    }
  }
  std::vector<rt::HandleId> info_ids;
  for (int k = 0; k < T; ++k) {
    info_h.emplace_back(r, r.register_vector({&info[k], 1, sizeof(int)}));
    info_ids.push_back(info_h.back().id());
  }
  planners::submit_tiled_cholesky(r, lay, ids, info_ids, {gpu_min_tile});
  owned.clear();
  info_h.clear();
  for (int k = 0; k < T; ++k) EXPECT_EQ(info[k], 0) << "tile " << k;
  double err = 0, scale = 0;
  for (int i = 0; i < T; ++i)
    for (int j = 0; j <= i; ++j) {
      const int mi = lay.tile_size(i), nj = lay.tile_size(j);
      for (int c = 0; c < nj; ++c)
        for (int rr = 0; rr < mi; ++rr) {
          if (i == j && rr < c) continue;  // upper part of diagonal tiles is not referenced
          const double ref_v = Lref[(i * nb + rr) + std::size_t(j * nb + c) * n];
          err = std::max(err, std::abs(tiles[i][j][rr + std::size_t(c) * mi] - ref_v));
          scale = std::max(scale, std::abs(ref_v));
        }
    }
  EXPECT_LT(err / scale, 1e-12);
}

}  // namespace hetsparse::test
