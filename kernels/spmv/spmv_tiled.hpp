// Tiled CSR SpMV: the rows are cut into tiles of at most a fixed number of nonzeros (and rows), planned
// once on the host from the row offsets. A CUDA block loads a tile's entries contiguously (coalesced,
// whatever the row lengths) and keeps the products in shared memory. Tiles of even rows reduce them by
// groups of lanes per row; tiles of uneven rows by equal chunks of entries per thread (a segmented
// sum), so one long row does not hold the block up. A row longer than solo_entries gets a tile of
// its own, one longer than a tile is split into pieces whose partial sums the last piece to finish
// adds up. So every block does about the same work: short, ragged and power-law hub rows alike.
// Which of this kernel and the sub-warp CSR kernel (spmv.hpp) runs is chosen from the row profile.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/spmv/spmv.hpp"

namespace hetsparse::kernels {

// The largest tile the CUDA kernel takes (its products sit in shared memory).
inline constexpr std::uint32_t kTileMaxEntries = 4096;
inline constexpr std::uint32_t kTileMaxRows = 1024;
// tile_long words of tiles that are not pieces of a long row (see TilePlanView).
inline constexpr std::uint32_t kNotLongRow = 0xffffffffu;    // rows reduced by groups of lanes
inline constexpr std::uint32_t kBalancedTile = 0xfffffffeu;  // rows reduced by equal chunks of entries
inline bool is_piece(std::uint32_t tile_long) { return tile_long < kBalancedTile; }

// How the rows of a multi-row tile are reduced: by its row lengths (Auto), or always one way.
enum class TileReduce : std::uint8_t { Auto, Grouped, Balanced };

struct TilePlanOptions {
  // Nonzeros per tile, at most kTileMaxEntries. choose_spmv picks 1024 or 2048 by the row profile.
  std::uint32_t max_entries = 1024;
  std::uint32_t max_rows = 256;  // rows per tile, at most kTileMaxRows (bounds tiles of tiny rows)
  // CUDA threads per tile: 128, 256 or 512, each loading up to 16 entries; 0: 256 (512 for tiles
  // of more than 2048 entries).
  std::uint32_t block_threads = 0;
  std::uint32_t solo_entries = 256;  // rows longer than this get a tile of their own; 0: only long rows
  TileReduce reduce = TileReduce::Auto;
};

// The CUDA block of a plan: threads and entries each thread loads (4, 8 or 16).
struct TileBlock {
  std::uint32_t threads, per_thread;
};
TileBlock tile_block(std::uint32_t max_entries, std::uint32_t block_threads);

// Device-side (or host-side) view of a plan: five arrays of 32-bit words.
//   tile_row[t], tile_entry[t]   first row / first entry (relative to the view's first_entry) of tile
//                                t; entry tiles holds nnz, row tiles holds nrows
//   tile_long[t]                 the long row whose piece tile t is, or kNotLongRow / kBalancedTile
//   long_first[l], long_count[l] the first tile and the number of pieces of long row l
struct TilePlanView {
  std::uint32_t tiles = 0, long_rows = 0, max_entries = 0, block_threads = 0;
  const std::uint32_t* tile_row = nullptr;
  const std::uint32_t* tile_entry = nullptr;
  const std::uint32_t* tile_long = nullptr;
  const std::uint32_t* long_first = nullptr;
  const std::uint32_t* long_count = nullptr;
};

// A view of plan words laid out by TilePlan (e.g. a device copy), given the plan's shape.
TilePlanView tile_plan_view(const std::uint32_t* words, std::uint32_t tiles, std::uint32_t long_rows,
                            std::uint32_t max_entries, std::uint32_t block_threads);

class TilePlan {
 public:
  TilePlan() = default;
  // Plans the rows of a CSR view: rowptr has nrows + 1 offsets that start at first_entry.
  TilePlan(const std::uint32_t* rowptr, std::uint32_t nrows, std::uint32_t first_entry, TilePlanOptions options = {});

  std::uint32_t tiles() const { return tiles_; }
  std::uint32_t long_rows() const { return long_rows_; }
  std::uint32_t max_entries() const { return max_entries_; }
  std::uint32_t block_threads() const { return block_threads_; }
  // The plan's words, laid out as view_at() expects: copy them anywhere (e.g. to the device).
  const std::vector<std::uint32_t>& words() const { return words_; }
  TilePlanView view() const { return view_at(words_.data()); }
  TilePlanView view_at(const std::uint32_t* words) const;
  // Device scratch the CUDA kernel needs for the pieces of long rows (0 when there are none).
  std::size_t workspace_bytes() const;

 private:
  std::uint32_t tiles_ = 0, long_rows_ = 0, max_entries_ = 0, block_threads_ = 0;
  std::vector<std::uint32_t> words_;
};

// The scratch layout of workspace_bytes(), also what a task-runtime caller registers.
std::size_t tiled_workspace_bytes(std::uint32_t tiles, std::uint32_t long_rows);

// The plan's algorithm on the host, tile by tile and piece by piece: the reference the CUDA kernel is
// checked against, and a check of the plan itself. Same beta == 0 rule as spmv_cpu.
void spmv_tiled_cpu(const TilePlanView& plan, const CsrView& A, const double* x, double* y, double alpha,
                    double beta);

// The tiled kernel on `stream`. plan, A, x and y in device memory; workspace: tiled_workspace_bytes()
// of device scratch (may be null when the plan has no long rows); it is reset on the stream first, so
// calls on one stream may share it. Same beta == 0 rule as spmv_cpu.
void spmv_tiled_cuda(cudaStream_t stream, const TilePlanView& plan, const CsrView& A, const double* x, double* y,
                     double alpha, double beta, void* workspace);

// The shape of a matrix's rows, from its row offsets: what the choice between the kernels reads.
struct RowProfile {
  std::uint32_t rows = 0;
  std::uint64_t nnz = 0;
  double mean = 0;          // nonzeros per row
  std::uint32_t max = 0;    // longest row
  double cv = 0;            // standard deviation / mean of the row lengths
  double empty_share = 0;   // fraction of empty rows
};
RowProfile row_profile(const std::uint32_t* rowptr, std::uint32_t nrows);

// Own CUDA SpMV paths: the sub-warp CSR kernel (spmv_cuda) or the tiled one.
enum class SpmvPath : std::uint8_t { Subwarp, Tiled };
const char* to_string(SpmvPath);

// The own kernel for a row profile, and the tiles the tiled kernel takes for it (chosen or forced).
struct SpmvChoice {
  SpmvPath path = SpmvPath::Subwarp;
  TilePlanOptions tiles;
};
// Tiled for skewed or empty-laden rows (in tiles of 2048 entries when rows average 24 or more, else
// 1024). Even rows go to the sub-warp kernel, unless their device streams 8M nonzeros or more a
// product (an empirical crossover, about twice L2) and the rows fill less than two thirds of the
// sub-warp's first passes: the tiled kernel, whose loads are full whatever the row length, then runs
// in tiles of 2048 entries. device_nnz: the nonzeros of every part the device runs (0: the profile's).
SpmvChoice choose_spmv(const RowProfile& profile, std::uint64_t device_nnz = 0);

}  // namespace hetsparse::kernels
