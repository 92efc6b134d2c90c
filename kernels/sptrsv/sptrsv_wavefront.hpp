// Sync-free SpTRSV in level order on the whole GPU, each x its own ready flag ("wavefront").
//
// The sync-free kernels pay two L2 round trips per dependent step (the flag, then x) plus the
// release fence of the producer; the level-set kernel a launch per level; clusterlevels a barrier
// per level on at most 16 SMs. On 3D meshes of 10^6 rows and more the levels are wide (10^4 rows)
// and many (hundreds): they need the whole GPU and a step cheaper than a fence or a launch.
// Here a solved row stores its x, one 64-bit word, into a buffer indexed by position in level order
// that starts filled with a pending bit pattern (a NaN no arithmetic produces); a dependent row polls
// that word until it is no longer pending. The value is the flag: no fence, one round trip. Rows are
// packed by position (diagonal and up to 16 off-diagonals, their dependencies as positions, in
// column-major slots) so a thread's loads are coalesced and need no row pointer; a row's entries past
// the slots go to an overflow CSR by position, read kChunk at a time. A row of more than warp_row
// off-diagonals (hub rows, dense rows) is a warp row: its entries all overflow and a whole warp reads
// them, 32 lanes abreast, instead of one thread walking them. Persistent warps claim chunks from a
// counter in level order: 32 positions, or a run of thread rows up to a warp row, or one warp row
// (deadlock freedom as in sptrsv_device_rows.cuh). Two position buffers alternate between solves: each solve refills the
// other with the pending pattern as it goes, so a solve is one launch, graph-capturable.
// Pure kernels, no StarPU; the options parse in CPU builds too.
#pragma once
#include <memory>
#include <string>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels {

struct WavefrontOptions {
  static constexpr int kMaxWidth = 16;  // slots a position holds at most (longer rows overflow)
  static constexpr int kMaxBlocksPerSm = 8;
  // Resident 256-thread blocks an SM (at most as many as fit), 0 = by the level profile: enough warps
  // to hold kLevelsInFlight of the fullest level, at least one block. More warps than that only add
  // polls of words not yet written; fewer leave too few rows in flight (docs/benchmarks.md, issue 16).
  static constexpr int kLevelsInFlight = 4;
  // Rows of more off-diagonals than warp_row go to a warp (0: none, every row to a thread). By the
  // level profile unless given (wavefront_warp_row): narrow levels (fewer than kWideLevelRows rows a
  // level on average) are a chain of latencies, which a warp a long row shortens, so rows past the
  // slots are warp rows; wide levels have rows to spare for every thread, so only rows past
  // kWideWarpRow are (R-MAT 20:8 and 22:4 ran 1.4x faster so, the real triangles within 5 %;
  // docs/benchmarks.md, issue 16).
  static constexpr int kWarpRowByProfile = -1;
  static constexpr int kNarrowWarpRow = kMaxWidth;
  static constexpr int kWideWarpRow = 64;
  static constexpr index_t kWideLevelRows = 1000;
  static constexpr int kMaxWarpRow = 1 << 30;
  int blocks_per_sm = 0;
  int sleep_ns = 0;       // pause between two polls of a pending x (0: none)
  int warp_row = kWarpRowByProfile;
};

// "wavefront" or "wavefront:key=val,..." with keys blocks (blocks_per_sm, 0..8), sleep (sleep_ns,
// 0..1000) and warp (warp_row, 0..2^30). InvalidArgument naming the key otherwise. to_string gives the canonical form back.
bool is_wavefront_scheme(const std::string& scheme);
WavefrontOptions parse_wavefront_scheme(const std::string& scheme);
std::string to_string(const WavefrontOptions& options);

// Blocks an SM for options.blocks_per_sm given the fullest level's rows, `fit` blocks fitting an SM
// and `sms` SMs (host code: tested without a GPU).
int wavefront_blocks_per_sm(const WavefrontOptions& options, index_t fullest_level, int fit, int sms);

// options.warp_row, or by the level profile of n rows in `levels` levels when not given.
int wavefront_warp_row(const WavefrontOptions& options, index_t n, index_t levels);

// The most off-diagonals a thread row holds, for rows of at most `longest` (warp rows hold none in
// their slots; options.warp_row as given, a negative one counting as 0), capped at
// WavefrontOptions::kMaxWidth: what wavefront_width is given.
index_t wavefront_slotted_longest(index_t longest, const WavefrontOptions& options);

// Slots a position holds (2, 3, 4, 6, 8, 12 or 16) for rows of at most `longest` off-diagonals; InvalidArgument
// above WavefrontOptions::kMaxWidth (the solver gives it wavefront_slotted_longest).
int wavefront_width(index_t longest);

// The rows packed on the device from `device` (its level schedule required), then one launch a solve.
class WavefrontSolver {
 public:
  // longest: the most off-diagonals of a row of `device` (InvalidArgument if a row has more; any
  // length is solved). Packs on `stream` and waits for it.
  WavefrontSolver(cudaStream_t stream, const TriangularDeviceView& device, index_t longest,
                  const WavefrontOptions& options);
  ~WavefrontSolver();
  WavefrontSolver(const WavefrontSolver&) = delete;
  WavefrontSolver& operator=(const WavefrontSolver&) = delete;

  // b, x in device memory; x may equal b. Enqueues on `stream`, never waits. One solve in flight at a
  // time (the position buffers and the counters are the solver's).
  void solve(cudaStream_t stream, const double* b, double* x) const;

  int width() const { return width_; }
  int blocks() const { return blocks_; }  // of the launch (SMs x blocks an SM, fewer for small n)
  bool warp_rows() const { return warp_rows_; }  // some row is a warp row (the chunk table is used)
  int warp_row() const { return options_.warp_row; }  // the threshold it used (wavefront_warp_row)

 private:
  struct DeviceArrays;
  index_t n_ = 0;
  int width_ = 2, blocks_ = 0;
  bool warp_rows_ = false;
  WavefrontOptions options_;
  std::unique_ptr<DeviceArrays> arrays_;
};

}  // namespace hetsparse::kernels
