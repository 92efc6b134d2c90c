// The structural analysis of a triangular matrix as pure kernels: the row pass of the selector
// features on the host (the oracle), and the whole analysis on the GPU for a matrix already in
// device memory (checks, level schedule, level-ordered copy, fusion segments, row statistics), so a
// GPU solve needs no host pass over the entries. No StarPU; sptrsv/ turns the results into a
// TriangularPattern's features and its errors.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sparse/types.hpp"

namespace hetsparse::kernels {

// Sums over the rows of a normalised matrix that the features need (sptrsv/features.hpp).
inline constexpr std::int64_t kColumnWarp = 32;

// The warp iterations beyond the first over a column of `entries` (diagonal included) whose
// off-diagonal entries a warp of `warp` lanes walks: ceil((entries - 1) / warp) - 1, or 0.
inline std::int64_t column_extra_warps(std::int64_t entries, std::int64_t warp) {
  return entries - 1 > warp ? (entries - 2) / warp : 0;
}

struct RowStatistics {
  std::int64_t nnz = 0;               // stored entries, diagonal included
  std::int64_t longest_row = 0;       // entries of the longest row
  std::int64_t longest_column = 0;    // entries of the longest column
  // Over the columns of more than a warp's kColumnWarp off-diagonal entries, the warp iterations
  // beyond the first (what a cut of the GPU-GPU split can save at most); -1: not counted.
  std::int64_t long_column_extra_warps = -1;
  double row_length_squares = 0.0;    // sum over rows of (length - nnz / n)^2
  double inverse_distance_sum = 0.0;  // sum over rows of 1 / |row - its nearest dependency|
};

// Serial reference (sptrsv_analysis_cpu.cpp). O(n + nnz).
RowStatistics row_statistics(const TriangularView& t);

// --- GPU (sptrsv_analysis_cuda.cu, sptrsv_segments_cuda.cu; built only with CUDA) ---

// A triangular CSR matrix in device memory, owned by the caller and only read.
struct DeviceCsrView {
  index_t n = 0;
  bool upper = false;
  const index_t* rowptr = nullptr;  // n + 1 entries
  const index_t* colind = nullptr;
  const double* values = nullptr;
};

// What check_triangle_cuda found: the lowest row with an entry the analysis must reject (a
// non-finite value, an entry on the wrong side of the diagonal, a missing or zero diagonal when the
// diagonal is not unit) or whose row pointer decreases (row 0: rowptr[0] != 0; then nothing else is
// checked), and the lowest row not already in normalised form (columns strictly increasing, the
// diagonal stored in its slot: last for lower, first for upper). -1: none.
struct DeviceCheck {
  index_t first_invalid_row = -1;
  bool bad_row_pointer = false;  // first_invalid_row is where the row pointer fails
  index_t first_unnormalised_row = -1;
  std::int64_t nnz = 0;  // rowptr[n], read for the check's sizes (the analysis reuses it)
};
// Waits for the stream.
DeviceCheck check_triangle_cuda(cudaStream_t stream, const DeviceCsrView& t, bool unit_diagonal);

struct DeviceAnalysisOptions {
  bool unit_diagonal = false;     // the stored diagonal is replaced by 1.0
  double fusion_threshold = 8.0;  // as sptrsv::AnalysisOptions
  bool level_ordered_copy = true;
  SplitRule split_rule;
  bool time_phases = false;  // fill DeviceAnalysis::phases(), draining the stream after each step
};

// Wall time of each step of a DeviceAnalysis in ms (with DeviceAnalysisOptions::time_phases).
struct DeviceAnalysisPhases {
  double check = 0;           // check_triangle_cuda and the entry count
  double copy = 0;            // the analysis's own copy of the matrix (and its unit diagonal)
  double segments = 0;        // natural-order fusion segments
  double levels = 0;          // the sync-free level pass
  double schedule = 0;        // level sort, level pointers and entries (and their download)
  double level_copy = 0;      // the level-ordered copy
  double level_segments = 0;  // level-order fusion segments
  double statistics = 0;      // the feature sums
};

// The GPU analysis allocates from a pool of its own that keeps freed memory for the next analysis
// on the device (sptrsv_device_scratch.cuh); this hands what is unused back to the driver.
void release_analysis_memory();

// The analysis of a valid, normalised matrix in device memory (check_triangle_cuda finds no row of
// either kind, else InvalidArgument naming the row: the sync-free level pass would otherwise wait
// forever). Every array is computed and kept on the device; only the per-level arrays and a few
// scalars come back to the host. Equal, array for array, to sptrsv::TriangularPattern's analysis of
// the same matrix (tests/kernels/test_sptrsv_device_analysis_cuda.cpp). Runs on `stream` and waits
// for it; the destructor waits for the device before it frees. Not copyable.
//
// Levels come from a sync-free pass like the solve (one warp claims a fusion segment, its light rows
// in lockstep rounds or its heavy row by the whole warp, flags in claim order: deadlock freedom as in
// sptrsv_device_rows.cuh; sptrsv_level_pass_cuda.cu) whose flag is the row's level + 1; a stable
// radix sort by level gives level_rows.
class DeviceAnalysis {
 public:
  DeviceAnalysis(cudaStream_t stream, const DeviceCsrView& input, const DeviceAnalysisOptions& options);
  ~DeviceAnalysis();
  DeviceAnalysis(const DeviceAnalysis&) = delete;
  DeviceAnalysis& operator=(const DeviceAnalysis&) = delete;

  // Everything the solve variants read (host_level_ptr / host_level_nnz point into this object).
  const TriangularDeviceView& view() const { return view_; }
  const std::vector<index_t>& level_ptr() const { return level_ptr_; }
  const std::vector<std::int64_t>& level_nnz() const { return level_nnz_; }
  const RowStatistics& statistics() const { return statistics_; }
  const DeviceAnalysisPhases& phases() const { return phases_; }
  // Device arrays copied back (for tests and for a host pattern): row levels, level_rows, segments.
  std::vector<index_t> download_row_levels(cudaStream_t stream) const;
  std::vector<index_t> download_level_rows(cudaStream_t stream) const;
  std::vector<index_t> download_segments(cudaStream_t stream, SolveOrder order) const;

 private:
  // From the analysis pool in stream order; freed with this object.
  void* allocate_bytes(cudaStream_t stream, std::size_t bytes);
  template <typename T>
  T* allocate(cudaStream_t stream, std::size_t count) {
    return static_cast<T*>(allocate_bytes(stream, count * sizeof(T)));
  }
  void build(cudaStream_t stream, const DeviceCsrView& input, const DeviceAnalysisOptions& options);
  void build_level_schedule(cudaStream_t stream, const DeviceAnalysisOptions& options);
  // With time_phases: drains the stream and charges the time since the last mark to `phase`.
  void mark(cudaStream_t stream, double DeviceAnalysisPhases::*phase);

  TriangularDeviceView view_;
  std::int64_t nnz_ = 0;
  index_t* row_level_plus_one_ = nullptr;  // the level pass's flags: level + 1 of each row
  std::vector<void*> allocations_;
  std::vector<index_t> level_ptr_;
  std::vector<std::int64_t> level_nnz_;
  RowStatistics statistics_;
  DeviceAnalysisPhases phases_;
  bool time_phases_ = false;
  double last_mark_ms_ = 0;
};

namespace device_analysis {
// Internal steps (sptrsv_segments_cuda.cu). Fusion segments, as sptrsv::fusion_segments, of the
// rows at n solve positions whose entries are position_rowptr[k + 1] - position_rowptr[k]: the
// row pointer in natural order (read from the far end when `reversed`, upper triangles), the
// level-ordered row pointer in level order. Returns an array (the caller frees it) of
// 2 * count + 1 entries from the analysis pool (cudaFreeAsync).
index_t* fusion_segments_cuda(cudaStream_t stream, index_t n, const index_t* position_rowptr, bool reversed,
                              double threshold, const SplitRule& split, index_t& count);
// The sync-free level pass (sptrsv_level_pass_cuda.cu): flags[row] = level + 1 for every row of t,
// which has its natural-order segments; counter (an unsigned) and the n flags start at zero.
void level_pass_cuda(cudaStream_t stream, const TriangularDeviceView& t, unsigned* counter, int* flags);
// Row sums on the device; longest_column through a column count of n ints.
RowStatistics row_statistics_cuda(cudaStream_t stream, const TriangularDeviceView& t, std::int64_t nnz);
}  // namespace device_analysis

}  // namespace hetsparse::kernels
