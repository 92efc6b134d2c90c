// CapelliniSpTRSV, "writing first" (YuenyeungSpTRSV Algorithm 5): one thread per row, a warp per
// 32 consecutive positions of the solve order, warps claimed in order from the counter (deadlock
// freedom: see sptrsv_device_rows.cuh). Within a warp, lanes wait on each other without ever
// blocking the lane they wait for. Deterministic: each row sums in its own walk order.
#include <cstdint>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels {
namespace {

using namespace sptrsv_device;

template <bool Upper, bool LevelOrder>
__global__ void __launch_bounds__(kBlockThreads)
    capellini_kernel(Rows m, const double* b, double* x, int* ready, unsigned* next_item) {
  const unsigned chunk = claim_item(next_item);
  const std::int64_t position = static_cast<std::int64_t>(chunk) * kWarp + threadIdx.x % kWarp;
  if (position >= m.n) return;
  solve_row_thread<Upper>(m, slot_at<Upper, LevelOrder>(m, static_cast<index_t>(position)), b, x, ready);
}

}  // namespace

void sptrsv_capellini_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                           const SolveWorkspace& ws, SolveOrder order) {
  if (t.n == 0) return;
  const Rows m = rows_for(t, order, "sptrsv_capellini_cuda");
  prepare_workspace(stream, t, ws, "sptrsv_capellini_cuda");
  const auto chunks = static_cast<index_t>((static_cast<std::int64_t>(t.n) + kWarp - 1) / kWarp);
  with_orientation(t.upper, order, [&](auto upper, auto level) {
    capellini_kernel<upper, level><<<blocks_for_warps(chunks), kBlockThreads, 0, stream>>>(m, b, x, ws.ready,
                                                                                           ws.next_item);
  });
  check_cuda(cudaGetLastError(), "capellini_kernel launch in sptrsv_capellini_cuda");
}

}  // namespace hetsparse::kernels
