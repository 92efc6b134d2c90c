// The level-ordered solve on the GPU (supernode_solve.hpp). Per level: a warp solves each small
// supernode whole; a thread block solves each diagonal block of the block class, cuBLAS those of the
// wide class; the rows below of both go in tiles over many thread blocks. A diagonal block goes 32
// columns at a time: warp 0 solves the 32 x 32 triangle in registers (lane k holds row k; the chain
// is shuffles, no barrier per column), then the team updates the rest. Forward, the rows below send
// their sums to the stage by atomic adds; backward, a tile's warps sum their rows for the tile's 32
// columns (a lane per column) and the sums meet in shared memory, then reach the stage by atomic
// adds (a supernode's columns take several tiles). Several right-hand sides go RB at a time.
#include <algorithm>
#include <string>
#include <type_traits>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kBlock = 256;        // threads of a block-class team
constexpr int kWarpsPerBlock = 4;  // warp teams per thread block of the warp-class launch
constexpr int kTileThreads = kLevelTileRows;
constexpr unsigned kFull = 0xffffffffu;
static_assert(kLevelTileCols == 32, "a tile's columns are a warp's lanes");
static_assert(kTileThreads % 32 == 0 && kLevelTileRows % (kTileThreads / 32) == 0, "tile rows split over its warps");

template <int TEAM>
__device__ __forceinline__ void team_sync() {
  if constexpr (TEAM == 32) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

struct Supernode {
  const double* P;
  const std::int32_t* R;
  int nr, nc;
  double* x;  // the stage at the supernode's first column
};

__device__ __forceinline__ Supernode supernode(const LevelSolvePanels& panels, const LevelSolveEntry& it,
                                               const PanelLocation* loc, const std::int32_t* rows, double* stage) {
  const PanelLocation l = loc[it.supernode];
  return {panels.values[it.group] + it.offset, rows + l.row_begin, l.nrows, l.ncols, stage + l.first_col};
}

// x[jb .. jb + w) = L(B, B)^-1 x[jb .. jb + w) for nb right-hand sides (ld ldn), by one warp.
template <int RB>
__device__ __forceinline__ void warp_lower_solve(const Supernode& s, double* x, int jb, int w, int ldn, int nb,
                                                 int lane) {
  double lrow[32];  // lrow[j] = L(jb + lane, jb + j), j <= lane
#pragma unroll
  for (int j = 0; j < 32; ++j)
    lrow[j] = lane < w && j <= lane ? s.P[jb + lane + static_cast<long long>(jb + j) * s.nr] : 0.0;
  double xr[RB];
#pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = lane < w && q < nb ? x[jb + lane + static_cast<long long>(q) * ldn] : 0.0;
#pragma unroll
  for (int j = 0; j < 32; ++j) {
    if (j < w) {  // w is the same on every lane
      const double inv = 1.0 / __shfl_sync(kFull, lrow[j], j);
#pragma unroll
      for (int q = 0; q < RB; ++q) {
        const double y = __shfl_sync(kFull, xr[q], j) * inv;
        xr[q] = lane == j ? y : lane > j ? xr[q] - lrow[j] * y : xr[q];
      }
    }
  }
#pragma unroll
  for (int q = 0; q < RB; ++q)
    if (lane < w && q < nb) x[jb + lane + static_cast<long long>(q) * ldn] = xr[q];
}

// x[jb .. jb + w) = L(B, B)^-T (x[jb .. jb + w) - sub) for nb right-hand sides, by one warp.
template <int RB>
__device__ __forceinline__ void warp_upper_solve(const Supernode& s, double* x, int jb, int w, int ldn, int nb,
                                                 int lane, const double* sub) {
  double lcol[32];  // lcol[j] = L(jb + j, jb + lane), j >= lane
#pragma unroll
  for (int j = 0; j < 32; ++j)
    lcol[j] = lane < w && j < w && j >= lane ? s.P[jb + j + static_cast<long long>(jb + lane) * s.nr] : 0.0;
  double xr[RB];
#pragma unroll
  for (int q = 0; q < RB; ++q)
    xr[q] = lane < w && q < nb ? x[jb + lane + static_cast<long long>(q) * ldn] - sub[q] : 0.0;
#pragma unroll
  for (int j = 31; j >= 0; --j) {
    if (j < w) {
      const double inv = 1.0 / __shfl_sync(kFull, lcol[j], j);
#pragma unroll
      for (int q = 0; q < RB; ++q) {
        const double y = __shfl_sync(kFull, xr[q], j) * inv;
        xr[q] = lane == j ? y : lane < j ? xr[q] - lcol[j] * y : xr[q];
      }
    }
  }
#pragma unroll
  for (int q = 0; q < RB; ++q)
    if (lane < w && q < nb) x[jb + lane + static_cast<long long>(q) * ldn] = xr[q];
}

// Forward on one supernode by a team: the diagonal block, and with FULL the rows below too
// ((row, 32 columns) items, consecutive lanes on consecutive rows).
template <int TEAM, int RB, bool FULL>
__device__ void team_forward(const Supernode& s, double* stage, int ldn, int nrhs, int tid) {
  const int lane = tid % 32, warp = tid / 32;
  for (int r0 = 0; r0 < nrhs; r0 += RB) {
    const int nb = min(RB, nrhs - r0);
    double* x = s.x + static_cast<long long>(r0) * ldn;
    for (int jb = 0; jb < s.nc; jb += 32) {
      const int w = min(32, s.nc - jb);
      if (warp == 0) warp_lower_solve<RB>(s, x, jb, w, ldn, nb, lane);
      team_sync<TEAM>();
      for (int i = jb + w + tid; i < s.nc; i += TEAM) {  // the rest of the diagonal block
        double acc[RB] = {};
        for (int j = 0; j < w; ++j) {
          const double l = s.P[i + static_cast<long long>(jb + j) * s.nr];
#pragma unroll
          for (int q = 0; q < RB; ++q)
            if (q < nb) acc[q] += l * x[jb + j + static_cast<long long>(q) * ldn];
        }
#pragma unroll
        for (int q = 0; q < RB; ++q)
          if (q < nb) x[i + static_cast<long long>(q) * ldn] -= acc[q];
      }
      team_sync<TEAM>();
    }
    if constexpr (FULL) {
      const int m = s.nr - s.nc, chunks = (s.nc + 31) / 32;
      for (int it = tid; it < m * chunks; it += TEAM) {
        const int c = it / m, i = s.nc + (it - c * m);
        const int j0 = c * 32, j1 = min(s.nc, j0 + 32);
        double acc[RB] = {};
        for (int j = j0; j < j1; ++j) {
          const double l = s.P[i + static_cast<long long>(j) * s.nr];
#pragma unroll
          for (int q = 0; q < RB; ++q)
            if (q < nb) acc[q] += l * x[j + static_cast<long long>(q) * ldn];
        }
        const long long row = s.R[i];
#pragma unroll
        for (int q = 0; q < RB; ++q)
          if (q < nb) atomicAdd(stage + row + static_cast<long long>(r0 + q) * ldn, -acc[q]);
      }
    }
  }
}

// Backward on one supernode by a team: each 32-column block takes off what the rows after it send
// (with FULL the rows below too; else only the diagonal block's, the tiles did the rest), then warp
// 0 solves it. share: kWarps * 32 * RB doubles of shared memory (TEAM > 32).
template <int TEAM, int RB, bool FULL>
__device__ void team_backward(const Supernode& s, const double* stage, int ldn, int nrhs, int tid, double* share) {
  constexpr int kWarps = TEAM / 32;
  const int lane = tid % 32, warp = tid / 32;
  const int row_end = FULL ? s.nr : s.nc;
  for (int r0 = 0; r0 < nrhs; r0 += RB) {
    const int nb = min(RB, nrhs - r0);
    double* x = s.x + static_cast<long long>(r0) * ldn;
    const double* z = stage + static_cast<long long>(r0) * ldn;
    for (int jb = (s.nc - 1) / 32 * 32; jb >= 0; jb -= 32) {
      const int w = min(32, s.nc - jb);
      // Warp `warp` takes a contiguous share of the rows after the block, lane k column jb + k; z is
      // solved there (this supernode's later columns, or its ancestors').
      const int first = jb + w, per = (row_end - first + kWarps - 1) / kWarps;
      const int i0 = first + warp * per, i1 = min(row_end, i0 + per);
      double sub[RB] = {};
      if (lane < w) {
        const double* col = s.P + static_cast<long long>(jb + lane) * s.nr;
        for (int i = i0; i < i1; ++i) {
          const double l = col[i];
          const long long row = s.R[i];
#pragma unroll
          for (int q = 0; q < RB; ++q)
            if (q < nb) sub[q] += l * z[row + static_cast<long long>(q) * ldn];
        }
      }
      if constexpr (TEAM > 32) {
#pragma unroll
        for (int q = 0; q < RB; ++q) share[(warp * RB + q) * 32 + lane] = sub[q];
        __syncthreads();
        if (warp == 0) {
#pragma unroll
          for (int q = 0; q < RB; ++q) {
            sub[q] = 0.0;
            for (int k = 0; k < kWarps; ++k) sub[q] += share[(k * RB + q) * 32 + lane];
          }
        }
      }
      if (warp == 0) warp_upper_solve<RB>(s, x, jb, w, ldn, nb, lane, sub);
      team_sync<TEAM>();
    }
  }
}

template <int RB, bool FORWARD>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    warp_class(const LevelSolvePanels panels, const LevelSolveEntry* __restrict__ entries, int begin, int end,
               const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
               int nrhs) {
  const int e = begin + static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x) / 32;
  if (e >= end) return;  // the whole warp
  const Supernode s = supernode(panels, entries[e], loc, rows, stage);
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if constexpr (FORWARD) {
    team_forward<32, RB, true>(s, stage, ldn, nrhs, lane);
  } else {
    team_backward<32, RB, true>(s, stage, ldn, nrhs, lane, nullptr);
  }
}

template <int RB, bool FORWARD>
__global__ void __launch_bounds__(kBlock)
    block_class(const LevelSolvePanels panels, const LevelSolveEntry* __restrict__ entries, int begin,
                const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
                int nrhs) {
  const Supernode s = supernode(panels, entries[begin + static_cast<int>(blockIdx.x)], loc, rows, stage);
  if constexpr (FORWARD) {
    team_forward<kBlock, RB, false>(s, stage, ldn, nrhs, static_cast<int>(threadIdx.x));
  } else {
    __shared__ double share[kBlock / 32 * 32 * RB];
    team_backward<kBlock, RB, false>(s, stage, ldn, nrhs, static_cast<int>(threadIdx.x), share);
  }
}

// The tiles of the rows below of entries [begin, end) (block and wide classes of one level).
template <int RB, bool FORWARD>
__global__ void __launch_bounds__(kTileThreads)
    below_tiles(const LevelSolvePanels panels, const LevelSolveEntry* __restrict__ entries, int begin, int end,
                const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
                int nrhs) {
  constexpr int kWarps = kTileThreads / 32, kRowsPerWarp = kLevelTileRows / kWarps;
  __shared__ double share[kWarps * 32 * RB];
  const int t = static_cast<int>(blockIdx.x);
  int lo = begin, hi = end - 1;  // the last entry whose tiles start at or before t
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (entries[mid].tile_begin <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const LevelSolveEntry it = entries[lo];
  const Supernode s = supernode(panels, it, loc, rows, stage);
  const int m = s.nr - s.nc, row_tiles = (m + kLevelTileRows - 1) / kLevelTileRows;
  const int local = t - it.tile_begin, rt = local % row_tiles, ct = local / row_tiles;
  const int i_begin = s.nc + rt * kLevelTileRows, i_end = min(s.nr, i_begin + kLevelTileRows);
  const int c0 = ct * kLevelTileCols, cw = min(kLevelTileCols, s.nc - c0);
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  for (int r0 = 0; r0 < nrhs; r0 += RB) {
    const int nb = min(RB, nrhs - r0);
    const double* x = s.x + static_cast<long long>(r0) * ldn;
    if constexpr (FORWARD) {  // a thread per row: its sum over the tile's columns into the stage
      const int i = i_begin + tid;
      if (i < i_end) {
        double acc[RB] = {};
        for (int j = c0; j < c0 + cw; ++j) {
          const double l = s.P[i + static_cast<long long>(j) * s.nr];
#pragma unroll
          for (int q = 0; q < RB; ++q)
            if (q < nb) acc[q] += l * x[j + static_cast<long long>(q) * ldn];
        }
        const long long row = s.R[i];
#pragma unroll
        for (int q = 0; q < RB; ++q)
          if (q < nb) atomicAdd(stage + row + static_cast<long long>(r0 + q) * ldn, -acc[q]);
      }
    } else {  // a lane per column, the warps split the rows; their sums into the supernode's unknowns
      double sub[RB] = {};
      if (lane < cw) {
        const double* col = s.P + static_cast<long long>(c0 + lane) * s.nr;
        const int w0 = i_begin + warp * kRowsPerWarp, w1 = min(i_end, w0 + kRowsPerWarp);
        for (int i = w0; i < w1; ++i) {
          const double l = col[i];
          const long long row = s.R[i];
#pragma unroll
          for (int q = 0; q < RB; ++q)
            if (q < nb) sub[q] += l * stage[row + static_cast<long long>(r0 + q) * ldn];
        }
      }
#pragma unroll
      for (int q = 0; q < RB; ++q) share[(warp * RB + q) * 32 + lane] = sub[q];
      __syncthreads();
      if (warp == 0 && lane < cw) {
#pragma unroll
        for (int q = 0; q < RB; ++q) {
          double v = 0.0;
          for (int k = 0; k < kWarps; ++k) v += share[(k * RB + q) * 32 + lane];
          if (q < nb) atomicAdd(s.x + c0 + lane + static_cast<long long>(r0 + q) * ldn, -v);
        }
      }
      __syncthreads();  // share is rewritten by the next block of right-hand sides
    }
  }
}

struct Launch {
  cublasHandle_t handle;
  cudaStream_t stream;
  const LevelSolvePanels& panels;
  const LevelSolveSchedule& s;
  const PanelLocation* loc;
  const std::int32_t* rows;
  double* stage;
  int ldn, nrhs;
};

template <int RB, bool FORWARD>
void level(const Launch& a, int l, int& wide_index) {
  const std::int32_t* seg = a.s.segments + 3 * l;
  auto whole = [&] {
    if (seg[1] > seg[0])
      warp_class<RB, FORWARD><<<static_cast<unsigned>((seg[1] - seg[0] + kWarpsPerBlock - 1) / kWarpsPerBlock),
                                32 * kWarpsPerBlock, 0, a.stream>>>(a.panels, a.s.entries, seg[0], seg[1], a.loc,
                                                                    a.rows, a.stage, a.ldn, a.nrhs);
  };
  auto diagonals = [&] {
    if (seg[2] > seg[1])
      block_class<RB, FORWARD><<<static_cast<unsigned>(seg[2] - seg[1]), kBlock, 0, a.stream>>>(
          a.panels, a.s.entries, seg[1], a.loc, a.rows, a.stage, a.ldn, a.nrhs);
    for (std::int32_t e = seg[2]; e < seg[3]; ++e, ++wide_index) {
      const LevelSolveWide& w = a.s.wide[wide_index];
      const double* D = a.panels.values[w.group] + w.offset;
      double* x = a.stage + w.first_col;
      if constexpr (FORWARD) {
        supernode_diagonal_forward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, a.nrhs);
      } else {
        supernode_diagonal_backward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, a.nrhs);
      }
    }
  };
  auto tiles = [&] {
    if (a.s.tiles[l] > 0)
      below_tiles<RB, FORWARD><<<static_cast<unsigned>(a.s.tiles[l]), kTileThreads, 0, a.stream>>>(
          a.panels, a.s.entries, seg[1], seg[3], a.loc, a.rows, a.stage, a.ldn, a.nrhs);
  };
  if constexpr (FORWARD) {  // the rows below need the solved columns
    whole();
    diagonals();
    tiles();
  } else {  // the columns need what the rows below send back
    tiles();
    whole();
    diagonals();
  }
}

template <int RB, bool FORWARD>
void levels(const Launch& a) {
  constexpr bool forward = FORWARD;
  // The wide entries of the levels before the first one run (backward starts from the last level).
  int wide_index = 0;
  if (!forward)
    for (int l = 0; l < a.s.levels; ++l) wide_index += a.s.segments[3 * l + 3] - a.s.segments[3 * l + 2];
  for (int k = 0; k < a.s.levels; ++k) {
    const int l = forward ? k : a.s.levels - 1 - k;
    if (!forward) wide_index -= a.s.segments[3 * l + 3] - a.s.segments[3 * l + 2];
    int at = wide_index;
    level<RB, FORWARD>(a, l, at);
    if (forward) wide_index = at;
  }
}

void run(const char* routine, const Launch& a, bool forward) {
  const LevelSolveSchedule& s = a.s;
  if (s.levels < 0 || a.nrhs < 0 || a.ldn < 0)
    throw InvalidArgument(std::string(routine) + ": levels = " + std::to_string(s.levels) + ", nrhs = " +
                          std::to_string(a.nrhs) + ", ldn = " + std::to_string(a.ldn));
  if (s.levels == 0 || a.nrhs == 0) return;
  if (!s.segments || !s.tiles || !a.loc || !a.rows || !a.stage || (s.segments[3 * s.levels] > s.segments[0] && !s.entries))
    throw InvalidArgument(std::string(routine) + ": a null array");
  for (int k = 0; k < 3 * s.levels; ++k)
    if (s.segments[k + 1] < s.segments[k] || s.segments[0] < 0)
      throw InvalidArgument(std::string(routine) + ": segment " + std::to_string(k) + " ends before it starts");
  for (int l = 0; l < s.levels; ++l)
    if (s.tiles[l] < 0 || (s.segments[3 * l + 3] > s.segments[3 * l + 2] && !s.wide))
      throw InvalidArgument(std::string(routine) + ": level " + std::to_string(l) + " has no tiles count or wide list");
  // Right-hand sides in register blocks of 1, 8 or 16 (16 at once reads each panel once).
  auto dispatch = [&](auto direction) {
    constexpr bool kForward = decltype(direction)::value;
    if (a.nrhs == 1) {
      levels<1, kForward>(a);
    } else if (a.nrhs <= 8) {
      levels<8, kForward>(a);
    } else {
      levels<16, kForward>(a);
    }
  };
  if (forward) {
    dispatch(std::true_type{});
  } else {
    dispatch(std::false_type{});
  }
  check_cuda(cudaGetLastError(), routine);
}

}  // namespace

void supernode_levels_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                   const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                   double* stage, int ldn, int nrhs) {
  run("supernode_levels_forward_cuda", {handle, stream, panels, s, loc, rows, stage, ldn, nrhs}, true);
}

void supernode_levels_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                    const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                    double* stage, int ldn, int nrhs) {
  run("supernode_levels_backward_cuda", {handle, stream, panels, s, loc, rows, stage, ldn, nrhs}, false);
}

}  // namespace hetsparse::kernels
