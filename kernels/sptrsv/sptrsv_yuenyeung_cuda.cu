// YuenyeungSpTRSV (Algorithm 6): the analysis cut the solve order into segments (execute_row_id);
// a warp claims the next segment from the counter (deadlock freedom: see sptrsv_device_rows.cuh)
// and solves it thread-level when it spans several rows (light rows, one per lane) or warp-level
// when it is a single row (a heavy chunk was split into one segment per row). The choice is per
// segment, hence warp-uniform: no warp mixes the two. A long warp-level row may be split into part
// segments (SegmentPart), solved by several warps. Deterministic, as all three row solvers are.
#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels {
namespace {

using namespace sptrsv_device;

template <bool Upper, bool LevelOrder>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    yuenyeung_kernel(Rows m, const index_t* __restrict__ segments, index_t num_segments, const double* b, double* x,
                     int* ready, double* partials, unsigned* next_item) {
  const unsigned segment = claim_item(next_item);
  if (segment >= static_cast<unsigned>(num_segments)) return;  // warp-uniform
  // Boundaries and part code load together: the code adds no step to the dependency chain.
  const index_t begin = __ldg(segments + segment), end = __ldg(segments + segment + 1);
  const index_t code = __ldg(segments + num_segments + 1 + segment);
  if (code != 0 || end - begin == 1) {  // a whole warp-level row, or a part of a split one
    solve_row_warp<Upper>(m, slot_at<Upper, LevelOrder>(m, begin), code, b, x, ready, partials);
  } else {
    const auto lane = static_cast<index_t>(threadIdx.x % kWarp);
    if (lane < end - begin) solve_row_thread<Upper>(m, slot_at<Upper, LevelOrder>(m, begin + lane), b, x, ready);
  }
}

}  // namespace

void sptrsv_yuenyeung_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                           const SolveWorkspace& ws, SolveOrder order) {
  if (t.n == 0) return;
  const bool level = order == SolveOrder::Level;
  const index_t* segments = level ? t.level_segments : t.segments;
  const index_t num_segments = level ? t.num_level_segments : t.num_segments;
  if (segments == nullptr || num_segments < 1) {
    throw InvalidArgument("sptrsv_yuenyeung_cuda: the view carries no fusion segments for this solve order");
  }
  const Rows m = rows_for(t, order, "sptrsv_yuenyeung_cuda");
  prepare_workspace(stream, t, ws, "sptrsv_yuenyeung_cuda");
  with_orientation(t.upper, order, [&](auto upper, auto level_order) {
    yuenyeung_kernel<upper, level_order><<<blocks_for_warps(num_segments), kBlockThreads, 0, stream>>>(
        m, segments, num_segments, b, x, ws.ready, ws.partials, ws.next_item);
  });
  check_cuda(cudaGetLastError(), "yuenyeung_kernel launch in sptrsv_yuenyeung_cuda");
}

}  // namespace hetsparse::kernels
