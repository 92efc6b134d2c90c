// Level-set SpTRSV (paper Algorithm 2): one launch per level, the stream order between launches
// being the synchronisation. Rows of a level are independent, so no flags and no waiting: the
// baseline the sync-free variants must beat, and graph-capturable (launches only).
// Deterministic: each row's sum has a fixed order (per thread) or lane assignment and tree (per warp).
#include <cstdint>

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels {
namespace {

using namespace sptrsv_device;

// A level whose rows average at least this many entries gets a warp per row: below it most lanes
// of a row's warp would idle, above it one thread per row serialises too many loads.
constexpr std::int64_t kWarpRowEntries = 8;

// Where the rows are read from: the level-ordered copy (indexed by position, so a level's rows are
// adjacent and a thread-per-row launch reads them coalesced) or the matrix itself (by row).
struct LevelRows {
  const index_t* __restrict__ level_rows;
  const index_t* __restrict__ rowptr;
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  bool by_position;
};

// Positions [first, first + count) of the level order; x of every lower level is final (previous
// launches).
template <bool WarpPerRow>
__global__ void __launch_bounds__(kBlockThreads)
    level_kernel(LevelRows m, bool upper, index_t first, index_t count, const double* b, double* x) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * kBlockThreads + threadIdx.x;
  const std::int64_t item = WarpPerRow ? thread / kWarp : thread;
  if (item >= count) return;  // warp-uniform when WarpPerRow
  const index_t position = first + static_cast<index_t>(item);
  const index_t row = __ldg(m.level_rows + position);
  const index_t stored = m.by_position ? position : row;
  const index_t begin = __ldg(m.rowptr + stored), end = __ldg(m.rowptr + stored + 1);
  const index_t diagonal_slot = upper ? begin : end - 1;
  const index_t off_begin = upper ? begin + 1 : begin, off_end = upper ? end : end - 1;
  const unsigned lane = WarpPerRow ? threadIdx.x % kWarp : 0;
  const std::int64_t stride = WarpPerRow ? kWarp : 1;
  double sum = 0.0;
  for (std::int64_t p = off_begin + static_cast<std::int64_t>(lane); p < off_end; p += stride) {  // 64-bit: no wrap
    sum += __ldg(m.values + p) * x[__ldg(m.colind + p)];
  }
  if (WarpPerRow) {
#pragma unroll
    for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(kFullMask, sum, offset);
  }
  if (lane == 0) x[row] = (b[row] - sum) / __ldg(m.values + diagonal_slot);
}

}  // namespace

void sptrsv_levelset_range_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                                index_t level_begin, index_t level_end) {
  if (t.n == 0) return;
  if (t.host_level_ptr == nullptr || t.host_level_nnz == nullptr || t.level_rows == nullptr) {
    throw InvalidArgument("sptrsv_levelset_cuda: the view carries no level schedule");
  }
  if (level_begin < 0 || level_end > t.num_levels || level_begin > level_end) {
    throw InvalidArgument("sptrsv_levelset_range_cuda: levels [" + std::to_string(level_begin) + ", " +
                          std::to_string(level_end) + ") outside the " + std::to_string(t.num_levels) + " levels");
  }
  const bool copy = t.level_rowptr != nullptr;
  const LevelRows m{t.level_rows, copy ? t.level_rowptr : t.rowptr, copy ? t.level_colind : t.colind,
                    copy ? t.level_values : t.values, copy};
  for (index_t level = level_begin; level < level_end; ++level) {
    const index_t first = t.host_level_ptr[level];
    const index_t count = t.host_level_ptr[level + 1] - first;
    if (count == 0) continue;
    if (t.host_level_nnz[level] >= kWarpRowEntries * count) {
      level_kernel<true><<<blocks_for_warps(count), kBlockThreads, 0, stream>>>(m, t.upper, first, count, b, x);
    } else {
      const auto blocks = static_cast<unsigned>((static_cast<std::int64_t>(count) + kBlockThreads - 1) / kBlockThreads);
      level_kernel<false><<<blocks, kBlockThreads, 0, stream>>>(m, t.upper, first, count, b, x);
    }
    check_cuda(cudaGetLastError(), "level_kernel launch in sptrsv_levelset_cuda");
  }
}

void sptrsv_levelset_cuda(cudaStream_t stream, const TriangularDeviceView& t, const double* b, double* x,
                          const SolveWorkspace& /*ws: no flags needed*/, SolveOrder /*order: always levels*/) {
  sptrsv_levelset_range_cuda(stream, t, b, x, 0, t.num_levels);
}

}  // namespace hetsparse::kernels
