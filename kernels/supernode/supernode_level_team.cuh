// The per-supernode device code of the level-ordered solve (supernode_level_solve_cuda.cu): a team
// (one warp, or one thread block) solves a supernode's diagonal block 32 columns at a time. Warp 0
// solves each 32 x 32 triangle in registers (lane k holds row k; the chain is shuffles, no barrier
// per column), then the team updates the rest; with FULL the team also does the rows below.
#pragma once
#include <cstdint>

#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels::level_solve_detail {

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

// The right-hand sides of team k of `groups` (contiguous ranges of ceil(nrhs / groups)): its own
// view of the stage (from its first column) and how many it takes (0 for a team past the end).
struct RhsGroup {
  double* stage;
  int nrhs;
};
__device__ __forceinline__ RhsGroup rhs_group(int k, int groups, double* stage, int ldn, int nrhs) {
  const int per = (nrhs + groups - 1) / groups, first = k * per;
  return {stage + static_cast<long long>(first) * ldn, max(0, min(per, nrhs - first))};
}

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
// acc[q] = sum over the columns j in [j0, j1) of P(i, j) x(j, q), q < nb: row i of the panel against
// a column range of the supernode's unknowns.
template <int RB>
__device__ __forceinline__ void row_times_columns(const Supernode& s, int i, int j0, int j1, const double* x, int ldn,
                                                  int nb, double (&acc)[RB]) {
#pragma unroll
  for (int q = 0; q < RB; ++q) acc[q] = 0.0;
  for (int j = j0; j < j1; ++j) {
    const double l = s.P[i + static_cast<long long>(j) * s.nr];
#pragma unroll
    for (int q = 0; q < RB; ++q)
      if (q < nb) acc[q] += l * x[j + static_cast<long long>(q) * ldn];
  }
}

// stage(row, r0 + q) -= acc[q], q < nb, by atomics (other supernodes send to the same rows).
template <int RB>
__device__ __forceinline__ void subtract_from_stage(double* stage, long long row, int r0, int ldn, int nb,
                                                    const double (&acc)[RB]) {
#pragma unroll
  for (int q = 0; q < RB; ++q)
    if (q < nb) atomicAdd(stage + row + static_cast<long long>(r0 + q) * ldn, -acc[q]);
}

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
        double acc[RB];
        row_times_columns<RB>(s, i, jb, jb + w, x, ldn, nb, acc);
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
        double acc[RB];
        row_times_columns<RB>(s, i, j0, j1, x, ldn, nb, acc);
        subtract_from_stage<RB>(stage, s.R[i], r0, ldn, nb, acc);
      }
    }
  }
}

// Backward on one supernode by a team: each 32-column block takes off what the rows after it send
// (with FULL the rows below too; else only the diagonal block's, the tiles did the rest), then warp
// 0 solves it. share: kWarps * 32 * RB doubles of shared memory (TEAM > 32). The diagonal block's
// rows are the supernode's own columns, so without FULL s.R is not read (a part of a diagonal block
// can be solved, with s.x at its first column).
template <int TEAM, int RB, bool FULL>
__device__ void team_backward(const Supernode& s, const double* stage, int ldn, int nrhs, int tid, double* share) {
  constexpr int kWarps = TEAM / 32;
  const int lane = tid % 32, warp = tid / 32;
  const int row_end = FULL ? s.nr : s.nc;
  const long long own = s.x - stage;  // the stage's row of the block's first column
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
          const long long row = FULL ? static_cast<long long>(s.R[i]) : own + i;
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

}  // namespace hetsparse::kernels::level_solve_detail
