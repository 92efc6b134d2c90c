#include "reference/ic0_reference.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "hetsparse/error.hpp"

namespace hetsparse::ref {

Csr ic0(const Csr& a) {
  if (a.rows != a.cols) throw InvalidArgument("ref::ic0: the matrix must be square");
  const std::size_t n = static_cast<std::size_t>(a.rows);
  std::vector<double> d(n * n, 0.0);
  std::vector<char> in(n * n, 0);
  auto at = [n](std::size_t i, std::size_t j) { return i * n + j; };
  for (std::size_t i = 0; i < n; ++i)
    for (offset_t t = a.rowptr[i]; t < a.rowptr[i + 1]; ++t) {
      const auto j = static_cast<std::size_t>(a.colind[t]);
      if (j > i) continue;
      d[at(i, j)] += a.values[t];
      in[at(i, j)] = 1;
    }
  for (std::size_t k = 0; k < n; ++k) {
    if (!in[at(k, k)]) throw StructureError(k, k, "ref::ic0: missing diagonal entry");
    if (!(d[at(k, k)] > 0.0)) throw NotPositiveDefinite(k, "ref::ic0: non-positive pivot");
    d[at(k, k)] = std::sqrt(d[at(k, k)]);
    for (std::size_t i = k + 1; i < n; ++i)
      if (in[at(i, k)]) d[at(i, k)] /= d[at(k, k)];
    for (std::size_t j = k + 1; j < n; ++j) {
      if (!in[at(j, k)]) continue;
      for (std::size_t i = j; i < n; ++i)
        if (in[at(i, k)] && in[at(i, j)]) d[at(i, j)] -= d[at(i, k)] * d[at(j, k)];
    }
  }
  Csr l;
  l.rows = l.cols = a.rows;
  l.rowptr.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= i; ++j)
      if (in[at(i, j)]) {
        l.colind.push_back(static_cast<index_t>(j));
        l.values.push_back(d[at(i, j)]);
      }
    l.rowptr[i + 1] = static_cast<offset_t>(l.colind.size());
  }
  return l;
}

}  // namespace hetsparse::ref
