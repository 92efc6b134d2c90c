// Layout of the work buffer of a batched CUDA update (internal to codelets/supernode), computed on
// the host both by supernode_update_batch_work_bytes and by the CUDA batch itself, so they agree:
//   [ job table: count ScatterJob, padded to kWorkAlignment ][ C_0 ][ C_1 ] ... [ C_{count-1} ]
// C_u is update u's m x k product (column-major, ld m), each starting on a kWorkAlignment boundary.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "codelets/supernode/supernode.hpp"

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

struct BatchLayout {
  std::size_t table_bytes = 0;          // job table, padded
  std::vector<std::size_t> c_offsets;   // per update, in doubles from the start of the buffer
  std::size_t total_bytes = 0;
};

// Throws InvalidArgument, naming `routine`, for count < 0, null arrays with count > 0 or ranges
// outside the descendants' rows; the rest of the shapes is checked by the kernels.
BatchLayout batch_layout(const char* routine, const ConstPanelRef* ds, const UpdateRange* rs, int count);

}  // namespace hetsparse::kernels::supernode_detail
