// Whole subtrees of the supernodal elimination tree factored on the GPU in one call, level by level:
// a leaf subtree of a 2D problem holds hundreds of small supernodes, and one task (or even one
// cuBLAS call) per supernode or per update costs more than its arithmetic. Supernodes are put on
// levels (a supernode sits one level above the highest supernode that updates it); per level, three
// launches a block column factor every panel up to batched_max_cols, cuSOLVER + cuBLAS the larger,
// then one fused kernel applies every small update of the level to its targets (atomics: targets
// receive several) and cuBLAS GEMM + scatter the large ones. Same contract as supernode_subtree_cpu (the serial
// reference): every update into [first, last) comes from inside it; updates leaving it are left.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels {

// The kernel's default limits (SubtreeLevels), which the codelet's and the planner's defaults repeat.
inline constexpr std::int32_t kSubtreeBatchedMaxCols = 256;
inline constexpr double kSubtreeFusedMaxFlops = 1e8;

// The host-side schedule of one range (from host row lists; built in microseconds per supernode).
struct SubtreeLevels {
  struct Update {
    std::int32_t d, t, r0, r1;  // source, target (absolute supernode indices), d's rows [r0, r1) in t
  };
  std::vector<std::int32_t> order;         // supernodes of the range, level by level
  std::vector<std::int32_t> level_begin;   // level l: order[level_begin[l] .. level_begin[l + 1])
  std::vector<Update> updates;             // by level of their source d, in `order`'s order
  std::vector<std::int32_t> update_begin;  // level l: updates[update_begin[l] .. update_begin[l + 1])
  // Panels of at most batched_max_cols columns are factored by the batched panel kernels (all of a
  // level together, a block column at a time), larger ones by cuSOLVER potrf + cuBLAS trsm; updates under fused_max_flops go to the fused
  // kernel (all of a level in one launch), larger ones to cuBLAS GEMM + scatter, one at a time.
  std::int32_t batched_max_cols = kSubtreeBatchedMaxCols;
  double fused_max_flops = kSubtreeFusedMaxFlops;
  int levels() const { return static_cast<int>(level_begin.size()) - 1; }
};
SubtreeLevels plan_subtree_levels(const PanelLocation* loc, const std::int32_t* rows,
                                  const std::int32_t* col_to_supernode, std::int32_t first, std::int32_t last);

// Bytes of device work supernode_subtree_cuda needs for this plan (job tables, pivot reports,
// cuSOLVER's work and the largest product of a cuBLAS update).
std::size_t supernode_subtree_cuda_work_bytes(cusolverDnHandle_t solver, const PanelLocation* loc,
                                              const SubtreeLevels& plan);
// Where a call's GPU time went (for benchmarks: measuring adds an event pair per phase and level).
struct SubtreeTimings {
  double upload_ms = 0, batched_factor_ms = 0, solver_factor_ms = 0, fused_update_ms = 0, cublas_update_ms = 0;
  long long batched_factors = 0, solver_factors = 0, fused_updates = 0, cublas_updates = 0;
  double fused_flops = 0, cublas_flops = 0;
};
// values_device: the range's panels (panel s at values_device + loc[s].value_offset -
// loc[first].value_offset); rows_device: every row list (rows_device + loc[s].row_begin).
// info_host: last - first ints receiving 0 or the failing column (as supernode_factor_cpu); unlike
// the CPU kernel the factorization goes on past a failure (the panels above it then hold
// unspecified values). Enqueued on `stream`; returns once the pivot reports are on the host.
void supernode_subtree_cuda(cublasHandle_t blas, cusolverDnHandle_t solver, cudaStream_t stream,
                            const PanelLocation* loc, const SubtreeLevels& plan, std::int32_t first,
                            std::int32_t last, const std::int32_t* rows_device, double* values_device, int* info_host,
                            void* work_device, std::size_t work_bytes, SubtreeTimings* timings = nullptr);
// The calling thread's pinned staging for supernode_subtree_cuda's job tables, allocated now to at
// least `bytes` (a CUDA worker at start-up: allocating it between kernels serializes the streams).
void reserve_subtree_staging(std::size_t bytes);

}  // namespace hetsparse::kernels
