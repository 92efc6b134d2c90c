// Checks of a command's numbers that turn an overflow or a wrong answer into a NumericalFailure
// naming the entry and the scale (an error line and exit status 1), never a bare "-nan WRONG".
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::cli {

// ||r||_inf / (||T||_inf ||x||_inf + ||b||_inf) with T the lower (or upper) triangle of `T` as solved,
// a unit diagonal counting 1 (its stored entries ignored): the normwise backward error of x, r = b - T x.
double triangular_backward_error(const Csr& T, bool upper, bool unit, const std::vector<double>& x,
                                 const std::vector<double>& b, const std::vector<double>& r);

// The largest |A(i, j)|, for messages.
double max_abs_value(const Csr& A);
// v with 3 significant digits ("1e+308", "-nan").
std::string short_number(double v);

// NumericalFailure when v holds an infinite or NaN entry: "<what>(i) = inf: <why>".
void require_finite(const std::vector<double>& v, const std::string& what, const std::string& why);

// NumericalFailure "<what> = <value>, above the <limit> a correct result stays under<hint>" unless
// value <= limit (a NaN fails too).
void require_at_most(double value, double limit, const std::string& what, const std::string& hint);

}  // namespace hetsparse::cli
