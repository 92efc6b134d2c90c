// The powered form (sptrsv/powered_triangle.hpp) on the host: its right-hand-side passes plus a
// serial solve with I - M^K must reproduce ref::sptrsv on every test triangle, lower and upper,
// unit or not, for K = 2..16; its level count must obey the ceil(L / K) bound; the sparse product
// must match a dense one; and the transforms it cannot do well are refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/powered_triangle.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

std::vector<double> powered_solve(const sptrsv::PoweredTriangle& p, const std::vector<double>& b) {
  std::vector<double> d(b.size(), std::nan("")), scratch, x(b.size(), std::nan(""));
  p.rhs_cpu(b.data(), d.data(), scratch);
  const auto n = static_cast<index_t>(b.size());
  kernels::sptrsv_cpu(p.pattern().host_view(), d.data(), n, x.data(), n, 1);
  return x;
}

TEST(PoweredTriangle, MatchesTheReferenceOnEveryTriangle) {
  int solved = 0;
  for (const std::string& name : sptrsv_matrix_names()) {
    for (const SolveCase& c : solve_cases()) {
      const Csr input = solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 3);
      const sptrsv::TriangularPattern t(input, c.tri, c.unit_diagonal);
      const std::vector<double> b = random_values(static_cast<std::size_t>(input.rows), 17);
      std::vector<double> expected(b.size());
      ref::sptrsv(input, c.tri, c.unit_diagonal, b.data(), expected.data());
      for (const int power : {2, 4, 8, 16}) {
        SCOPED_TRACE(name + " " + c.label() + " pow" + std::to_string(power));
        try {
          const sptrsv::PoweredTriangle p(t.host_view(), power);
          EXPECT_TRUE(p.pattern().unit_diagonal());
          EXPECT_EQ(p.pattern().triangle(), c.tri);
          EXPECT_EQ(p.factors().size(), static_cast<std::size_t>(std::log2(power)));
          EXPECT_LE(p.growth(), 100.0);
          // Each entry of M^K is a K-step path, each step at least one level down.
          EXPECT_LE(p.pattern().num_levels(), (t.num_levels() + power - 1) / power);
          EXPECT_TRUE(close_to(powered_solve(p, b).data(), expected));
          ++solved;
        } catch (const InvalidArgument& e) {
          // Only the two refusals, and only where M's powers fill in (hub or wide rows).
          const std::string what = e.what();
          EXPECT_TRUE(what.find("too large") != std::string::npos || what.find("amplify") != std::string::npos) << what;
          EXPECT_NE(name, "chain_5000") << what;
          EXPECT_NE(name, "anchor_laplacian_2d_60") << what;
        }
      }
    }
  }
  EXPECT_GE(solved, 4 * 4 * 4);  // at least the chain, the Laplacian, diagonal and narrow band
}

TEST(PoweredTriangle, ChainLevelsShrinkByThePower) {
  const Csr& chain = sptrsv_matrix("chain_5000");
  const sptrsv::TriangularPattern t(chain, Triangle::Lower, false);
  ASSERT_EQ(t.num_levels(), 5000);
  for (const int power : {2, 4, 8, 16}) {
    const sptrsv::PoweredTriangle p(t.host_view(), power);
    EXPECT_EQ(p.pattern().num_levels(), (5000 + power - 1) / power) << power;
    EXPECT_EQ(p.pattern().nnz(), 2 * 5000 - power) << power;  // one K-step dependency per row
  }
}

TEST(PoweredTriangle, ProductMatchesDense) {
  const index_t n = 100;
  const std::vector<double> r = random_values(static_cast<std::size_t>(n * n), 5);
  sptrsv::StrictRows a;
  std::vector<double> dense(static_cast<std::size_t>(n * n), 0.0);
  a.rowptr.push_back(0);
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < i; ++j) {
      const double v = r[static_cast<std::size_t>(i * n + j)];
      if (std::fabs(v) < 0.8) continue;  // about 20 % dense
      a.colind.push_back(j);
      a.values.push_back(v);
      dense[static_cast<std::size_t>(i * n + j)] = v;
    }
    a.rowptr.push_back(static_cast<index_t>(a.colind.size()));
  }
  const sptrsv::StrictRows c = sptrsv::detail::multiply_strict(a, a, 1 << 20);
  std::vector<double> got(dense.size(), 0.0);
  for (index_t i = 0; i < n; ++i) {
    for (index_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p) {
      if (p > c.rowptr[i]) {
        EXPECT_LT(c.colind[p - 1], c.colind[p]) << "row " << i << " unsorted or duplicated";
      }
      got[static_cast<std::size_t>(i * n + c.colind[p])] = c.values[p];
    }
  }
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      double want = 0;
      for (index_t k = 0; k < n; ++k) want += dense[static_cast<std::size_t>(i * n + k)] * dense[static_cast<std::size_t>(k * n + j)];
      EXPECT_NEAR(got[static_cast<std::size_t>(i * n + j)], want, 1e-12) << i << "," << j;
    }
  EXPECT_THROW(sptrsv::detail::multiply_strict(a, a, 10), InvalidArgument);
}

TEST(PoweredTriangle, RefusalsNameThePower) {
  const sptrsv::TriangularPattern rmat(sptrsv_matrix("anchor_rmat_12_8"), Triangle::Lower, false);
  const auto message = [&](const kernels::TriangularView& t, int power) -> std::string {
    try {
      sptrsv::PoweredTriangle p(t, power);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(message(rmat.host_view(), 3).find("must be 2, 4, 8 or 16"), std::string::npos);
  EXPECT_NE(message(rmat.host_view(), 2).find("pow2: M^2 too large"), std::string::npos) << message(rmat.host_view(), 2);
  // A chain whose off-diagonals are twice its diagonal: M's row sums are 2, M^2's 4.
  Csr steep;
  steep.rows = steep.cols = 50;
  steep.rowptr.push_back(0);
  for (index_t i = 0; i < 50; ++i) {
    if (i > 0) {
      steep.colind.push_back(i - 1);
      steep.values.push_back(-200.0);
    }
    steep.colind.push_back(i);
    steep.values.push_back(1.0 + i);
    steep.rowptr.push_back(static_cast<offset_t>(steep.colind.size()));
  }
  const sptrsv::TriangularPattern s(steep, Triangle::Lower, false);
  EXPECT_NE(message(s.host_view(), 4).find("amplify rounding"), std::string::npos) << message(s.host_view(), 4);
}

TEST(PoweredTriangle, SchemeNamesParse) {
  const auto p = sptrsv::parse_powered_scheme("pow4:cusparse");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->power, 4);
  EXPECT_EQ(p->base, "cusparse");
  EXPECT_EQ(sptrsv::parse_powered_scheme("pow16:ag:ng=4")->base, "ag:ng=4");
  EXPECT_EQ(sptrsv::parse_powered_scheme("pow:syncfree")->power, -1);
  EXPECT_EQ(sptrsv::parse_powered_scheme("pow4")->base, "");
  EXPECT_EQ(sptrsv::parse_powered_scheme("pow4x:a")->power, -1);
  EXPECT_FALSE(sptrsv::parse_powered_scheme("cusparse").has_value());
}

}  // namespace
}  // namespace hetsparse::test
