#include "sptrsv/fingerprint.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace hetsparse::sptrsv {
namespace {

constexpr std::uint64_t kOffset = 1469598103934665603ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

// xxHash64's round: every bit of the word reaches every bit of the lane within a few rounds.
constexpr std::uint64_t kRound1 = 0x9E3779B185EBCA87ULL, kRound2 = 0xC2B2AE3D27D4EB4FULL;
std::uint64_t rotl(std::uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }
std::uint64_t round(std::uint64_t lane, std::uint64_t word) { return rotl(lane + word * kRound2, 31) * kRound1; }

// Whole 8-byte words through four independent lanes, the last bytes one by one: a pattern's arrays
// (100 MB for a 20M-entry triangle) hash at memory speed, not at one multiply per byte.
void mix(std::uint64_t& h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  if (bytes >= 32) {
    std::uint64_t lane[4] = {h + kRound1 + kRound2, h + kRound2, h, h - kRound1};
    for (; i + 32 <= bytes; i += 32) {
      for (int l = 0; l < 4; ++l) {
        std::uint64_t w;
        std::memcpy(&w, p + i + 8 * l, sizeof w);
        lane[l] = round(lane[l], w);
      }
    }
    h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18);
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * kPrime;
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
