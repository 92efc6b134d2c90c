// Solve sweeps over one supernode on the CPU. The rows below the diagonal block are scattered over
// x, so their part goes through the contiguous work buffer: one BLAS call on the panel, then a loop
// that scatters (forward) or gathers (backward) by global row. Level-2 BLAS for one right-hand side.
#include <cstddef>

#include "kernels/common/blas.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_checks.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

void check_solve(const char* routine, const ConstPanelRef& p, const double* x, int nrhs, int ldx,
                 const double* work) {
  check_solve_shape(routine, p, x, nrhs, ldx, work);
  check_panel_rows(routine, "panel", p);
  check_solve_rows(routine, p, ldx);
}

// Element (i, r) of the below-rows block: x[rows[ncols + i] + r * ldx], work[i + r * below].
std::size_t x_index(const ConstPanelRef& p, int i, int r, int ldx) {
  return static_cast<std::size_t>(p.rows[p.ncols + i]) + static_cast<std::size_t>(r) * ldx;
}
std::size_t work_index(int below, int i, int r) {
  return static_cast<std::size_t>(i) + static_cast<std::size_t>(r) * below;
}

}  // namespace

void supernode_forward_cpu(ConstPanelRef p, double* x, int nrhs, int ldx, double* work) {
  check_solve("supernode_forward_cpu", p, x, nrhs, ldx, work);
  if (nrhs == 0) return;
  const int below = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  double* own = x + p.first_col;
  // x[own] = L11^-1 x[own]; work = L21 x[own]
  if (nrhs == 1) {
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, p.ncols, p.values, p.nrows, own, 1);
    if (below > 0) {
      cblas_dgemv(CblasColMajor, CblasNoTrans, below, p.ncols, 1.0, L21, p.nrows, own, 1, 0.0, work, 1);
    }
  } else {
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, p.ncols, nrhs, 1.0, p.values,
                p.nrows, own, ldx);
    if (below > 0) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, below, nrhs, p.ncols, 1.0, L21, p.nrows, own, ldx, 0.0,
                  work, below);
    }
  }
  for (int r = 0; r < nrhs; ++r) {
    for (int i = 0; i < below; ++i) {
      x[x_index(p, i, r, ldx)] -= work[work_index(below, i, r)];
    }
  }
}

void supernode_backward_cpu(ConstPanelRef p, double* x, int nrhs, int ldx, double* work) {
  check_solve("supernode_backward_cpu", p, x, nrhs, ldx, work);
  if (nrhs == 0) return;
  const int below = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  double* own = x + p.first_col;
  for (int r = 0; r < nrhs; ++r) {
    for (int i = 0; i < below; ++i) {
      work[work_index(below, i, r)] = x[x_index(p, i, r, ldx)];
    }
  }
  // x[own] -= L21^T work; x[own] = L11^-T x[own]
  if (nrhs == 1) {
    if (below > 0) {
      cblas_dgemv(CblasColMajor, CblasTrans, below, p.ncols, -1.0, L21, p.nrows, work, 1, 1.0, own, 1);
    }
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, p.ncols, p.values, p.nrows, own, 1);
  } else {
    if (below > 0) {
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, p.ncols, nrhs, below, -1.0, L21, p.nrows, work, below, 1.0,
                  own, ldx);
    }
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, p.ncols, nrhs, 1.0, p.values,
                p.nrows, own, ldx);
  }
}

}  // namespace hetsparse::kernels
