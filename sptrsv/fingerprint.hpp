// Identity of an analysed sparsity pattern for the scheme cache: a 64-bit FNV-1a hash of the
// triangle, n, the normalised rowptr and colind (values excluded: new values keep the best scheme).
#pragma once
#include <cstdint>
#include <string>

#include "sptrsv/analysis.hpp"

namespace hetsparse::sptrsv {

std::uint64_t pattern_fingerprint(const TriangularPattern& p);
// 16 lowercase hex digits.
std::string fingerprint_hex(std::uint64_t fp);

}  // namespace hetsparse::sptrsv
