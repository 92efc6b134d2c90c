// The level-ordered solve on the GPU (supernode_solve.hpp). Per level: a warp solves each small
// supernode whole; a thread block solves each diagonal block of the block class, cuBLAS those of the
// wide class with one right-hand side (with several: supernode_level_wide.hpp; the teams' code:
// supernode_level_team.cuh); the rows below of both go in tiles over
// many thread blocks. Forward, the rows below send their sums to the stage by atomic adds; backward,
// a tile's warps sum their rows for the tile's 32 columns (a lane per column) and the sums meet in
// shared memory, then reach the stage by atomic adds (a supernode's columns take several tiles).
// Several right-hand sides are split over teams (kRhsPerTeam below), each RB at a time.
#include <algorithm>
#include <string>
#include <type_traits>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_level_team.cuh"
#include "kernels/supernode/supernode_level_wide.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

using namespace level_solve_detail;

constexpr int kBlock = 256;        // threads of a block-class team
constexpr int kWarpsPerBlock = 4;  // warp teams per thread block of the warp-class launch
constexpr int kTileThreads = kLevelTileRows;
static_assert(kLevelTileCols == 32, "a tile's columns are a warp's lanes");
static_assert(kTileThreads % 32 == 0 && kLevelTileRows % (kTileThreads / 32) == 0, "tile rows split over its warps");

template <int RB, bool FORWARD>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    warp_class(const LevelSolvePanels panels, const LevelSolveEntry* __restrict__ entries, int begin, int end,
               const PanelLocation* __restrict__ loc, const std::int32_t* __restrict__ rows, double* stage, int ldn,
               int nrhs, int groups) {
  const int team = static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x) / 32;
  const int e = begin + team / groups;
  if (e >= end) return;  // the whole warp
  const RhsGroup g = rhs_group(team % groups, groups, stage, ldn, nrhs);
  stage = g.stage;
  nrhs = g.nrhs;
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
                int nrhs, int groups) {
  const int team = static_cast<int>(blockIdx.x);
  const RhsGroup g = rhs_group(team % groups, groups, stage, ldn, nrhs);
  stage = g.stage;
  nrhs = g.nrhs;
  const Supernode s = supernode(panels, entries[begin + team / groups], loc, rows, stage);
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
                int nrhs, int groups) {
  constexpr int kWarps = kTileThreads / 32, kRowsPerWarp = kLevelTileRows / kWarps;
  __shared__ double share[kWarps * 32 * RB];
  const int t = static_cast<int>(blockIdx.x) / groups;
  const RhsGroup g = rhs_group(static_cast<int>(blockIdx.x) % groups, groups, stage, ldn, nrhs);
  stage = g.stage;
  nrhs = g.nrhs;
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
        double acc[RB];
        row_times_columns<RB>(s, i, c0, c0 + cw, x, ldn, nb, acc);
        subtract_from_stage<RB>(stage, s.R[i], r0, ldn, nb, acc);
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
  int ldn, nrhs, sms;
};

// Right-hand sides go kRhsPerTeam at a time per team (warp, thread block, tile), the rest to other
// teams reading the same panel at the same time (adjacent in the grid, so mostly from L2): 16 in one
// team's registers ran slower than 8 twice. A level with few block-class supernodes gives each
// thread block fewer, down to one, so that about two teams per multiprocessor run: one block
// solving 16 right-hand sides on a diagonal block of ~1000 columns was the 16-rhs solve's longest
// step (docs/benchmarks.md, issue 15).
constexpr int kRhsPerTeam = 8;

int groups_of(int nrhs, int per) { return (nrhs + per - 1) / per; }

// f(std::integral_constant<int, RB>) for the register block of `per` right-hand sides.
template <typename F>
void with_rb(int per, F&& f) {
  if (per == 1) {
    f(std::integral_constant<int, 1>{});
  } else {
    static_assert(kRhsPerTeam == 8, "register blocks of 1 and 8");
    f(std::integral_constant<int, kRhsPerTeam>{});
  }
}

template <bool FORWARD>
void level(const Launch& a, int l, int& wide_index) {
  const std::int32_t* seg = a.s.segments + 3 * l;
  const int per = std::min(a.nrhs, kRhsPerTeam), groups = groups_of(a.nrhs, per);
  auto whole = [&] {
    if (seg[1] == seg[0]) return;
    const int teams = (seg[1] - seg[0]) * groups;
    with_rb(per, [&](auto rb) {
      warp_class<decltype(rb)::value, FORWARD>
          <<<static_cast<unsigned>((teams + kWarpsPerBlock - 1) / kWarpsPerBlock), 32 * kWarpsPerBlock, 0, a.stream>>>(
              a.panels, a.s.entries, seg[0], seg[1], a.loc, a.rows, a.stage, a.ldn, a.nrhs, groups);
    });
  };
  auto diagonals = [&] {
    if (seg[2] > seg[1]) {
      const int count = seg[2] - seg[1];
      const int g = std::max(groups, std::min(a.nrhs, groups_of(2 * a.sms, count)));
      with_rb((a.nrhs + g - 1) / g, [&](auto rb) {
        block_class<decltype(rb)::value, FORWARD><<<static_cast<unsigned>(count * g), kBlock, 0, a.stream>>>(
            a.panels, a.s.entries, seg[1], a.loc, a.rows, a.stage, a.ldn, a.nrhs, g);
      });
    }
    for (std::int32_t e = seg[2]; e < seg[3]; ++e, ++wide_index) {
      const LevelSolveWide& w = a.s.wide[wide_index];
      const double* D = a.panels.values[w.group] + w.offset;
      double* x = a.stage + w.first_col;
      if (a.nrhs == 1) {
        if constexpr (FORWARD) {
          supernode_diagonal_forward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, 1);
        } else {
          supernode_diagonal_backward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, 1);
        }
      } else if constexpr (FORWARD) {
        level_wide_forward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, a.nrhs);
      } else {
        level_wide_backward_cuda(a.handle, a.stream, D, w.nrows, w.ncols, x, a.ldn, a.nrhs);
      }
    }
  };
  auto tiles = [&] {
    if (a.s.tiles[l] == 0) return;
    with_rb(per, [&](auto rb) {
      below_tiles<decltype(rb)::value, FORWARD><<<static_cast<unsigned>(a.s.tiles[l] * groups), kTileThreads, 0,
                                                  a.stream>>>(a.panels, a.s.entries, seg[1], seg[3], a.loc, a.rows,
                                                              a.stage, a.ldn, a.nrhs, groups);
    });
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

template <bool FORWARD>
void levels(const Launch& a) {
  // The wide entries of the levels before the first one run (backward starts from the last level).
  int wide_index = 0;
  if (!FORWARD)
    for (int l = 0; l < a.s.levels; ++l) wide_index += a.s.segments[3 * l + 3] - a.s.segments[3 * l + 2];
  for (int k = 0; k < a.s.levels; ++k) {
    const int l = FORWARD ? k : a.s.levels - 1 - k;
    if (!FORWARD) wide_index -= a.s.segments[3 * l + 3] - a.s.segments[3 * l + 2];
    int at = wide_index;
    level<FORWARD>(a, l, at);
    if (FORWARD) wide_index = at;
  }
}

void run(const char* routine, Launch a, bool forward) {
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
  int device = 0;
  check_cuda(cudaGetDevice(&device), routine);
  check_cuda(cudaDeviceGetAttribute(&a.sms, cudaDevAttrMultiProcessorCount, device), routine);
  if (forward) {
    levels<true>(a);
  } else {
    levels<false>(a);
  }
  check_cuda(cudaGetLastError(), routine);
}

}  // namespace

void supernode_levels_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                   const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                   double* stage, int ldn, int nrhs) {
  run("supernode_levels_forward_cuda", {handle, stream, panels, s, loc, rows, stage, ldn, nrhs, 0}, true);
}

void supernode_levels_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                    const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                    double* stage, int ldn, int nrhs) {
  run("supernode_levels_backward_cuda", {handle, stream, panels, s, loc, rows, stage, ldn, nrhs, 0}, false);
}

}  // namespace hetsparse::kernels
