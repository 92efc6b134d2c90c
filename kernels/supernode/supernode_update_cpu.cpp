// Supernodal updates on the CPU: one fused dgemm per descendant, then a scatter-subtract into the
// target through a merge of the two sorted row lists.
#include <algorithm>
#include <cstddef>
#include <string>

#include "kernels/common/blas.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_update_detail.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

// Rows whose target positions are held at once: a stack array instead of an index map on the heap.
constexpr int kScatterRows = 256;

// C = L_d[r0:, :] L_d[r0:r1, :]^T into work (m x k, ld m). The top k x k block is computed whole
// although only its lower triangle is used: one GEMM instead of SYRK + GEMM, as swCholesky fuses
// them, so L_d[r0:r1, :] is read once for both.
void product(const ConstPanelRef& d, UpdateRange r, double* work) {
  const int m = d.nrows - r.r0;
  const int k = r.r1 - r.r0;
  const double* top = d.values + r.r0;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, k, d.ncols, 1.0, top, d.nrows, top, d.nrows, 0.0, work,
              m);
}

// t[pos_t(rows[i]), rows[j] - t.first_col] -= C(i, j) for i >= j, where rows are d's rows from r0
// (checked to be in t). Rows are taken kScatterRows at a time: their positions come from one pass
// of the merge, then each column of C updates them, so C and t are both walked down columns.
void scatter_subtract(const double* C, int m, int k, const std::int32_t* rows, const PanelRef& t) {
  std::int32_t position[kScatterRows];
  const std::int64_t own_end = static_cast<std::int64_t>(t.first_col) + t.ncols;
  const std::int32_t* cursor = t.rows + t.ncols;
  const std::int32_t* const end = t.rows + t.nrows;
  for (int i0 = 0; i0 < m; i0 += kScatterRows) {
    const int i1 = std::min(m, i0 + kScatterRows);
    for (int i = i0; i < i1; ++i) {
      if (rows[i] < own_end) {
        position[i - i0] = rows[i] - t.first_col;  // own rows sit at their column's position
      } else {
        cursor = std::lower_bound(cursor, end, rows[i]);
        position[i - i0] = static_cast<std::int32_t>(cursor - t.rows);
      }
    }
    for (int j = 0; j < std::min(k, i1); ++j) {
      double* column = t.values + static_cast<std::size_t>(rows[j] - t.first_col) * t.nrows;
      const double* c = C + static_cast<std::size_t>(j) * m;
      for (int i = std::max(i0, j); i < i1; ++i) {
        column[position[i - i0]] -= c[i];
      }
    }
  }
}

void check_update(const char* routine, const ConstPanelRef& d, UpdateRange r, const ConstPanelRef& t,
                  const double* work) {
  check_update_shape(routine, d, r, t, work);
  check_panel_rows(routine, "descendant", d);
  check_update_rows(routine, d, r, t);
}

}  // namespace

void supernode_detail::apply_update(const ConstPanelRef& d, UpdateRange r, const PanelRef& t, double* work) {
  const int k = r.r1 - r.r0;
  if (k == 0) return;  // d has no row in t's columns: nothing to subtract
  const int m = d.nrows - r.r0;
  product(d, r, work);
  scatter_subtract(work, m, k, d.rows + r.r0, t);
}

void supernode_update_cpu(ConstPanelRef d, UpdateRange r, PanelRef t, double* work) {
  constexpr const char* routine = "supernode_update_cpu";
  const ConstPanelRef target = as_const(t);
  check_panel_shape(routine, "target", target, true);
  check_panel_rows(routine, "target", target);
  check_update(routine, d, r, target, work);
  apply_update(d, r, t, work);
}

void supernode_update_batch_cpu(const ConstPanelRef* ds, const UpdateRange* rs, int count, PanelRef t,
                                double* work) {
  constexpr const char* routine = "supernode_update_batch_cpu";
  if (count < 0) throw InvalidArgument(std::string(routine) + ": count = " + std::to_string(count) + " is negative");
  if (count == 0) return;
  if (ds == nullptr || rs == nullptr) throw InvalidArgument(std::string(routine) + ": no descendants or no ranges");
  const ConstPanelRef target = as_const(t);
  check_panel_shape(routine, "target", target, true);
  check_panel_rows(routine, "target", target);
  // Every update is checked before the first is applied, so a rejected batch leaves t untouched.
  for (int u = 0; u < count; ++u) {
    check_update(routine, ds[u], rs[u], target, work);
  }
  for (int u = 0; u < count; ++u) {
    apply_update(ds[u], rs[u], t, work);
  }
}

}  // namespace hetsparse::kernels
