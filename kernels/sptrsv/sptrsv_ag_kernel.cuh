// The AG-SpTRSV code-variant template as the solver sees it: the uploaded plan, one kernel's
// range, and the instantiation for (triangle, lanes per subwarp, flag waits). Kernels in
// sptrsv_ag_cuda.cu, host side in sptrsv_ag_solver_cuda.cu.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels::ag_device {

// Blocks are launched with this many threads at most; n_w of their warps work.
constexpr unsigned kMaxBlockThreads = 1024;

// Device arrays of an AgPlan plus the matrix storage, by value (kernel argument).
struct AgDevicePlan {
  const index_t* rowptr;  // of the storage rows are read from: by row, or by position
  const index_t* colind;
  const double* values;
  bool by_position;              // storage indexed by solve position (level-ordered copy)
  const index_t* position_rows;  // position -> row
  const double* inv_diag;        // by row: early division, 1 / diagonal
  const index_t* node_ptr;
  const std::uint8_t* node_collaborative;
  const index_t* group_ptr;
  const index_t* group_nodes;
  const index_t* warp_ptr;  // persistent warp w = blockIdx.x * warps_per_block + warp in block
  const index_t* warp_groups;
  int warps_per_block;
  int shared_capacity;  // entries per warp of the shared read buffer; 0 = read from global memory
};

// One launch of the third hierarchy.
struct AgRange {
  index_t group_begin, group_end;
  bool publish;  // set ready flags (some waiting kernel reads them)
};

using AgKernelFn = void (*)(AgDevicePlan, AgRange, const double*, double*, int*);

// The instantiation for lanes = 32 / n_g in {1, 2, 4, 8, 16, 32}; InvalidArgument otherwise.
AgKernelFn ag_kernel_for(bool upper, int lanes, bool wait);

// Dynamic shared memory per block for a plan: values then columns of every warp's buffer.
inline std::size_t ag_shared_bytes(int warps_per_block, int capacity) {
  return static_cast<std::size_t>(warps_per_block) * static_cast<std::size_t>(capacity) *
         (sizeof(double) + sizeof(index_t));
}

}  // namespace hetsparse::kernels::ag_device
