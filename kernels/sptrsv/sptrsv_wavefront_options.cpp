// The wavefront scheme string and pack width (see sptrsv_wavefront.hpp): host code, in CPU builds too.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_wavefront.hpp"
#include "sparse/key_values.hpp"

namespace hetsparse::kernels {
namespace {

constexpr const char* kName = "wavefront";

int whole_number(const KeyValue& item, int low, int high) {
  char* end = nullptr;
  const long value = std::strtol(item.value.c_str(), &end, 10);
  if (item.value.empty() || *end != '\0' || value < low || value > high) {
    throw InvalidArgument(std::string(kName) + ": '" + item.key + "' must be a whole number in " + std::to_string(low) +
                          ".." + std::to_string(high) + ", got '" + item.value + "'");
  }
  return static_cast<int>(value);
}

}  // namespace

bool is_wavefront_scheme(const std::string& scheme) {
  return scheme == kName || scheme.rfind(std::string(kName) + ":", 0) == 0;
}

WavefrontOptions parse_wavefront_scheme(const std::string& scheme) {
  if (!is_wavefront_scheme(scheme)) throw InvalidArgument("not a wavefront scheme: '" + scheme + "'");
  WavefrontOptions o;
  const std::size_t prefix = std::string(kName).size();
  if (scheme.size() == prefix) return o;
  if (scheme.size() == prefix + 1) throw InvalidArgument("wavefront: no key=value after ':' in '" + scheme + "'");
  for (const KeyValue& item : split_key_values(scheme.substr(prefix + 1), kName)) {
    if (item.key == "blocks") {
      o.blocks_per_sm = whole_number(item, 0, WavefrontOptions::kMaxBlocksPerSm);
    } else if (item.key == "sleep") {
      o.sleep_ns = whole_number(item, 0, 1000);
    } else if (item.key == "warp") {
      o.warp_row = whole_number(item, 0, WavefrontOptions::kMaxWarpRow);
    } else {
      throw InvalidArgument(std::string(kName) + ": unknown key '" + item.key + "' (known: blocks, sleep, warp)");
    }
  }
  return o;
}

std::string to_string(const WavefrontOptions& o) {
  const WavefrontOptions d;
  std::string out = kName;
  char sep = ':';
  auto add = [&](const char* key, int value, int fallback) {
    if (value == fallback) return;
    out += sep + std::string(key) + "=" + std::to_string(value);
    sep = ',';
  };
  add("blocks", o.blocks_per_sm, d.blocks_per_sm);
  add("sleep", o.sleep_ns, d.sleep_ns);
  add("warp", o.warp_row, d.warp_row);
  return out;
}

int wavefront_blocks_per_sm(const WavefrontOptions& options, index_t fullest_level, int fit, int sms) {
  constexpr std::int64_t kBlockThreads = 256;  // the kernel's
  int wanted = options.blocks_per_sm;
  if (wanted == 0) {
    const std::int64_t rows = std::int64_t{WavefrontOptions::kLevelsInFlight} * fullest_level;
    const std::int64_t per_block = kBlockThreads * std::max(sms, 1);
    wanted = static_cast<int>(std::min<std::int64_t>((rows + per_block - 1) / per_block, WavefrontOptions::kMaxBlocksPerSm));
  }
  return std::max(1, std::min(wanted, fit));
}

int wavefront_warp_row(const WavefrontOptions& options, index_t n, index_t levels) {
  if (options.warp_row != WavefrontOptions::kWarpRowByProfile) return options.warp_row;
  const bool wide = levels > 0 && n / levels >= WavefrontOptions::kWideLevelRows;
  return wide ? WavefrontOptions::kWideWarpRow : WavefrontOptions::kNarrowWarpRow;
}

index_t wavefront_slotted_longest(index_t longest, const WavefrontOptions& options) {
  const index_t threads = options.warp_row > 0 ? std::min<index_t>(longest, options.warp_row) : longest;
  return std::min<index_t>(threads, WavefrontOptions::kMaxWidth);
}

int wavefront_width(index_t longest) {
  if (longest < 0 || longest > WavefrontOptions::kMaxWidth) {
    throw InvalidArgument("wavefront: rows of " + std::to_string(longest) + " off-diagonals; the pack holds at most " +
                          std::to_string(WavefrontOptions::kMaxWidth));
  }
  for (const int width : {2, 3, 4, 6, 8, 12}) {
    if (longest <= width) return width;
  }
  return WavefrontOptions::kMaxWidth;
}

}  // namespace hetsparse::kernels
