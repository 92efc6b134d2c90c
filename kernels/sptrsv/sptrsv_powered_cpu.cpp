// Host pass of the powered right-hand side (see sptrsv_powered.hpp): the serial reference.
#include "kernels/sptrsv/sptrsv_powered.hpp"

namespace hetsparse::kernels {

void powered_rhs_step_cpu(const PowerFactorView& a, const double* scale, const double* in, double* out) {
  const auto scaled = [&](index_t j) { return scale != nullptr ? scale[j] * in[j] : in[j]; };
  for (index_t i = 0; i < a.n; ++i) {
    double sum = 0.0;
    for (index_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) sum += a.values[p] * scaled(a.colind[p]);
    out[i] = scaled(i) + sum;
  }
}

}  // namespace hetsparse::kernels
