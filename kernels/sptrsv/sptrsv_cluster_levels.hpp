// Level-scheduled SpTRSV for deep, narrow DAGs: the levels are solved inside ONE thread block, or
// one cluster of up to 16 blocks (Hopper), that meets at a block or cluster barrier after each
// level. The sync-free kernels pay a global flag round trip per dependent step (a flag store, its
// way through L2, the waiting warp's next poll after its backoff) and the level-set kernel a launch
// per level; on triangles with thousands of levels of a few thousand rows (meshes in sweep order)
// that step is the bound. A barrier inside a cluster is a hardware arrive/wait with no polling,
// and each thread loads its next row's entries before the barrier so only the x gathers stay on
// the critical path. Wide levels, where a cluster's few SMs would be the bound, are solved by the
// level-set launches (a grid per level) between runs of narrow levels: the switch point is the
// plan's, from the level profile. Pure kernels, no StarPU; the plan is host code (CPU builds too).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels {

struct ClusterLevelsOptions {
  static constexpr int kMaxBlocks = 16;  // Hopper's largest (non-portable) cluster
  int max_blocks = kMaxBlocks;  // cap on the cluster size (1 = one block, block barriers only)
  // 1024 or 512 threads a block, 0 = by the profile: one block of 1024 when the fullest narrow level
  // fits in it (block barriers only), else a cluster of 512-thread blocks (more blocks, more loads in
  // flight). Rows of more than 2 off-diagonals (pack width 4 or 8) take 512 unless asked: a
  // 1024-thread block leaves 64 registers a thread, too few to hold two such rows.
  int block_threads = 0;
  // A level of more rows than this many per thread of the cluster goes to a level-set launch.
  int wide_rows_per_thread = 4;
  // Runs of narrow levels shorter than this between wide ones are level-set launches too: a
  // cluster launch costs more than a few level launches.
  int min_run_levels = 4;
  // The cluster is sized for the fullest narrow level at this many rows per thread.
  int target_rows_per_thread = 1;
  // One block also reads the last levels' x from a shared-memory ring (a cluster always does):
  // faster than its L1 on the 2D meshes measured (docs/benchmarks.md).
  bool one_block_ring = true;
  // In a cluster each thread also prefetches into L2 the rows it solves this many levels after the
  // next one (whose row it loads into registers a level ahead), after the barrier's arrive. One level
  // measured best on 3D meshes; one block gains nothing (the prefetches cost issue slots).
  int prefetch_levels = 1;
  // Threads a row: 1 = a thread a row from the pack above; 4, 8, 16 or 32 = a group of lanes a row,
  // its entries held abreast (rows of tens of entries in narrow levels), read from the matrix as
  // analysed, in 1024-thread blocks (threads, ring and ahead do not apply; wide and rows count rows a
  // group instead of a thread).
  int lanes = 1;
};

// One launch of the solve: levels [level_begin, level_end) in a cluster (or one block), or a single
// wide level in a level-set launch.
struct ClusterLevelsRun {
  index_t level_begin = 0, level_end = 0;
  bool wide = false;
};

struct ClusterLevelsPlan {
  int cluster_blocks = 1;  // blocks of the cluster kernel's launches
  int block_threads = 1024;
  bool one_block_ring = true;  // ClusterLevelsOptions::one_block_ring
  int prefetch_levels = 1;     // ClusterLevelsOptions::prefetch_levels
  int lanes = 1;               // ClusterLevelsOptions::lanes
  index_t fullest_narrow = 0;  // rows of the fullest level the cluster walks
  std::vector<ClusterLevelsRun> runs;
  index_t narrow_levels = 0, wide_levels = 0;
};

// Groups of lanes (lanes > 1) spread over the cluster: blocks of just enough threads (a multiple of 32)
// for `fullest` rows of `lanes` threads at `rows` rows a group, on `blocks` blocks. A block's warps all
// run every level's instructions, so fewer warps an SM make a shorter level.
int cluster_rows_block_threads(std::int64_t fullest, int lanes, int blocks, int rows);

// Plans from the level schedule of `t` (t.level_ptr set). `max_blocks` above what the device can
// co-schedule is the solver's business (it shrinks the cluster). InvalidArgument when t has no level
// schedule or an option is out of range.
ClusterLevelsPlan plan_cluster_levels(const TriangularView& t, const ClusterLevelsOptions& options);

// "clusterlevels" or "clusterlevels:key=val,..." with keys blocks (max_blocks, 1..16), threads (block_threads,
// 0, 512 or 1024), wide (wide_rows_per_thread, >= 1), run (min_run_levels, >= 1), rows (target_rows_per_thread, >= 1),
// ring (one_block_ring, 0 or 1), ahead (prefetch_levels, 0..4), lanes (1, 4, 8, 16, 32). InvalidArgument naming the
// key otherwise. to_string gives the canonical form back ("clusterlevels" for the defaults).
bool is_cluster_levels_scheme(const std::string& scheme);
ClusterLevelsOptions parse_cluster_levels_scheme(const std::string& scheme);
std::string to_string(const ClusterLevelsOptions& options);

// The rows in level order, packed so a thread finds everything its row needs from the position
// alone (no row pointer to follow): the diagonal, and the first `width` off-diagonals of each position
// in column-major slots (slot k of position p at k * n + p, so a warp's loads are coalesced). A slot's
// column is >= 0 for x in global memory, -1 for an unused slot, or a ring code (ring_code): the
// dependency was solved in the same narrow run at most kRingLevels - 1 levels earlier as the first
// row of its thread, and is read from the shared-memory ring of that thread's block (in a cluster,
// through distributed shared memory) instead of a round trip to L2. Rows with more off-diagonals keep
// the rest (plain columns) in a CSR by position (overflow_*, empty when no row needs it).
struct ClusterLevelsPack {
  static constexpr int kMaxWidth = 8;
  static constexpr int kRingLevels = 4;  // ring slots: a slot is rewritten kRingLevels levels later
  int width = 2;  // 2, 4 or 8: the fewest slots that hold the longest row, at most kMaxWidth
  index_t n = 0;
  std::vector<double> diagonal;
  std::vector<index_t> cols;
  std::vector<double> values;
  std::vector<index_t> overflow_ptr;  // n + 1 entries, or empty
  std::vector<index_t> overflow_cols;
  std::vector<double> overflow_values;
};
constexpr index_t ring_code(index_t level, int block, int thread_in_block) {
  return -2 - ((level % ClusterLevelsPack::kRingLevels) << 20 | block << 10 | thread_in_block);
}
// A ring code (a column < -1) taken apart: the ring slot (level % kRingLevels), the block of the
// cluster and the thread in that block. The kernel and the host oracle both decode through this.
struct RingSlot {
  index_t slot, block, thread;
};
constexpr RingSlot decode_ring(index_t column) {
  const index_t code = -2 - column;
  return {code >> 20, (code >> 10) & 1023, code & 1023};
}
// The pack width `t` needs (longest row's off-diagonals: 2, 4, else 8), and that longest row's
// off-diagonals (more than kMaxWidth: the pack has an overflow CSR).
int cluster_levels_width(const TriangularView& t);
index_t cluster_levels_longest(const TriangularView& t);
// Packs `t` for `plan` (its cluster_blocks and block_threads decide which thread solves which
// position, hence the ring codes).
ClusterLevelsPack pack_cluster_levels(const TriangularView& t, const ClusterLevelsPlan& plan);

// Serial solve through the pack in level order, ring codes decoded back to the row they name: what
// the kernel computes, on the host (the pack's oracle). InvalidArgument for a code naming no row
// solved in the ring's window.
void solve_cluster_levels_pack_cpu(const TriangularView& t, const ClusterLevelsPlan& plan,
                                   const ClusterLevelsPack& pack, const double* b, double* x);

// The same pack built on the GPU from the device copy of the matrix (no host pass, no upload of the
// packed arrays), for triangles without overflow (cluster_levels_longest <= kMaxWidth). out: device
// arrays of n (diagonal) and width * n (cols, values); level_ptr: the device copy of the level
// pointer; width: cluster_levels_width. Enqueues on `stream` (its scratch is stream-ordered).
struct ClusterLevelsDevicePack {
  double* diagonal = nullptr;
  index_t* cols = nullptr;
  double* values = nullptr;
};
void pack_cluster_levels_cuda(cudaStream_t stream, const TriangularDeviceView& device, const index_t* level_ptr,
                              const ClusterLevelsPlan& plan, int width, const ClusterLevelsDevicePack& out);

// The plan and the pack uploaded, then solves: a gather of b into level order, cluster launches for
// the narrow runs, sptrsv_levelset_range_cuda for the wide levels, all on one stream, graph-capturable.
// With lanes > 1 nothing is packed: the narrow runs read the rows of `device` as they are (its
// level-ordered copy when it has one) and b in place (sptrsv_cluster_rows_cuda.cu).
// Needs a GPU of compute capability 9.0 for clusters of more than one block; on older GPUs, or when the
// device cannot co-schedule the planned cluster, the cluster shrinks (cluster_blocks() says to what).
class ClusterLevelsSolver {
 public:
  // host: the analysed matrix with its level schedule; device: the same on the GPU (outlives this).
  // Uploads on `stream` and waits for it. longest_row: the most off-diagonals of a row when the
  // caller knows it (e.g. from the GPU analysis): the host view then needs only n, upper and the
  // level schedule (no rowptr) as long as no row overflows the pack; -1: counted from host.rowptr.
  ClusterLevelsSolver(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
                      const ClusterLevelsOptions& options, index_t longest_row = -1);
  ~ClusterLevelsSolver();
  ClusterLevelsSolver(const ClusterLevelsSolver&) = delete;
  ClusterLevelsSolver& operator=(const ClusterLevelsSolver&) = delete;

  // b, x in device memory; x may equal b. Enqueues on `stream`, never waits. One solve in flight at a
  // time (b is gathered into a buffer of the solver's).
  void solve(cudaStream_t stream, const double* b, double* x) const;

  const ClusterLevelsPlan& plan() const { return plan_; }
  int cluster_blocks() const { return plan_.cluster_blocks; }
  int width() const { return width_; }  // of the pack (a thread a row)

 private:
  struct DeviceArrays;
  void prepare_rows(cudaStream_t stream, const TriangularView& host, int rows_per_group);
  TriangularDeviceView device_;
  ClusterLevelsPlan plan_;
  int width_ = 2;
  std::unique_ptr<DeviceArrays> arrays_;
};

// The level-set variant on levels [level_begin, level_end) only: every dependency in a lower level
// must already be final in x (an earlier launch on the same stream).
void sptrsv_levelset_range_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                                index_t level_begin, index_t level_end);

}  // namespace hetsparse::kernels
