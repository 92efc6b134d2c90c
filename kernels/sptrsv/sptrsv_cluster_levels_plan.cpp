// The cluster-levels plan and scheme string (see sptrsv_cluster_levels.hpp): host code, in CPU builds
// too, so the plan is tested without a GPU.
#include <algorithm>
#include <cstdlib>

#include "hetsparse/error.hpp"
#include "sparse/key_values.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"

namespace hetsparse::kernels {
namespace {

constexpr const char* kName = "clusterlevels";

void check_options(const ClusterLevelsOptions& o) {
  if (o.max_blocks < 1 || o.max_blocks > ClusterLevelsOptions::kMaxBlocks) {
    throw InvalidArgument("clusterlevels: blocks must be 1.." + std::to_string(ClusterLevelsOptions::kMaxBlocks) +
                          ", got " + std::to_string(o.max_blocks));
  }
  if (o.block_threads != 0 && o.block_threads != 512 && o.block_threads != 1024) {
    throw InvalidArgument("clusterlevels: threads must be 512, 1024 or 0 (by the profile), got " +
                          std::to_string(o.block_threads));
  }
  if (o.wide_rows_per_thread < 1) throw InvalidArgument("clusterlevels: wide must be >= 1");
  if (o.min_run_levels < 1) throw InvalidArgument("clusterlevels: run must be >= 1");
  if (o.target_rows_per_thread < 1) throw InvalidArgument("clusterlevels: rows must be >= 1");
  if (o.prefetch_levels < 0 || o.prefetch_levels > 4) throw InvalidArgument("clusterlevels: ahead must be 0..4");
  if (o.lanes != 1 && o.lanes != 4 && o.lanes != 8 && o.lanes != 16 && o.lanes != 32) {
    throw InvalidArgument("clusterlevels: lanes must be 1, 4, 8, 16 or 32, got " + std::to_string(o.lanes));
  }
  if (o.lanes > 1 && o.block_threads == 512) {
    throw InvalidArgument("clusterlevels: lanes > 1 runs 1024-thread blocks, threads=512 does not apply");
  }
}

// Appends level l to the runs, merging it into the last run when that one is of the same kind.
void append(std::vector<ClusterLevelsRun>& runs, index_t l, bool wide) {
  if (!runs.empty() && runs.back().wide == wide && runs.back().level_end == l) {
    runs.back().level_end = l + 1;
  } else {
    runs.push_back({l, l + 1, wide});
  }
}

}  // namespace

int cluster_rows_block_threads(std::int64_t fullest, int lanes, int blocks, int rows) {
  const std::int64_t groups = (std::max<std::int64_t>(fullest, 1) + rows - 1) / rows;
  const std::int64_t threads = (groups * lanes + blocks - 1) / blocks;
  return static_cast<int>(std::clamp<std::int64_t>((threads + 31) / 32 * 32, 32, 1024));
}

ClusterLevelsPlan plan_cluster_levels(const TriangularView& t, const ClusterLevelsOptions& options) {
  check_options(options);
  if (t.n > 0 && (t.level_ptr == nullptr || t.num_levels <= 0)) {
    throw InvalidArgument("clusterlevels: the matrix carries no level schedule");
  }
  // Wide levels are judged against the largest cluster the options allow (512-thread blocks when the
  // profile decides: the cluster case).
  const int wide_block = options.lanes > 1 ? 1024 : options.block_threads == 0 ? 512 : options.block_threads;
  // Rows the cluster solves at once: a thread each, or a group of lanes each.
  const std::int64_t cluster_rows = std::int64_t{options.max_blocks} * wide_block / options.lanes;
  const std::int64_t wide_rows = cluster_rows * options.wide_rows_per_thread;
  auto rows_of = [&](index_t l) { return std::int64_t{t.level_ptr[l + 1]} - t.level_ptr[l]; };

  // Narrow runs too short to pay for a cluster launch become level-set launches.
  std::vector<bool> wide(static_cast<std::size_t>(t.num_levels));
  for (index_t l = 0; l < t.num_levels; ++l) wide[static_cast<std::size_t>(l)] = rows_of(l) > wide_rows;
  for (index_t l = 0; l < t.num_levels;) {
    if (wide[static_cast<std::size_t>(l)]) {
      ++l;
      continue;
    }
    index_t end = l;
    while (end < t.num_levels && !wide[static_cast<std::size_t>(end)]) ++end;
    const bool whole = l == 0 && end == t.num_levels;  // no wide level at all: one cluster launch
    if (!whole && end - l < options.min_run_levels) {
      for (index_t k = l; k < end; ++k) wide[static_cast<std::size_t>(k)] = true;
    }
    l = end;
  }

  ClusterLevelsPlan plan;
  plan.one_block_ring = options.one_block_ring;
  plan.prefetch_levels = options.prefetch_levels;
  std::int64_t fullest_narrow = 0;
  for (index_t l = 0; l < t.num_levels; ++l) {
    const bool w = wide[static_cast<std::size_t>(l)];
    append(plan.runs, l, w);
    if (w) {
      ++plan.wide_levels;
    } else {
      ++plan.narrow_levels;
      fullest_narrow = std::max(fullest_narrow, rows_of(l));
    }
  }
  plan.lanes = options.lanes;
  plan.fullest_narrow = static_cast<index_t>(fullest_narrow);
  if (options.lanes > 1) {
    // A level costs a cluster barrier (about 0.5 µs more than a block's, H200) plus the issue of every
    // warp's instructions on its SM: one block up to kOneBlockWarps warps, else a cluster of about
    // kClusterBlockWarps warps a block (docs/benchmarks.md, issue 16).
    constexpr std::int64_t kOneBlockWarps = 24, kClusterBlockWarps = 6;
    const std::int64_t rows = options.target_rows_per_thread;
    const std::int64_t warps = ((fullest_narrow + rows - 1) / rows * options.lanes + 31) / 32;
    const std::int64_t spread = std::max<std::int64_t>((warps + kClusterBlockWarps - 1) / kClusterBlockWarps, 2);
    plan.cluster_blocks =
        warps <= kOneBlockWarps ? 1 : static_cast<int>(std::min<std::int64_t>(spread, options.max_blocks));
    plan.block_threads = cluster_rows_block_threads(fullest_narrow, options.lanes, plan.cluster_blocks,
                                                    options.target_rows_per_thread);
    return plan;
  }
  plan.block_threads = options.block_threads != 0                         ? options.block_threads
                       : fullest_narrow <= 1024 * options.target_rows_per_thread ? 1024
                                                                                 : 512;
  const std::int64_t per_block = std::int64_t{plan.block_threads} * options.target_rows_per_thread;
  plan.cluster_blocks =
      static_cast<int>(std::clamp<std::int64_t>((fullest_narrow + per_block - 1) / per_block, 1, options.max_blocks));
  return plan;
}

bool is_cluster_levels_scheme(const std::string& scheme) {
  return scheme == kName || scheme.rfind(std::string(kName) + ":", 0) == 0;
}

ClusterLevelsOptions parse_cluster_levels_scheme(const std::string& scheme) {
  if (!is_cluster_levels_scheme(scheme)) throw InvalidArgument("not a clusterlevels scheme: '" + scheme + "'");
  ClusterLevelsOptions o;
  if (scheme.size() == std::string(kName).size()) return o;
  for (const KeyValue& item : split_key_values(scheme.substr(std::string(kName).size() + 1), "clusterlevels")) {
    const std::string& key = item.key;
    const std::string& text = item.value;
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < 0 || value > 1000000) {
      throw InvalidArgument("clusterlevels: '" + key + "' needs a whole number, got '" + text + "'");
    }
    const int v = static_cast<int>(value);
    if (key == "blocks") {
      o.max_blocks = v;
    } else if (key == "threads") {
      o.block_threads = v;
    } else if (key == "wide") {
      o.wide_rows_per_thread = v;
    } else if (key == "run") {
      o.min_run_levels = v;
    } else if (key == "rows") {
      o.target_rows_per_thread = v;
    } else if (key == "ring") {
      if (v > 1) throw InvalidArgument("clusterlevels: ring must be 0 or 1, got " + text);
      o.one_block_ring = v == 1;
    } else if (key == "ahead") {
      o.prefetch_levels = v;
    } else if (key == "lanes") {
      o.lanes = v;
    } else {
      throw InvalidArgument("clusterlevels: unknown key '" + key +
                            "' (known: blocks, threads, wide, run, rows, ring, ahead, lanes)");
    }
  }
  check_options(o);
  return o;
}

std::string to_string(const ClusterLevelsOptions& o) {
  const ClusterLevelsOptions d;
  std::string out;
  auto add = [&](const char* key, int value, int fallback) {
    if (value != fallback) out += std::string(out.empty() ? ":" : ",") + key + "=" + std::to_string(value);
  };
  add("blocks", o.max_blocks, d.max_blocks);
  add("threads", o.block_threads, d.block_threads);
  add("wide", o.wide_rows_per_thread, d.wide_rows_per_thread);
  add("run", o.min_run_levels, d.min_run_levels);
  add("rows", o.target_rows_per_thread, d.target_rows_per_thread);
  add("ring", o.one_block_ring ? 1 : 0, d.one_block_ring ? 1 : 0);
  add("ahead", o.prefetch_levels, d.prefetch_levels);
  add("lanes", o.lanes, d.lanes);
  return kName + out;
}

}  // namespace hetsparse::kernels
