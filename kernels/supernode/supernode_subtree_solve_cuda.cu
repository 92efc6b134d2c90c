// The level-ordered leaf-subtree solve on the GPU (supernode_solve.hpp): one launch per level and
// team size, a team (one warp, or one block of kBlock threads) per supernode. Inside a team the
// diagonal block goes 32 columns at a time: warp 0 solves the 32 x 32 triangle in registers (its
// lane k holds row k; the chain is shuffles, no barrier per column), then the team updates the rest.
// Forward, the rows below are split into (row, 32 columns) items whose sums go to the stage by atomic
// adds, so many loads are in flight for a large panel; backward, each warp sums a share of the rows
// below for the block's 32 columns (a lane per column) and the shares meet in shared memory.
// Several right-hand sides go RB at a time (registers).
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kBlock = 256;        // threads of a block team
constexpr int kWarpsPerBlock = 4;  // warp teams per block of the warp-team launch
constexpr unsigned kFull = 0xffffffffu;

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

template <int TEAM>
__device__ __forceinline__ bool team_entry(const SubtreeSolvePanels& panels, const SubtreeSolveEntry* entries,
                                           int begin, int end, const PanelLocation* loc, const std::int32_t* rows,
                                           double* stage, Supernode& s) {
  constexpr int kTeams = TEAM == 32 ? kWarpsPerBlock : 1;
  const int e = begin + static_cast<int>(blockIdx.x) * kTeams + static_cast<int>(threadIdx.x) / TEAM;
  if (e >= end) return false;  // the whole team leaves together
  const SubtreeSolveEntry it = entries[e];
  const PanelLocation l = loc[it.supernode];
  s = {panels.values[it.group] + it.offset, rows + l.row_begin, l.nrows, l.ncols, stage + l.first_col};
  return true;
}

// x[jb .. jb + w) = L(B, B)^-1 x[jb .. jb + w) for the rhs block r0 .. r0 + nb, by one warp.
template <int RB>
__device__ __forceinline__ void warp_lower_solve(const Supernode& s, int jb, int w, int ldn, int nb, int lane) {
  double lrow[32];  // lrow[j] = L(jb + lane, jb + j), j <= lane
#pragma unroll
  for (int j = 0; j < 32; ++j)
    lrow[j] = lane < w && j <= lane ? s.P[jb + lane + static_cast<long long>(jb + j) * s.nr] : 0.0;
  double xr[RB];
#pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = lane < w && q < nb ? s.x[jb + lane + static_cast<long long>(q) * ldn] : 0.0;
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
    if (lane < w && q < nb) s.x[jb + lane + static_cast<long long>(q) * ldn] = xr[q];
}

// x[jb .. jb + w) = L(B, B)^-T (x[jb .. jb + w) - sub) for the rhs block, by one warp (sub: lane's).
template <int RB>
__device__ __forceinline__ void warp_upper_solve(const Supernode& s, int jb, int w, int ldn, int nb, int lane,
                                                 const double* sub) {
  double lcol[32];  // lcol[j] = L(jb + j, jb + lane), j >= lane
#pragma unroll
  for (int j = 0; j < 32; ++j)
    lcol[j] = lane < w && j < w && j >= lane ? s.P[jb + j + static_cast<long long>(jb + lane) * s.nr] : 0.0;
  double xr[RB];
#pragma unroll
  for (int q = 0; q < RB; ++q)
    xr[q] = lane < w && q < nb ? s.x[jb + lane + static_cast<long long>(q) * ldn] - sub[q] : 0.0;
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
    if (lane < w && q < nb) s.x[jb + lane + static_cast<long long>(q) * ldn] = xr[q];
}

template <int TEAM, int RB>
__global__ void __launch_bounds__(TEAM == 32 ? 32 * kWarpsPerBlock : TEAM)
    level_forward(const SubtreeSolvePanels panels, const SubtreeSolveEntry* __restrict__ entries, int begin, int end,
                  const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
                  int nrhs) {
  Supernode s;
  if (!team_entry<TEAM>(panels, entries, begin, end, loc, rows, stage, s)) return;
  const int tid = static_cast<int>(threadIdx.x) % TEAM, lane = tid % 32, warp = tid / 32;
  const int m = s.nr - s.nc, chunks = (s.nc + 31) / 32;
  for (int r0 = 0; r0 < nrhs; r0 += RB) {
    const int nb = min(RB, nrhs - r0);
    Supernode sr = s;
    sr.x = s.x + static_cast<long long>(r0) * ldn;
    for (int jb = 0; jb < s.nc; jb += 32) {
      const int w = min(32, s.nc - jb);
      if (warp == 0) warp_lower_solve<RB>(sr, jb, w, ldn, nb, lane);
      team_sync<TEAM>();
      for (int i = jb + w + tid; i < s.nc; i += TEAM) {  // the rest of the diagonal block
        double acc[RB] = {};
        for (int j = 0; j < w; ++j) {
          const double l = s.P[i + static_cast<long long>(jb + j) * s.nr];
#pragma unroll
          for (int q = 0; q < RB; ++q) acc[q] += l * sr.x[jb + j + static_cast<long long>(q) * ldn];
        }
#pragma unroll
        for (int q = 0; q < RB; ++q)
          if (q < nb) sr.x[i + static_cast<long long>(q) * ldn] -= acc[q];
      }
      team_sync<TEAM>();
    }
    // Rows below: item (row, 32-column chunk), consecutive threads on consecutive rows.
    for (int it = tid; it < m * chunks; it += TEAM) {
      const int c = it / m, i = s.nc + (it - c * m);
      const int j0 = c * 32, j1 = min(s.nc, j0 + 32);
      double acc[RB] = {};
      for (int j = j0; j < j1; ++j) {
        const double l = s.P[i + static_cast<long long>(j) * s.nr];
#pragma unroll
        for (int q = 0; q < RB; ++q) acc[q] += l * sr.x[j + static_cast<long long>(q) * ldn];
      }
      const long long row = s.R[i];
#pragma unroll
      for (int q = 0; q < RB; ++q)
        if (q < nb) atomicAdd(stage + row + static_cast<long long>(r0 + q) * ldn, -acc[q]);
    }
  }
}

template <int TEAM, int RB>
__global__ void __launch_bounds__(TEAM == 32 ? 32 * kWarpsPerBlock : TEAM)
    level_backward(const SubtreeSolvePanels panels, const SubtreeSolveEntry* __restrict__ entries, int begin, int end,
                   const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
                   int nrhs) {
  constexpr int kWarps = TEAM / 32;
  __shared__ double share[TEAM == 32 ? 1 : kWarps * 32 * RB];  // per warp, lane, rhs: the warp's sums
  Supernode s;
  if (!team_entry<TEAM>(panels, entries, begin, end, loc, rows, stage, s)) return;
  const int tid = static_cast<int>(threadIdx.x) % TEAM, lane = tid % 32, warp = tid / 32;
  for (int r0 = 0; r0 < nrhs; r0 += RB) {
    const int nb = min(RB, nrhs - r0);
    Supernode sr = s;
    sr.x = s.x + static_cast<long long>(r0) * ldn;
    const double* z = stage + static_cast<long long>(r0) * ldn;
    for (int jb = (s.nc - 1) / 32 * 32; jb >= 0; jb -= 32) {
      const int w = min(32, s.nc - jb);
      // sub = L(rows after the block, B)^T z: warp `warp` takes a contiguous share of those rows,
      // lane k column jb + k; z is solved there (this supernode's later columns, or its ancestors').
      const int first = jb + w, count = s.nr - first, per = (count + kWarps - 1) / kWarps;
      const int i0 = first + warp * per, i1 = min(s.nr, i0 + per);
      double sub[RB] = {};
      if (lane < w) {
        const double* col = s.P + static_cast<long long>(jb + lane) * s.nr;
        for (int i = i0; i < i1; ++i) {
          const double l = col[i];
          const long long row = s.R[i];
#pragma unroll
          for (int q = 0; q < RB; ++q) sub[q] += l * z[row + static_cast<long long>(q) * ldn];
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
      if (warp == 0) warp_upper_solve<RB>(sr, jb, w, ldn, nb, lane, sub);
      team_sync<TEAM>();
    }
  }
}

template <bool FORWARD, int RB>
void launch_levels(cudaStream_t stream, const SubtreeSolvePanels& panels, const SubtreeSolveSchedule& s,
                   const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn, int nrhs) {
  for (int k = 0; k < s.levels; ++k) {
    const int level = FORWARD ? k : s.levels - 1 - k;
    const std::int32_t b = s.segments[2 * level], mid = s.segments[2 * level + 1], e = s.segments[2 * level + 2];
    if (mid > b) {
      const unsigned grid = static_cast<unsigned>((mid - b + kWarpsPerBlock - 1) / kWarpsPerBlock);
      if constexpr (FORWARD) {
        level_forward<32, RB><<<grid, 32 * kWarpsPerBlock, 0, stream>>>(panels, s.entries, b, mid, loc, rows, stage,
                                                                         ldn, nrhs);
      } else {
        level_backward<32, RB><<<grid, 32 * kWarpsPerBlock, 0, stream>>>(panels, s.entries, b, mid, loc, rows, stage,
                                                                          ldn, nrhs);
      }
    }
    if (e > mid) {
      const unsigned grid = static_cast<unsigned>(e - mid);
      if constexpr (FORWARD) {
        level_forward<kBlock, RB><<<grid, kBlock, 0, stream>>>(panels, s.entries, mid, e, loc, rows, stage, ldn, nrhs);
      } else {
        level_backward<kBlock, RB><<<grid, kBlock, 0, stream>>>(panels, s.entries, mid, e, loc, rows, stage, ldn, nrhs);
      }
    }
  }
}

template <bool FORWARD>
void run(const char* routine, cudaStream_t stream, const SubtreeSolvePanels& panels, const SubtreeSolveSchedule& s,
         const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn, int nrhs) {
  if (s.levels < 0 || nrhs < 0 || ldn < 0)
    throw InvalidArgument(std::string(routine) + ": levels = " + std::to_string(s.levels) + ", nrhs = " +
                          std::to_string(nrhs) + ", ldn = " + std::to_string(ldn));
  if (s.levels == 0 || nrhs == 0) return;
  if (!s.segments || !loc || !rows || !stage || (s.segments[2 * s.levels] > s.segments[0] && !s.entries))
    throw InvalidArgument(std::string(routine) + ": a null array");
  for (int k = 0; k < 2 * s.levels; ++k)
    if (s.segments[k + 1] < s.segments[k] || s.segments[0] < 0)
      throw InvalidArgument(std::string(routine) + ": segment " + std::to_string(k) + " ends before it starts");
  if (nrhs == 1) {
    launch_levels<FORWARD, 1>(stream, panels, s, loc, rows, stage, ldn, nrhs);
  } else {
    launch_levels<FORWARD, 8>(stream, panels, s, loc, rows, stage, ldn, nrhs);
  }
  check_cuda(cudaGetLastError(), routine);
}

}  // namespace

void supernode_subtrees_forward_cuda(cudaStream_t stream, const SubtreeSolvePanels& panels,
                                     const SubtreeSolveSchedule& s, const PanelLocation* loc,
                                     const std::int32_t* rows, double* stage, int ldn, int nrhs) {
  run<true>("supernode_subtrees_forward_cuda", stream, panels, s, loc, rows, stage, ldn, nrhs);
}

void supernode_subtrees_backward_cuda(cudaStream_t stream, const SubtreeSolvePanels& panels,
                                      const SubtreeSolveSchedule& s, const PanelLocation* loc,
                                      const std::int32_t* rows, double* stage, int ldn, int nrhs) {
  run<false>("supernode_subtrees_backward_cuda", stream, panels, s, loc, rows, stage, ldn, nrhs);
}

}  // namespace hetsparse::kernels
