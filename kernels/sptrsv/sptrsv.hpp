// Sparse triangular solve T x = b on a *normalised* triangular CSR matrix, as produced by
// sptrsv::TriangularPattern (sptrsv/analysis.hpp): 32-bit offsets and indices, every row holds
// exactly one diagonal entry, stored LAST in the row for a lower triangle and FIRST for an upper
// one, the off-diagonals sorted by column and all on the right side of the diagonal. A unit
// diagonal is stored as 1.0, so no kernel needs a unit flag. Pure kernels, no StarPU.
//
// The kernels trust the normalisation: a missing diagonal or an entry on the wrong side would make
// the sync-free GPU kernels wait forever. Build views only from an analysed pattern.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sparse/types.hpp"

// Same declaration as driver_types.h, so this header compiles without CUDA.
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// The two orders a solve can take rows in. Natural: position k is row k (lower) or row n-1-k
// (upper). Level: position k is row level_rows[k]. In both, a row's dependencies sit at earlier
// positions, which is what the sync-free kernels' deadlock freedom rests on.
enum class SolveOrder { Natural, Level };

// Host (or device, see TriangularDeviceView) arrays of a normalised triangular matrix and its
// level schedule. Levels: rows of level l are level_rows[level_ptr[l] .. level_ptr[l+1]); a row's
// dependencies all lie in lower levels. Fusion segments (YuenyeungSpTRSV's execute_row_id) are
// boundaries in one solve order, `segments` in natural order and `level_segments` in level order:
// segment s covers positions [segments[s], segments[s+1]); one position = one row solved by a whole
// warp, 2 to 32 = one row per thread, 0 = a part of a split row (SegmentPart, whose codes follow
// the boundaries in the same array).
struct TriangularView {
  index_t n = 0;
  bool upper = false;
  const index_t* rowptr = nullptr;  // n + 1 entries, rowptr[0] == 0
  const index_t* colind = nullptr;  // rowptr[n] entries
  const double* values = nullptr;   // rowptr[n] entries
  index_t num_levels = 0;
  const index_t* level_ptr = nullptr;     // num_levels + 1 entries
  const index_t* level_rows = nullptr;    // n entries
  const std::int64_t* level_nnz = nullptr;  // num_levels entries: stored entries of each level's rows
  index_t num_segments = 0;
  const index_t* segments = nullptr;  // 2 * num_segments + 1 entries: see SegmentPart
  index_t num_level_segments = 0;
  const index_t* level_segments = nullptr;  // 2 * num_level_segments + 1 entries
  // Optional (null if the analysis kept none): the same rows stored contiguously in level order,
  // so level-scheduled kernels stream through them. Position k (row level_rows[k]) holds
  // level_colind/level_values[level_rowptr[k] .. level_rowptr[k+1]), laid out as its row.
  const index_t* level_rowptr = nullptr;  // n + 1 entries
  const index_t* level_colind = nullptr;
  const double* level_values = nullptr;
};

// Long warp-level rows are cut into parts, one segment each, so several warps gather one hub row
// of a power-law matrix: on rmat18_ef8 its 100 rows of over 1024 entries on the critical path cost
// ~0.6 of the solve's 1.4 ms when each is one warp's work. A segments array holds num_segments + 1 boundaries, then one
// code per segment: 0 for a whole segment, else SegmentPart::encode of the part. The parts of the
// row at position p are k consecutive segments, [p, p) k - 1 times then [p, p + 1); part q sums its
// share of the off-diagonals into partial slot `slot + q` of the workspace, and the last part to
// arrive (a counter in the row's ready flag) adds them in part order and publishes x. No part
// waits for another, so the claim-order argument for deadlock freedom is unchanged.
struct SegmentPart {
  static constexpr int kMaxParts = 127;
  static constexpr int kSlots = 1 << 17;  // partial slots per workspace (1 MiB)
  // A part costs its row an extra atomic and a read of the partials (~1.5 us): it must save more
  // than that. Parts of 512 entries lost 5-10 % on rmat18/rmat20 and won 25 % on rmat22_ef4.
  static constexpr std::int64_t kSplitRowMin = 4096;  // off-diagonals of the shortest split row
  static constexpr std::int64_t kEntriesPerPart = 2048;
  int slot = 0, q = 0, k = 0;
  static constexpr index_t encode(int slot, int q, int k) { return 1 + ((slot << 14) | (k << 7) | q); }
  static constexpr SegmentPart decode(index_t code) {
    return {(code - 1) >> 14, (code - 1) & 127, ((code - 1) >> 7) & 127};
  }
};

// Which warp-level rows the analysis splits and into how many parts: rows of at least
// min_off_diagonals off-diagonals, parts of about entries_per_part (at most kMaxParts). The
// defaults are SegmentPart's; bench_sptrsv --fusion-sweep times others.
struct SplitRule {
  std::int64_t min_off_diagonals = SegmentPart::kSplitRowMin;
  std::int64_t entries_per_part = SegmentPart::kEntriesPerPart;
  // The parts a row of `off_diagonals` off-diagonals is cut into, 0 when it stays whole (too short,
  // or one part would hold it all). Shared by the host analysis and the GPU one.
  constexpr int parts(std::int64_t off_diagonals) const {
    const std::int64_t count = (off_diagonals + entries_per_part - 1) / entries_per_part;
    const std::int64_t capped = count < SegmentPart::kMaxParts ? count : SegmentPart::kMaxParts;
    return off_diagonals >= min_off_diagonals && capped >= 2 ? static_cast<int>(capped) : 0;
  }
};

// --- CPU kernels (sptrsv_cpu.cpp, sptrsv_cpu_levels.cpp) ---
// Right-hand sides and solutions are column-major: column r of b starts at b + r * ldb. x may be the
// same array as b (with ldx == ldb): every row reads its b entries before writing x.

// Serial substitution T X = B: forward for lower, backward for upper.
void sptrsv_cpu(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx, index_t nrhs);

// Serial T^T X = B using T's own rows (column-oriented: once x[i] is final, row i of T, which is
// column i of T^T, is subtracted from the right-hand sides still to come). Same aliasing rule.
void sptrsv_cpu_transpose(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx,
                          index_t nrhs);

// Solves the rows at level-order positions [level_begin, level_end), i.e. level_rows[level_begin ..
// level_end), in that order, reading the level-ordered copy when the view has one. A whole level l
// is [level_ptr[l], level_ptr[l+1]); a share of it, any sub-range (rows of one level are
// independent, so shares may run concurrently). Every dependency of these rows must already be in x
// (or, when the range spans levels, earlier in the range). For one task per level, or several.
void sptrsv_cpu_level(const TriangularView& t, index_t level_begin, index_t level_end, const double* b,
                      index_t ldb, double* x, index_t ldx, index_t nrhs);

// Level-scheduled T X = B on num_threads std::threads (the caller's thread is one of them): a level
// is split by entries across as many threads as it has min_entries_per_thread entries (times nrhs),
// runs of levels too small for 2 are solved by one thread, and the threads meet at a barrier after
// each such step (below ~2048 entries a share costs less than the barrier); the plan is
// kernels::plan_level_steps (sptrsv_level_plan.hpp), also used by the StarPU CPU modes. The
// barrier spins (yielding after a while): give it cores nothing else runs on, or a descheduled
// thread stalls every level. num_threads >= 1, min_entries_per_thread >= 1.
constexpr std::int64_t kDefaultMinEntriesPerThread = 2048;
void sptrsv_cpu_levels(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx,
                       index_t nrhs, int num_threads,
                       std::int64_t min_entries_per_thread = kDefaultMinEntriesPerThread);

// --- CUDA kernels (sptrsv_*_cuda.cu; built only with CUDA) ---

// The same matrix with every array in device memory, except the two marked HOST, which the
// level-set variant reads to size its per-level launches.
struct TriangularDeviceView {
  index_t n = 0;
  bool upper = false;
  const index_t* rowptr = nullptr;
  const index_t* colind = nullptr;
  const double* values = nullptr;
  index_t num_levels = 0;
  const index_t* level_rows = nullptr;
  const index_t* host_level_ptr = nullptr;      // HOST, num_levels + 1 entries
  const std::int64_t* host_level_nnz = nullptr;  // HOST, num_levels entries
  index_t num_segments = 0;
  const index_t* segments = nullptr;
  index_t num_level_segments = 0;
  const index_t* level_segments = nullptr;
  const index_t* level_rowptr = nullptr;  // optional, as in TriangularView
  const index_t* level_colind = nullptr;
  const double* level_values = nullptr;
};

// The rows as the device packs and kernels read them: the level-ordered copy when the view has one
// (position p's row stored at p), else the CSR by row.
struct StoredRows {
  bool by_position;
  const index_t* rowptr;
  const index_t* colind;
  const double* values;
};
inline StoredRows stored_rows(const TriangularDeviceView& d) {
  const bool copy = d.level_rowptr != nullptr;
  return {copy, copy ? d.level_rowptr : d.rowptr, copy ? d.level_colind : d.colind, copy ? d.level_values : d.values};
}

// Device scratch of the sync-free variants: a work counter and one ready flag per row. Carve it from
// a caller-owned device buffer of solve_workspace_bytes(n) bytes. One workspace per solve in flight:
// every sync-free solve first resets it on its own stream, so reuse on one stream is safe.
struct SolveWorkspace {
  unsigned* next_item = nullptr;  // claim counter (deadlock freedom, see sptrsv_device_rows.cuh)
  int* ready = nullptr;           // ready[row] > 0 once x[row] is final (<= 0: parts still counting)
  double* partials = nullptr;     // SegmentPart::kSlots partial sums of split rows
  index_t n = 0;
};
std::size_t solve_workspace_bytes(index_t n);
// `device_buffer` must be at least solve_workspace_bytes(n) bytes, 4-byte aligned (cudaMalloc is).
SolveWorkspace make_solve_workspace(void* device_buffer, index_t n);
// Init-on-stream step: clears the counter and every flag (stream-ordered, capturable in a graph).
void reset_solve_workspace(cudaStream_t stream, const SolveWorkspace& ws);

// The variants. All take b and x in device memory (x may equal b), double precision, lower or
// upper, enqueue on `stream` and never wait for it. The sync-free ones take rows in `order`: the
// papers' natural order (upper rows from n-1 down), or level order, which keeps a whole level in
// flight instead of a window of consecutive rows that often depend on each other in a chain (the
// 2D Laplacian's rows do), and reads the level-ordered copy of the rows when the view has one.
// syncfree: one warp per row, busy-wait on per-row ready flags (Liu et al. / paper Algorithm 3).
void sptrsv_syncfree_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                          const SolveWorkspace& ws, SolveOrder order = SolveOrder::Natural);
// capellini: one thread per row, "writing first" (YuenyeungSpTRSV Algorithm 5).
void sptrsv_capellini_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                           const SolveWorkspace& ws, SolveOrder order = SolveOrder::Natural);
// yuenyeung: per-warp choice between the two from the view's segments for `order` (Algorithm 6;
// threshold set in analysis).
void sptrsv_yuenyeung_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                           const SolveWorkspace& ws, SolveOrder order = SolveOrder::Natural);
// levelset: one launch per level, a thread or a warp per row by the level's mean row length. Uses no
// workspace (ws may be empty) and is level-ordered by nature (order is ignored).
void sptrsv_levelset_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                          const SolveWorkspace& ws, SolveOrder order = SolveOrder::Level);

// Names accepted by solve_cuda: syncfree, capellini, yuenyeung (natural order), levelset, then
// syncfree_levelorder, capellini_levelorder, yuenyeung_levelorder. All are graph-capturable.
std::vector<std::string> gpu_variants();
// Runs the named variant; InvalidArgument for an unknown name, a workspace smaller than t.n (for
// the sync-free variants), a level-order solve without a level schedule or a yuenyeung solve
// without segments for its order.
void solve_cuda(const std::string& variant, cudaStream_t stream, const TriangularDeviceView& t, const double* b,
                double* x, const SolveWorkspace& ws);

// Device copy of a TriangularView (all arrays, level pointers and nnz also kept on the host for the
// view). Uploads on `stream` and waits for it; frees with cudaFree. Not copyable. InvalidArgument
// for fusion segments that do not cover 0..n in pieces of 1 to 32 positions (a longer piece would
// leave rows unsolved and their dependants waiting forever).
class DeviceTriangular {
 public:
  DeviceTriangular(cudaStream_t stream, const TriangularView& host);
  ~DeviceTriangular();
  DeviceTriangular(const DeviceTriangular&) = delete;
  DeviceTriangular& operator=(const DeviceTriangular&) = delete;

  TriangularDeviceView view() const { return view_; }

 private:
  TriangularDeviceView view_;
  std::vector<void*> allocations_;
  std::vector<index_t> host_level_ptr_;
  std::vector<std::int64_t> host_level_nnz_;
};

}  // namespace hetsparse::kernels
