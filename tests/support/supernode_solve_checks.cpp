// Back-end independent checks of the supernodal solve's moves and permutations against host loops.
#include <algorithm>
#include <numeric>
#include <string>

#include "tests/support/supernode_checks.hpp"

namespace hetsparse::test {
namespace {

std::size_t at(int i, int r, int ld) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(r) * ld; }

std::vector<double> exact(std::size_t n) { return std::vector<double>(n, 0.0); }

}  // namespace

void check_solve_moves(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  for (const int nrhs : {1, 3}) {
    for (const bool gather : {true, false}) {
      SCOPED_TRACE(std::string(gather ? "gather" : "subtract") + ", nrhs " + std::to_string(nrhs));
      HostSolveMoves m;
      m.nrhs = nrhs;
      m.c0 = 1000;
      m.block_rows = 90;
      m.ldb = m.block_rows + 4;
      // 70 ranges of 0 to 12 positions (more than one CUDA launch's 32); subtract repeats rows across
      // ranges so several positions reach one unknown, gather keeps rows distinct within a range.
      int next = 0;
      for (int u = 0; u < 70; ++u) {
        const int length = static_cast<int>(uniform(rng, 0.0, 12.99));
        m.ranges.push_back({next, next + length});
        std::vector<std::int32_t> rows(m.block_rows);
        std::iota(rows.begin(), rows.end(), m.c0);
        std::shuffle(rows.begin(), rows.end(), rng);
        rows.resize(length);
        std::sort(rows.begin(), rows.end());
        m.rows.insert(m.rows.end(), rows.begin(), rows.end());
        next += length;
      }
      m.ldc = next + 3;
      m.rows.resize(m.ldc, m.c0);  // positions past the ranges: never moved
      m.compact = random_vector(rng, at(0, nrhs, m.ldc));
      m.block = random_vector(rng, at(0, nrhs, m.ldb));
      HostSolveMoves want = m;
      for (const auto& range : m.ranges)
        for (int p = range[0]; p < range[1]; ++p)
          for (int r = 0; r < nrhs; ++r) {
            const std::size_t unknown = at(m.rows[p] - m.c0, r, m.ldb);
            if (gather) {
              want.compact[at(p, r, m.ldc)] = m.block[unknown];
            } else {
              want.block[unknown] -= m.compact[at(p, r, m.ldc)];
            }
          }
      backend.solve_moves(m, gather);
      std::vector<double> bounds(want.block.size(), gather ? 0.0 : 1e-14);  // summation order may vary
      EXPECT_TRUE(within_bounds(m.compact, want.compact, exact(want.compact.size())));
      EXPECT_TRUE(within_bounds(m.block, want.block, bounds));
    }
  }
}

void check_solve_permutations(SupernodeBackend& backend, std::uint64_t seed) {
  Rng rng(seed);
  constexpr int kN = 777;
  std::vector<std::int32_t> perm(kN);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (const int nrhs : {1, 4}) {
    SCOPED_TRACE("nrhs " + std::to_string(nrhs));
    const int ldi = kN + 5, ldo = kN + 2;
    const std::vector<double> in = random_vector(rng, at(0, nrhs, ldi));
    for (const bool identity : {false, true}) {
      std::vector<double> out(at(0, nrhs, ldo), -7.25), want = out;
      for (int r = 0; r < nrhs; ++r)
        for (int i = 0; i < kN; ++i) want[at(i, r, ldo)] = in[at(identity ? i : perm[i], r, ldi)];
      backend.permute(in, ldi, identity ? std::vector<std::int32_t>{} : perm, kN, nrhs, out, ldo);
      EXPECT_TRUE(within_bounds(out, want, exact(want.size()))) << (identity ? "identity" : "permutation");
    }
    // Blocks of 0 to 40 columns covering [0, kN) except [300, 310), which keeps its values; more
    // blocks than one CUDA launch's 64.
    std::vector<std::vector<double>> xs;
    std::vector<std::array<int, 2>> cols;
    for (int c0 = 0; c0 < kN;) {
      const int c1 = std::min(kN, c0 + static_cast<int>(uniform(rng, 0.0, 20.99)));
      if (c0 >= 300 && c0 < 310) {
        c0 = 310;
        continue;
      }
      cols.push_back({c0, std::min(c1, c0 < 300 ? 300 : kN)});
      xs.push_back(random_vector(rng, at(0, nrhs, cols.back()[1] - c0)));
      c0 = cols.back()[1];
    }
    ASSERT_GT(cols.size(), 64U);
    for (const bool identity : {false, true}) {  // the caller's order, or the factor's (a stage)
      std::vector<double> out = random_vector(rng, at(0, nrhs, ldo)), want = out;
      for (std::size_t b = 0; b < xs.size(); ++b) {
        const int rows = cols[b][1] - cols[b][0];
        for (int r = 0; r < nrhs; ++r)
          for (int i = 0; i < rows; ++i)
            want[at(identity ? cols[b][0] + i : perm[cols[b][0] + i], r, ldo)] = xs[b][at(i, r, rows)];
      }
      backend.store(xs, cols, identity ? std::vector<std::int32_t>{} : perm, nrhs, out, ldo);
      EXPECT_TRUE(within_bounds(out, want, exact(want.size()))) << (identity ? "identity" : "permutation");
    }
  }
}

}  // namespace hetsparse::test
