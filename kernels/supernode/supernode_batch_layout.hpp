// Layout of the work buffer of a batched CUDA update (internal to kernels/supernode), computed on
// the host both by supernode_update_batch_work_bytes and by the CUDA batch itself, so they agree:
//   [ count ScatterJob ][ count FusedJob ] (padded to kWorkAlignment) [ C_u ] for each cuBLAS update
// C_u is update u's m x k product (column-major, ld m), each starting on a kWorkAlignment boundary.
// Updates under the fused threshold have no C: the fused kernel keeps its tiles in shared memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels::supernode_detail {

// 256 bytes: what cudaMalloc guarantees, and a whole number of cache lines for every block.
constexpr std::size_t kWorkAlignment = 256;

// One update as the scatter kernel reads it from the job table.
struct ScatterJob {
  const std::int32_t* rows;  // the descendant's rows from position r0 (device)
  std::int64_t c_offset;     // start of this update's C within the work buffer, in doubles
  std::int32_t m, k;         // C is m x k
  std::int32_t first_block;  // first block of the scatter grid working on this update
  std::int32_t pad;          // keeps the size a multiple of 8 on every ABI
};

// One small update as the fused kernel reads it: C = A A_top^T (m x k, inner n) straight from the
// descendant's panel, tiles of kFusedTile x kFusedTile subtracted from the target.
struct FusedJob {
  const double* a;             // the descendant's values from row position r0 (device), ld below
  const std::int32_t* rows;    // the descendant's rows from position r0 (device)
  std::int32_t ld, m, k, n;
  std::int32_t first_block;    // first block of the fused grid working on this update
  std::int32_t row_tiles;      // blocks of this job = row_tiles * column tiles
};
constexpr int kFusedTile = 32;

// An update whose product is smaller than fused_max_flops goes to the fused kernel.
bool is_fused(const ConstPanelRef& d, UpdateRange r, double fused_max_flops);

struct BatchLayout {
  std::size_t table_bytes = 0;           // both job tables, padded
  std::size_t fused_table_offset = 0;    // bytes from the start of the buffer
  std::vector<std::size_t> c_offsets;    // per update, in doubles from the start (0 for fused ones)
  std::vector<char> fused;               // per update
  std::size_t total_bytes = 0;
};

// Throws InvalidArgument, naming `routine`, for count < 0, null arrays with count > 0 or ranges
// outside the descendants' rows; the rest of the shapes is checked by the kernels.
BatchLayout batch_layout(const char* routine, const ConstPanelRef* ds, const UpdateRange* rs, int count,
                         double fused_max_flops);

// The fused kernel over `jobs` (a, rows, ld, m, k, n set; k > 0), asynchronous on `stream`: fills
// in first_block and row_tiles, uploads the table to `table` (device) and subtracts every product
// from t. Defined in supernode_update_fused_cuda.cu.
void run_fused_updates(cudaStream_t stream, std::vector<FusedJob>& jobs, FusedJob* table, const PanelRef& t,
                       const char* routine);

}  // namespace hetsparse::kernels::supernode_detail
