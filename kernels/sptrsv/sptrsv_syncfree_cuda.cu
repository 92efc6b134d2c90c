// SyncFree SpTRSV (Liu et al.; YuenyeungSpTRSV's Algorithm 3 in CSR): one warp per row, rows taken
// in solve order from the claim counter (deadlock freedom: see sptrsv_device_rows.cuh).
// Deterministic: each row's sum has a fixed lane assignment and reduction tree.
#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels {
namespace {

using namespace sptrsv_device;

template <bool Upper, bool LevelOrder>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    syncfree_kernel(Rows m, const double* b, double* x, int* ready, unsigned* next_item) {
  const unsigned position = claim_item(next_item);
  if (position >= static_cast<unsigned>(m.n)) return;  // warp-uniform
  solve_row_warp<Upper>(m, slot_at<Upper, LevelOrder>(m, static_cast<index_t>(position)), 0, b, x, ready, nullptr);
}

}  // namespace

void sptrsv_syncfree_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                          const SolveWorkspace& ws, SolveOrder order) {
  if (t.n == 0) return;
  const Rows m = rows_for(t, order, "sptrsv_syncfree_cuda");
  prepare_workspace(stream, t, ws, "sptrsv_syncfree_cuda");
  with_orientation(t.upper, order, [&](auto upper, auto level) {
    syncfree_kernel<upper, level><<<blocks_for_warps(t.n), kBlockThreads, 0, stream>>>(m, b, x, ws.ready,
                                                                                       ws.next_item);
  });
  check_cuda(cudaGetLastError(), "syncfree_kernel launch in sptrsv_syncfree_cuda");
}

}  // namespace hetsparse::kernels
