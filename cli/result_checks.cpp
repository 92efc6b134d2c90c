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
