// The triangle `hetsparse sptrsv` solves and the checks of its result.
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cli {

Triangle parse_triangle(const std::string& s);  // lower or upper; UsageError else
// The requested triangle of A; an input that only has the other triangle (the anchor generators
// give lower triangles) is transposed first, so `--triangle upper` solves with L^T.
Csr requested_triangle(const Csr& A, Triangle tri);
// The smallest |T(i, i)| (0 when a diagonal entry is missing), for the overflow message.
double min_abs_diagonal(const Csr& T);
// The resident path's x against the host path's: the same scheme on the same b, so equal to rounding.
bool same_solution(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace hetsparse::cli
