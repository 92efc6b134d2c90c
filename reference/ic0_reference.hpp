// Serial reference IC(0): the textbook right-looking (k, i, j) loop on a dense copy, every update
// restricted to the pattern of tril(A). In exact arithmetic it gives the same factor as the
// row-oriented kernels (the IKJ and KIJ orders of a zero-fill factorization agree), by another
// order of operations; O(n^3), for test sizes only.
#pragma once
#include "sparse/csr.hpp"

namespace hetsparse::ref {

// L with the pattern of tril(a) (sorted rows; explicit zeros of a kept as entries). Throws
// NotPositiveDefinite naming the first column whose pivot is not positive, InvalidArgument for a
// non-square a and StructureError for a missing diagonal entry.
Csr ic0(const Csr& a);

}  // namespace hetsparse::ref
