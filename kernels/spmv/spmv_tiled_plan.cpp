// Tile plans (host side), the row profile and the choice between the own CUDA SpMV paths.
#include <algorithm>
#include <cmath>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/spmv/spmv_tiled.hpp"

namespace hetsparse::kernels {

TileBlock tile_block(std::uint32_t max_entries, std::uint32_t block_threads) {
  const std::uint32_t threads = block_threads != 0 ? block_threads : max_entries <= 2048 ? 256 : 512;
  return {threads, max_entries <= 4 * threads ? 4u : max_entries <= 8 * threads ? 8u : 16u};
}

namespace {

// Whether a tile of rows [first, end) is better reduced by equal chunks of entries than by groups of
// lanes per row: when its longest row would keep a group busy for more than two chunks' worth.
bool balanced_tile(const std::uint32_t* rowptr, std::uint32_t first, std::uint32_t end, TileBlock block,
                   TileReduce reduce) {
  if (rowptr[end] == rowptr[first]) return false;  // only empty rows: nothing to balance
  if (reduce != TileReduce::Auto) return reduce == TileReduce::Balanced;
  std::uint32_t longest = 0;
  for (std::uint32_t r = first; r < end; ++r) longest = std::max(longest, rowptr[r + 1] - rowptr[r]);
  const std::uint32_t fit = block.threads / (end - first);
  const std::uint32_t width = fit >= 32 ? 32 : fit == 0 ? 1 : 1u << (31 - __builtin_clz(fit));
  return (longest + width - 1) / width > 2 * block.per_thread;
}

}  // namespace

TilePlan::TilePlan(const std::uint32_t* rowptr, std::uint32_t nrows, std::uint32_t first_entry,
                   TilePlanOptions options)
    : max_entries_(options.max_entries), block_threads_(options.block_threads) {
  if (options.max_entries < 1 || options.max_entries > kTileMaxEntries)
    throw InvalidArgument("TilePlan: max_entries " + std::to_string(options.max_entries) + " is outside [1, " +
                          std::to_string(kTileMaxEntries) + "]");
  if (options.max_rows < 1 || options.max_rows > kTileMaxRows)
    throw InvalidArgument("TilePlan: max_rows " + std::to_string(options.max_rows) + " is outside [1, " +
                          std::to_string(kTileMaxRows) + "]");
  const std::uint32_t t = options.block_threads;
  if (t != 0 && ((t != 128 && t != 256 && t != 512) || options.max_entries > 16 * t))
    throw InvalidArgument("TilePlan: block_threads " + std::to_string(t) + " must be 128, 256 or 512 and hold " +
                          std::to_string(options.max_entries) + " entries at 16 a thread");
  const TileBlock block = tile_block(options.max_entries, options.block_threads);
  const std::uint32_t solo = options.solo_entries == 0 ? options.max_entries : options.solo_entries;
  std::vector<std::uint32_t> tile_row, tile_entry, tile_long, long_first, long_count;
  const auto entry = [&](std::uint32_t r) { return rowptr[r] - first_entry; };
  const auto length = [&](std::uint32_t r) { return rowptr[r + 1] - rowptr[r]; };
  std::uint32_t r = 0;
  while (r < nrows) {
    if (length(r) > options.max_entries) {  // a long row: pieces of max_entries, one tile each
      const std::uint32_t pieces = (length(r) + options.max_entries - 1) / options.max_entries;
      long_first.push_back(static_cast<std::uint32_t>(tile_row.size()));
      long_count.push_back(pieces);
      for (std::uint32_t p = 0; p < pieces; ++p) {
        tile_row.push_back(r);
        tile_entry.push_back(entry(r) + p * options.max_entries);
        tile_long.push_back(static_cast<std::uint32_t>(long_first.size() - 1));
      }
      ++r;
      continue;
    }
    // Whole rows while they fit; a row that fits no tile ends this one (it is long), a row over
    // `solo` is a tile by itself.
    const std::uint32_t first_row = r, first = entry(r);
    if (length(r) > solo) {
      ++r;
    } else {
      while (r < nrows && r - first_row < options.max_rows && length(r) <= solo &&
             entry(r + 1) - first <= options.max_entries) {
        ++r;
      }
    }
    tile_row.push_back(first_row);
    tile_entry.push_back(first);
    tile_long.push_back(r - first_row > 1 && balanced_tile(rowptr, first_row, r, block, options.reduce)
                            ? kBalancedTile
                            : kNotLongRow);
  }
  tiles_ = static_cast<std::uint32_t>(tile_long.size());
  long_rows_ = static_cast<std::uint32_t>(long_first.size());
  tile_row.push_back(nrows);
  tile_entry.push_back(entry(nrows));
  words_.reserve(tile_row.size() + tile_entry.size() + tile_long.size() + 2 * long_first.size());
  for (const auto* part : {&tile_row, &tile_entry, &tile_long, &long_first, &long_count})
    words_.insert(words_.end(), part->begin(), part->end());
}

TilePlanView tile_plan_view(const std::uint32_t* words, std::uint32_t tiles, std::uint32_t long_rows,
                            std::uint32_t max_entries, std::uint32_t block_threads) {
  TilePlanView v;
  v.block_threads = block_threads;
  v.tiles = tiles;
  v.long_rows = long_rows;
  v.max_entries = max_entries;
  v.tile_row = words;
  v.tile_entry = v.tile_row + tiles + 1;
  v.tile_long = v.tile_entry + tiles + 1;
  v.long_first = v.tile_long + tiles;
  v.long_count = v.long_first + long_rows;
  return v;
}

TilePlanView TilePlan::view_at(const std::uint32_t* words) const {
  return tile_plan_view(words, tiles_, long_rows_, max_entries_, block_threads_);
}

std::size_t tiled_workspace_bytes(std::uint32_t tiles, std::uint32_t long_rows) {
  // [one partial sum per tile (only pieces use theirs) | one arrival counter per long row]
  return long_rows == 0 ? 0 : std::size_t{tiles} * sizeof(double) + std::size_t{long_rows} * sizeof(std::uint32_t);
}

std::size_t TilePlan::workspace_bytes() const { return tiled_workspace_bytes(tiles_, long_rows_); }

RowProfile row_profile(const std::uint32_t* rowptr, std::uint32_t nrows) {
  RowProfile p;
  p.rows = nrows;
  if (nrows == 0) return p;
  p.nnz = rowptr[nrows] - rowptr[0];
  p.mean = static_cast<double>(p.nnz) / nrows;
  double squares = 0;
  std::uint64_t empty = 0;
  for (std::uint32_t r = 0; r < nrows; ++r) {
    const std::uint32_t len = rowptr[r + 1] - rowptr[r];
    p.max = std::max(p.max, len);
    empty += len == 0;
    squares += (len - p.mean) * (len - p.mean);
  }
  p.cv = p.mean > 0 ? std::sqrt(squares / nrows) / p.mean : 0.0;
  p.empty_share = static_cast<double>(empty) / nrows;
  return p;
}

const char* to_string(SpmvPath p) { return p == SpmvPath::Subwarp ? "subwarp" : "tiled"; }

SpmvChoice choose_spmv(const RowProfile& p, std::uint64_t device_nnz) {
  // The sub-warp kernel sizes its sub-warp by the mean row, so rows far above the mean leave the GPU
  // waiting on one sub-warp; on even rows, short ones included, it beats the tiled kernel (H100 sweep,
  // docs/benchmarks.md) unless its lanes idle. Below about 8M nonzeros a device streams, part of the
  // matrix stays in L2 across products, and the sub-warp kernel's fewer instructions win even then
  // (H200 sweep, docs/benchmarks.md).
  // Tiles of 2048 entries suit even rows past that size, and skewed rows of 24 entries or more on
  // average; skewed shorter rows split either way by matrix (H200 sweeps, docs/benchmarks.md).
  constexpr std::uint64_t kTiledEvenMinNnz = 8'000'000;
  constexpr double kWideTilesSkewedMinMean = 24;
  const bool even = p.cv <= 0.5 && p.max <= 2 * p.mean + 16 && p.empty_share <= 0.05;
  const bool big = (device_nnz > 0 ? device_nnz : p.nnz) >= kTiledEvenMinNnz;
  const std::uint32_t slots = subwarp_row_slots(p.nnz, p.rows);
  const bool idle_lanes = slots <= 64 && 3 * p.mean < 2.0 * slots;
  SpmvChoice c;
  if (even ? big : p.mean >= kWideTilesSkewedMinMean) c.tiles = {2048, 512};
  c.path = even && !(idle_lanes && big) ? SpmvPath::Subwarp : SpmvPath::Tiled;
  return c;
}

}  // namespace hetsparse::kernels
