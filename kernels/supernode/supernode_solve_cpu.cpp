// Supernodal solve kernels on the CPU: one panel against its own unknowns and its compact block of
// rows below (OpenBLAS, level 2 for one right-hand side), the moves between compact blocks and
// blocks of unknowns, and the permutations in and out of the factor's order.
#include <cstddef>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/blas.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

std::size_t at(std::int64_t i, std::int64_t r, std::int64_t ld) { return static_cast<std::size_t>(i + r * ld); }

// The block row of global row `row`, checked: a move outside its block is a planner error.
std::int64_t block_row(const char* routine, const SolveMove& m, std::int32_t row) {
  const std::int64_t i = std::int64_t{row} - m.c0;
  if (i < 0 || i >= m.block_rows)
    throw InvalidArgument(std::string(routine) + ": row " + std::to_string(row) + " is outside the block [" +
                          std::to_string(m.c0) + ", " + std::to_string(std::int64_t{m.c0} + m.block_rows) + ")");
  return i;
}

template <bool kGather>
void move(const char* routine, const SolveMove* moves, int count, int nrhs) {
  check_solve_moves(routine, moves, count, nrhs);
  for (int u = 0; u < count; ++u) {
    const SolveMove& m = moves[u];
    for (std::int32_t p = m.p0; p < m.p1; ++p) {
      const std::int64_t i = block_row(routine, m, m.rows[p]);
      for (int r = 0; r < nrhs; ++r) {
        if constexpr (kGather) {
          m.compact[at(p, r, m.ldc)] = m.block[at(i, r, m.ldb)];
        } else {
          m.block[at(i, r, m.ldb)] -= m.compact[at(p, r, m.ldc)];
        }
      }
    }
  }
}

}  // namespace

void supernode_panel_forward_cpu(ConstPanelRef p, double* x, int ldx, double* below, int ldb, int nrhs) {
  check_panel_solve("supernode_panel_forward_cpu", p, x, ldx, below, ldb, nrhs);
  if (nrhs == 0) return;
  const int m = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  if (nrhs == 1) {
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, p.ncols, p.values, p.nrows, x, 1);
    if (m > 0) cblas_dgemv(CblasColMajor, CblasNoTrans, m, p.ncols, 1.0, L21, p.nrows, x, 1, 0.0, below, 1);
    return;
  }
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, p.ncols, nrhs, 1.0, p.values, p.nrows,
              x, ldx);
  if (m > 0)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nrhs, p.ncols, 1.0, L21, p.nrows, x, ldx, 0.0, below,
                ldb);
}

void supernode_panel_backward_cpu(ConstPanelRef p, double* x, int ldx, const double* below, int ldb, int nrhs) {
  check_panel_solve("supernode_panel_backward_cpu", p, x, ldx, below, ldb, nrhs);
  if (nrhs == 0) return;
  const int m = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  if (nrhs == 1) {
    if (m > 0) cblas_dgemv(CblasColMajor, CblasTrans, m, p.ncols, -1.0, L21, p.nrows, below, 1, 1.0, x, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, p.ncols, p.values, p.nrows, x, 1);
    return;
  }
  if (m > 0)
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, p.ncols, nrhs, m, -1.0, L21, p.nrows, below, ldb, 1.0, x, ldx);
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, p.ncols, nrhs, 1.0, p.values, p.nrows,
              x, ldx);
}

void supernode_solve_gather_cpu(const SolveMove* moves, int count, int nrhs) {
  move<true>("supernode_solve_gather_cpu", moves, count, nrhs);
}
void supernode_solve_subtract_cpu(const SolveMove* moves, int count, int nrhs) {
  move<false>("supernode_solve_subtract_cpu", moves, count, nrhs);
}

void supernode_solve_permute_cpu(const double* in, int ldi, const std::int32_t* perm, int n, int nrhs, double* out,
                                 int ldo) {
  if (n < 0 || nrhs < 0 || ldo < n || (n > 0 && nrhs > 0 && (in == nullptr || out == nullptr)))
    throw InvalidArgument("supernode_solve_permute_cpu: n = " + std::to_string(n) + ", nrhs = " +
                          std::to_string(nrhs) + ", ldo = " + std::to_string(ldo) + " or a null pointer");
  for (int r = 0; r < nrhs; ++r)
    for (int i = 0; i < n; ++i) out[at(i, r, ldo)] = in[at(perm ? perm[i] : i, r, ldi)];
}

void supernode_solve_store_cpu(const SolveBlock* blocks, int count, const std::int32_t* perm, int nrhs, double* out,
                               int ldo) {
  if (count < 0 || nrhs < 0 || (count > 0 && (blocks == nullptr || out == nullptr)))
    throw InvalidArgument("supernode_solve_store_cpu: count = " + std::to_string(count) + ", nrhs = " +
                          std::to_string(nrhs) + " or a null pointer");
  for (int u = 0; u < count; ++u) {
    const SolveBlock& b = blocks[u];
    const int rows = b.c1 - b.c0, ld = b.ld > 0 ? b.ld : rows;
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < rows; ++i) out[at(perm ? perm[b.c0 + i] : b.c0 + i, r, ldo)] = b.x[at(i, r, ld)];
  }
}

}  // namespace hetsparse::kernels
