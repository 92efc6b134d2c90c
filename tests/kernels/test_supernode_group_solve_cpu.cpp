// The CPU group solve (supernode_group_{forward,backward}_cpu) with the moves between groups, as the
// solve's task graph chains them: a dense 200 x 200 factor cut into 5 supernodes and 2 groups,
// solved for 1 and 3 right-hand sides and compared with dense triangular solves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "reference/dense_reference.hpp"
#include "tests/support/supernode_problems.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

constexpr int kN = 200;

std::size_t at(int i, int r, int ld) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(r) * ld; }

// L's supernodes (full structure: every row from the first column down), back to back.
struct Factor {
  std::vector<double> L;  // dense, column-major
  std::vector<PanelLocation> loc;
  std::vector<std::int32_t> rows;
  std::vector<double> values;
};

Factor dense_factor(Rng& rng, const std::vector<int>& bounds) {
  Factor f;
  f.L = random_spd_matrix(rng, kN);
  EXPECT_EQ(ref::potrf('L', kN, f.L.data(), kN), 0);
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
    const int first = bounds[s], ncols = bounds[s + 1] - first, nrows = kN - first;
    f.loc.push_back({static_cast<std::int64_t>(f.values.size()), static_cast<std::int64_t>(f.rows.size()), nrows,
                     ncols, first, 0});
    for (int i = first; i < kN; ++i) f.rows.push_back(i);
    for (int c = 0; c < ncols; ++c)
      for (int i = 0; i < nrows; ++i) f.values.push_back(i < c ? kNaN : f.L[at(first + i, first + c, kN)]);
  }
  return f;
}

// Group of supernodes [first, last) with columns [c0, c1) and external rows [c1, kN).
SolveGroup group(const Factor& f, int first, int last, const std::vector<std::int32_t>& ext) {
  const std::int32_t c0 = f.loc[first].first_col;
  const std::int32_t c1 = f.loc[last - 1].first_col + f.loc[last - 1].ncols;
  return {f.loc.data(), f.rows.data(), f.values.data() + f.loc[first].value_offset, ext.data(),
          first, last, c0, c1, static_cast<std::int32_t>(ext.size()), 0};
}

TEST(SupernodeGroupSolveCpu, TwoGroupsChainedByMovesMatchDenseSolves) {
  Rng rng(31);
  const Factor f = dense_factor(rng, {0, 30, 70, 110, 165, 200});
  std::vector<std::int32_t> ext_a(kN - 110), none;
  std::iota(ext_a.begin(), ext_a.end(), 110);
  const SolveGroup a = group(f, 0, 3, ext_a), b = group(f, 3, 5, none);
  for (const int nrhs : {1, 3}) {
    SCOPED_TRACE("nrhs " + std::to_string(nrhs));
    const std::vector<double> rhs = random_vector(rng, at(0, nrhs, kN));
    std::vector<double> solution = rhs;
    ref::trsm('L', 'L', 'N', 'N', kN, nrhs, 1.0, f.L.data(), kN, solution.data(), kN);
    ref::trsm('L', 'L', 'T', 'N', kN, nrhs, 1.0, f.L.data(), kN, solution.data(), kN);

    constexpr int kLda = 112, kLdb = 90, kLdc = 95;  // padded leading dimensions
    std::vector<double> xa(at(0, nrhs, kLda), kNaN), xb(at(0, nrhs, kLdb)), ca(at(0, nrhs, kLdc), kNaN);
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < kN; ++i) (i < 110 ? xa[at(i, r, kLda)] : xb[at(i - 110, r, kLdb)]) = rhs[at(i, r, kN)];
    std::vector<double> work(std::max(supernode_group_solve_work_doubles(a, nrhs),
                                      supernode_group_solve_work_doubles(b, nrhs)),
                             kNaN);
    const SolveMove move{ca.data(), ext_a.data(), xb.data(), 0, 90, kLdc, 110, kLdb, 90};
    supernode_group_forward_cpu(a, xa.data(), kLda, ca.data(), kLdc, nrhs, work.data());
    supernode_solve_subtract_cpu(&move, 1, nrhs);
    supernode_group_forward_cpu(b, xb.data(), kLdb, nullptr, 1, nrhs, work.data());
    supernode_group_backward_cpu(b, xb.data(), kLdb, nullptr, 1, nrhs, work.data());
    std::fill(ca.begin(), ca.end(), kNaN);  // the external block is reused for the solved unknowns
    supernode_solve_gather_cpu(&move, 1, nrhs);
    supernode_group_backward_cpu(a, xa.data(), kLda, ca.data(), kLdc, nrhs, work.data());

    const double factor = 8.0 * (kN + 2.0) * (kN + 2.0) * kEps;
    std::vector<double> got, want, bounds;
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < kN; ++i) {
        got.push_back(i < 110 ? xa[at(i, r, kLda)] : xb[at(i - 110, r, kLdb)]);
        want.push_back(solution[at(i, r, kN)]);
        bounds.push_back(factor * (1.0 + std::fabs(want.back())));
      }
    EXPECT_TRUE(within_bounds(got, want, bounds));
  }
}

TEST(SupernodeGroupSolveCpu, RejectsARowMissingFromTheExternalRows) {
  Rng rng(32);
  const Factor f = dense_factor(rng, {0, 30, 70, 110, 165, 200});
  std::vector<std::int32_t> ext(kN - 110);
  std::iota(ext.begin(), ext.end(), 110);
  ext.erase(ext.begin() + 17);
  const SolveGroup a = group(f, 0, 3, ext);
  std::vector<double> x(110, 1.0), c(ext.size()), work(supernode_group_solve_work_doubles(a, 1));
  EXPECT_THROW(supernode_group_forward_cpu(a, x.data(), 110, c.data(), static_cast<int>(c.size()), 1, work.data()),
               InvalidArgument);
  EXPECT_THROW(supernode_group_backward_cpu(a, x.data(), 109, c.data(), static_cast<int>(c.size()), 1, work.data()),
               InvalidArgument);  // ldx below the group's 110 columns
}

}  // namespace
}  // namespace hetsparse::test
