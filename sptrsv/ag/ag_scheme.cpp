// AG-SpTRSV schemes: checking, naming ("ag:key=val,...") and the pruned search space of 4.5.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sptrsv/ag/ag_scheme.hpp"
#include "hetsparse/error.hpp"
#include "sparse/key_values.hpp"

namespace hetsparse::sptrsv::ag {

using kernels::AgRowGrouping;
using kernels::AgTransform;
using kernels::AgWarpSchedule;
using kernels::kAgAlphaInfinity;
using kernels::kAgSwInfinity;
namespace {

const char* const kTransforms[] = {"fixed", "avg", "thresh"};
const char* const kGroupings[] = {"seq", "balance"};
const char* const kSchedules[] = {"rr", "balance", "locality"};

[[noreturn]] void bad(const std::string& what) { throw InvalidArgument("AgScheme: " + what); }

std::string count_text(index_t v) { return v == kAgSwInfinity ? "inf" : std::to_string(v); }

std::string alpha_text(double a) {
  if (std::isinf(a)) return "inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", a);
  return text;
}

std::int64_t parse_int(const std::string& key, const std::string& value, bool allow_inf) {
  if (allow_inf && value == "inf") return kAgSwInfinity;
  char* end = nullptr;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < 0 || v > kAgSwInfinity) bad("bad value '" + value + "' for key " + key);
  return v;
}

bool parse_bool(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  bad("bad value '" + value + "' for key " + key + " (0 or 1)");
}

template <std::size_t N>
int parse_enum(const std::string& key, const std::string& value, const char* const (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (value == names[i]) return static_cast<int>(i);
  }
  bad("bad value '" + value + "' for key " + key);
}

}  // namespace

void validate(const AgScheme& s) {
  if (s.subwarps < 1 || s.subwarps > 32 || (s.subwarps & (s.subwarps - 1)) != 0) {
    bad("ng (subwarps) must be a power of two in 1..32, not " + std::to_string(s.subwarps));
  }
  if (s.sw_rnnz < 0) bad("sw (sw_rnnz) must be >= 0");
  if (s.resident_warps < 1 || s.resident_warps > 32) bad("nw (resident_warps) must be in 1..32");
  if (s.rb < 1 || s.rb > (1 << 20)) bad("rb must be in 1..2^20");
  if (s.thresh < 0) bad("th (thresh) must be >= 0");
  if (!(s.alpha_level >= 0.0)) bad("al (alpha_level) must be >= 0");
  if (static_cast<unsigned>(s.transform) > 2 || static_cast<unsigned>(s.rg) > 1 || static_cast<unsigned>(s.ws) > 2) {
    bad("unknown strategy value");
  }
}

std::string to_string(const AgScheme& s) {
  return "ag:ng=" + std::to_string(s.subwarps) + ",sw=" + count_text(s.sw_rnnz) +
         ",sr=" + (s.shared_read ? "1" : "0") + ",se=" + (s.sync_elimination ? "1" : "0") +
         ",nw=" + std::to_string(s.resident_warps) + ",tf=" + kTransforms[static_cast<int>(s.transform)] +
         ",rb=" + std::to_string(s.rb) + ",th=" + std::to_string(s.thresh) + ",lr=" + (s.level_reorder ? "1" : "0") +
         ",rg=" + kGroupings[static_cast<int>(s.rg)] + ",ws=" + kSchedules[static_cast<int>(s.ws)] +
         ",al=" + alpha_text(s.alpha_level);
}

AgScheme parse_ag_scheme(const std::string& name) {
  AgScheme s;
  if (name == "ag") return s;
  if (name.rfind("ag:", 0) != 0) bad("scheme name '" + name + "' does not start with 'ag:'");
  for (const KeyValue& item : split_key_values(name.substr(3), "AgScheme")) {
    const std::string& key = item.key;
    const std::string& value = item.value;
    if (key == "ng") {
      const std::int64_t v = parse_int(key, value, false);
      s.subwarps = v > 64 ? 0 : static_cast<int>(v);  // out of range: validate() names it
    } else if (key == "sw") {
      s.sw_rnnz = static_cast<index_t>(parse_int(key, value, true));
    } else if (key == "sr") {
      s.shared_read = parse_bool(key, value);
    } else if (key == "se") {
      s.sync_elimination = parse_bool(key, value);
    } else if (key == "nw") {
      const std::int64_t v = parse_int(key, value, false);
      s.resident_warps = v > 64 ? 0 : static_cast<int>(v);
    } else if (key == "tf") {
      s.transform = static_cast<AgTransform>(parse_enum(key, value, kTransforms));
    } else if (key == "rb") {
      s.rb = static_cast<index_t>(parse_int(key, value, false));
    } else if (key == "th") {
      s.thresh = static_cast<index_t>(parse_int(key, value, false));
    } else if (key == "lr") {
      s.level_reorder = parse_bool(key, value);
    } else if (key == "rg") {
      s.rg = static_cast<AgRowGrouping>(parse_enum(key, value, kGroupings));
    } else if (key == "ws") {
      s.ws = static_cast<AgWarpSchedule>(parse_enum(key, value, kSchedules));
    } else if (key == "al") {
      char* end = nullptr;
      s.alpha_level = value == "inf" ? kAgAlphaInfinity : std::strtod(value.c_str(), &end);
      if (value != "inf" && (value.empty() || *end != '\0' || !(s.alpha_level >= 0.0))) {
        bad("bad value '" + value + "' for key al");
      }
    } else {
      bad("unknown key '" + key + "' in '" + name + "'");
    }
  }
  validate(s);
  return s;
}

namespace {

// Per-level launches (alpha = 0) are offered up to this many levels.
constexpr index_t kAgLevelLaunchMaxLevels = 2000;

// Lanes per row matching the mean row length: a power of two in 1..32.
int lanes_per_row(double mean_row_nnz) {
  int lanes = 1;
  while (lanes < 32 && lanes * 1.5 < mean_row_nnz) lanes *= 2;
  return lanes;
}

void check_shape(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz) {
  if (n < 0 || nnz < 0 || num_levels < 0 || !(mean_row_nnz >= 0.0)) {
    throw InvalidArgument("ag_search_space: negative or NaN matrix shape");
  }
}

}  // namespace

// Pruned space (4.5): the paper's full space (n_w x n_g x sw_rnnz x transforms x rg x ws x alpha,
// ~3.2e5) cut to six parallelism/transform setups sized by the mean row length, times three
// (rg, ws) pairs, times the alpha values that make sense for the level count: alpha = 0 (one
// kernel per level) only when levels are few enough for per-level launches to be cheap.
std::vector<AgScheme> ag_search_space(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz) {
  check_shape(n, nnz, num_levels, mean_row_nnz);
  const int lanes = lanes_per_row(mean_row_nnz);
  const auto setup = [](int ng, index_t sw, AgTransform tf, index_t rb, index_t th) {
    AgScheme s;
    s.subwarps = ng;
    s.sw_rnnz = sw;
    s.transform = tf;
    s.rb = rb;
    s.thresh = th;
    return s;
  };
  std::vector<AgScheme> setups = {
      setup(32 / lanes, 0, AgTransform::MergeFixed, 1, 0),              // a subwarp per row
      setup(1, kAgSwInfinity, AgTransform::MergeFixed, 32, 0),          // a thread per row, 32 rows a warp
      setup(1, lanes, AgTransform::MergeAvg, 32, lanes),                // YuenyeungSpTRSV-like switch
      setup(4, 4, AgTransform::MergeThresh, 8, 2 * lanes),              // short rows gathered, long alone
      setup(8, kAgSwInfinity, AgTransform::MergeFixed, 4, 0),           // 4 lanes on 4 rows
      setup(std::max(1, 16 / lanes), 0, AgTransform::MergeFixed, 1, 0)  // wider subwarps
  };
  setups[5].shared_read = true;
  setups[5].level_reorder = true;
  std::vector<double> alphas = {kAgAlphaInfinity, 2.0};
  if (num_levels <= kAgLevelLaunchMaxLevels) alphas.push_back(0.0);
  const std::pair<AgRowGrouping, AgWarpSchedule> schedules[] = {
      {AgRowGrouping::Sequential, AgWarpSchedule::RoundRobin},
      {AgRowGrouping::Balance, AgWarpSchedule::Balance},
      {AgRowGrouping::Sequential, AgWarpSchedule::Locality}};
  std::vector<AgScheme> space;
  for (const AgScheme& base : setups) {
    for (const auto& [rg, ws] : schedules) {
      for (double alpha : alphas) {
        AgScheme s = base;
        s.rg = rg;
        s.ws = ws;
        s.alpha_level = alpha;
        if (std::find(space.begin(), space.end(), s) == space.end()) space.push_back(s);
      }
    }
  }
  // Resident-warp control: the first setup also with all 32 warps of a block working.
  AgScheme full = space.front();
  full.resident_warps = 32;
  space.push_back(full);
  return space;
}

const std::vector<std::string>& ag_search_space_names(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz) {
  // The space depends on the shape only through the lanes a row and whether levels are few: its
  // names are made once per such pair (every "auto" analysis asks, and printing them is most of it).
  static std::mutex mutex;
  static std::map<std::pair<int, bool>, std::vector<std::string>> made;
  check_shape(n, nnz, num_levels, mean_row_nnz);
  const std::pair<int, bool> key{lanes_per_row(mean_row_nnz), num_levels <= kAgLevelLaunchMaxLevels};
  std::lock_guard<std::mutex> lock(mutex);
  auto it = made.find(key);
  if (it == made.end()) {
    std::vector<std::string> names;
    for (const AgScheme& s : ag_search_space(n, nnz, num_levels, mean_row_nnz)) names.push_back(to_string(s));
    it = made.emplace(key, std::move(names)).first;
  }
  return it->second;
}

}  // namespace hetsparse::sptrsv::ag
