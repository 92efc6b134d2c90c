#include "sptrsv/fingerprint.hpp"

#include <cstdio>
#include <vector>

namespace hetsparse::sptrsv {
namespace {

constexpr std::uint64_t kOffset = 1469598103934665603ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

void mix(std::uint64_t& h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * kPrime;
}

template <class T>
void mix_value(std::uint64_t& h, T v) {
  mix(h, &v, sizeof v);
}

}  // namespace

std::uint64_t pattern_fingerprint(const TriangularPattern& p) {
  std::uint64_t h = kOffset;
  mix_value<std::int32_t>(h, p.triangle() == Triangle::Upper ? 1 : 0);
  mix_value<std::int64_t>(h, p.rows());
  // Lengths first, so two arrays cannot trade entries across their boundary.
  mix_value<std::uint64_t>(h, p.rowptr().size());
  mix(h, p.rowptr().data(), p.rowptr().size() * sizeof(index_t));
  mix_value<std::uint64_t>(h, p.colind().size());
  mix(h, p.colind().data(), p.colind().size() * sizeof(index_t));
  return h;
}

std::string fingerprint_hex(std::uint64_t fp) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fp));
  return buf;
}

}  // namespace hetsparse::sptrsv
