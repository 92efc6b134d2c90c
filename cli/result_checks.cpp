#include "cli/result_checks.hpp"

#include <cmath>

#include "hetsparse/error.hpp"
#include "sparse/number_text.hpp"

namespace hetsparse::cli {
std::string short_number(double v) { return number_text(v, 3); }

double max_abs_value(const Csr& A) {
  double m = 0;
  for (double v : A.values) m = std::fmax(m, std::fabs(v));
  return m;
}

namespace {
double norm_inf(const std::vector<double>& v) {
  double m = 0;
  for (double e : v) m = std::fmax(m, std::fabs(e));
  return m;
}
}  // namespace

double triangular_backward_error(const Csr& T, bool upper, bool unit, const std::vector<double>& x,
                                 const std::vector<double>& b, const std::vector<double>& r) {
  double tnorm = 0;
  for (index_t i = 0; i < T.rows; ++i) {
    double row = unit ? 1.0 : 0.0;
    for (offset_t p = T.rowptr[i]; p < T.rowptr[i + 1]; ++p) {
      const index_t j = T.colind[p];
      if ((upper ? j >= i : j <= i) && !(unit && j == i)) row += std::fabs(T.values[p]);
    }
    tnorm = std::fmax(tnorm, row);
  }
  const double denominator = tnorm * norm_inf(x) + norm_inf(b);
  return denominator > 0 ? norm_inf(r) / denominator : norm_inf(r);
}

void require_finite(const std::vector<double>& v, const std::string& what, const std::string& why) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) throw NumericalFailure(what + "(" + std::to_string(i) + ") = " + short_number(v[i]) + ": " + why);
}

void require_at_most(double value, double limit, const std::string& what, const std::string& hint) {
  if (!(value <= limit))
    throw NumericalFailure(what + " = " + short_number(value) + ", above the " + short_number(limit) +
                           " a correct result stays under" + hint);
}

}  // namespace hetsparse::cli
