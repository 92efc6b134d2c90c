// Reading the factor's values on the host: log det(A) and L as a sparse matrix, with every panel
// group's up-to-date copy brought into L's host storage for the duration.
#include <cmath>

#include "cholesky/cholesky_solver.hpp"
#include "cholesky/numeric/panel_storage.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::cholesky {

template <class Fn>
void CholeskySolver::with_host_panels(Fn&& fn) const {
  const auto held = host_panels(rt::Access::Read, false);
  fn();
}

double CholeskySolver::logdet() const {
  require_factor("logdet()");
  double s = 0;
  with_host_panels([&] {
    for (index_t k = 0; k < sym_->num_supernodes(); ++k) {
      const Supernode& sn = sym_->supernodes[k];
      const double* p = L_->panel(k);
      for (index_t j = 0; j < sn.ncols; ++j) s += std::log(p[j + offset_t(j) * sn.nrows]);
    }
  });
  return 2.0 * s;
}

Csr CholeskySolver::factor_L() const {
  require_factor("factor_L()");
  const SymbolicFactor& sym = *sym_;
  Coo coo;
  coo.rows = coo.cols = sym.n;
  with_host_panels([&] {
  for (index_t k = 0; k < sym.num_supernodes(); ++k) {
    const Supernode& sn = sym.supernodes[k];
    const double* p = L_->panel(k);
    for (index_t j = 0; j < sn.ncols; ++j)
      for (offset_t r = j; r < sn.nrows; ++r) {
        coo.row.push_back(sym.rows[sn.row_begin + r]);
        coo.col.push_back(sn.first_col + j);
        coo.val.push_back(p[r + offset_t(j) * sn.nrows]);
      }
  }
  });
  return to_csr(coo);
}

}  // namespace hetsparse::cholesky
