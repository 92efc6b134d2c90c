// Panel factorization on the CPU: potrf of the diagonal block (potrf_cpu, which also reports NaN
// pivots that OpenBLAS lets through), then a dtrsm for the rows below; narrow panels by plain loops.
#include <cstddef>

#include "kernels/common/blas.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_narrow_cpu.hpp"

namespace hetsparse::kernels {
namespace {

// Panels this narrow are factored by plain loops: LAPACK's and CBLAS's call overheads exceed their
// arithmetic (a diagonal matrix is ~15,000 one-column panels).
constexpr int kNarrowCols = 8;

}  // namespace

int supernode_factor_cpu(PanelRef p) {
  supernode_detail::check_panel_shape("supernode_factor_cpu", "panel", as_const(p), false);
  if (p.ncols <= kNarrowCols) return supernode_detail::factor_narrow(p.values, p.nrows, p.ncols);
  const int info = potrf_cpu('L', p.ncols, p.values, p.nrows);
  if (info != 0) {
    return info;  // L11 is not there to solve with; the rows below stay as they were
  }
  const int below = p.nrows - p.ncols;
  if (below > 0) {
    // L21 = A21 L11^-T
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, below, p.ncols, 1.0, p.values,
                p.nrows, p.values + p.ncols, p.nrows);
  }
  return 0;
}

}  // namespace hetsparse::kernels
