// Leaf-subtree groups of the supernodal solve on the GPU (supernode_solve.hpp): one thread block per
// group, every group of a call in one launch. Inside a block the group's supernodes go in postorder
// (forward) or reverse postorder (backward): the diagonal block column by column, the rows below by
// one thread (forward) or one warp (backward) per row / column. The groups' right-hand sides come
// from the stage (the factor's order) and, backward, their external unknowns too (the ancestors'
// solutions stored there first); the backward sweep writes each group's solution back into it.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ int find_row(const std::int32_t* ext, int next, std::int32_t row) {
  int lo = 0, hi = next;  // first position with ext[p] >= row (row is there: the planner's rows)
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ext[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
    subtrees_forward(const SubtreeSolveItem* __restrict__ items, const PanelLocation* __restrict__ loc,
                     const std::int32_t* __restrict__ rows, const double* __restrict__ stage, int ldn, int nrhs) {
  const SubtreeSolveItem g = items[blockIdx.x];
  const int n = g.c1 - g.c0;
  for (int e = threadIdx.x; e < n * nrhs; e += kThreads) {
    const int r = e / n, i = e - r * n;
    g.x[i + static_cast<long long>(r) * n] = stage[g.c0 + i + static_cast<long long>(r) * ldn];
  }
  for (int e = threadIdx.x; e < g.next * nrhs; e += kThreads) g.ext[e] = 0.0;
  __syncthreads();
  const long long base = loc[g.first].value_offset;
  for (int s = g.first; s < g.last; ++s) {
    const PanelLocation l = loc[s];
    const double* P = g.values + (l.value_offset - base);
    const std::int32_t* R = rows + l.row_begin;
    double* xs = g.x + (l.first_col - g.c0);
    const int nc = l.ncols, nr = l.nrows, m = nr - nc;
    for (int j = 0; j < nc; ++j) {
      for (int r = threadIdx.x; r < nrhs; r += kThreads) xs[j + r * n] /= P[j + static_cast<long long>(j) * nr];
      __syncthreads();
      const int rest = nc - 1 - j;
      for (int e = threadIdx.x; e < rest * nrhs; e += kThreads) {
        const int r = e / rest, i = j + 1 + (e - r * rest);
        xs[i + r * n] -= P[i + static_cast<long long>(j) * nr] * xs[j + r * n];
      }
      __syncthreads();
    }
    for (int e = threadIdx.x; e < m * nrhs; e += kThreads) {
      const int r = e / m, i = e - r * m;
      double v = 0.0;
      for (int j = 0; j < nc; ++j) v += P[nc + i + static_cast<long long>(j) * nr] * xs[j + r * n];
      const std::int32_t row = R[nc + i];
      if (row < g.c1) {
        g.x[row - g.c0 + r * n] -= v;  // a later supernode's unknown: rows of one panel are distinct
      } else {
        g.ext[find_row(g.ext_rows, g.next, row) + r * g.next] += v;
      }
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kThreads)
    subtrees_backward(const SubtreeSolveItem* __restrict__ items, const PanelLocation* __restrict__ loc,
                      const std::int32_t* __restrict__ rows, double* __restrict__ stage, int ldn, int nrhs) {
  const SubtreeSolveItem g = items[blockIdx.x];
  const int n = g.c1 - g.c0;
  for (int e = threadIdx.x; e < g.next * nrhs; e += kThreads) {
    const int r = e / g.next, p = e - r * g.next;
    g.ext[e] = stage[g.ext_rows[p] + static_cast<long long>(r) * ldn];
  }
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long base = loc[g.first].value_offset;
  for (int s = g.last - 1; s >= g.first; --s) {
    const PanelLocation l = loc[s];
    const double* P = g.values + (l.value_offset - base);
    const std::int32_t* R = rows + l.row_begin;
    double* xs = g.x + (l.first_col - g.c0);
    const int nc = l.ncols, nr = l.nrows, m = nr - nc;
    // xs -= L21^T (the solved unknowns of the rows below): one warp per (column, right-hand side).
    for (int jr = warp; jr < nc * nrhs; jr += kWarps) {
      const int r = jr / nc, j = jr - r * nc;
      double v = 0.0;
      for (int i = lane; i < m; i += 32) {
        const std::int32_t row = R[nc + i];
        const double u = row < g.c1 ? g.x[row - g.c0 + r * n] : g.ext[find_row(g.ext_rows, g.next, row) + r * g.next];
        v += P[nc + i + static_cast<long long>(j) * nr] * u;
      }
      for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
      if (lane == 0) xs[j + r * n] -= v;
    }
    __syncthreads();
    // L11^T xs = rhs, from the last column up: one warp per right-hand side.
    for (int j = nc - 1; j >= 0; --j) {
      for (int r = warp; r < nrhs; r += kWarps) {
        double v = 0.0;
        for (int i = j + 1 + lane; i < nc; i += 32) v += P[i + static_cast<long long>(j) * nr] * xs[i + r * n];
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) xs[j + r * n] = (xs[j + r * n] - v) / P[j + static_cast<long long>(j) * nr];
      }
      __syncthreads();
    }
  }
  for (int e = threadIdx.x; e < n * nrhs; e += kThreads) {
    const int r = e / n, i = e - r * n;
    stage[g.c0 + i + static_cast<long long>(r) * ldn] = g.x[i + static_cast<long long>(r) * n];
  }
}

void check(const char* routine, const SubtreeSolveItem* items, int count, const PanelLocation* loc,
           const std::int32_t* rows, const double* stage, int ldn, int nrhs) {
  if (count < 0 || nrhs < 0 || ldn < 0 || (count > 0 && nrhs > 0 && (!items || !loc || !rows || !stage)))
    throw InvalidArgument(std::string(routine) + ": count = " + std::to_string(count) + ", nrhs = " +
                          std::to_string(nrhs) + ", ldn = " + std::to_string(ldn) + " or a null pointer");
}

// The items in device memory for one launch (stream-ordered allocation, freed after the kernel).
template <class Launch>
void with_device_items(const char* routine, cudaStream_t stream, const SubtreeSolveItem* items, int count,
                       Launch&& launch) {
  SubtreeSolveItem* d = nullptr;
  const std::size_t bytes = sizeof(SubtreeSolveItem) * static_cast<std::size_t>(count);
  check_cuda(cudaMallocAsync(reinterpret_cast<void**>(&d), bytes, stream), routine);
  // A pageable source is staged before cudaMemcpyAsync returns: the caller's items may go.
  check_cuda(cudaMemcpyAsync(d, items, bytes, cudaMemcpyHostToDevice, stream), routine);
  launch(d);
  check_cuda(cudaGetLastError(), routine);
  check_cuda(cudaFreeAsync(d, stream), routine);
}

}  // namespace

void supernode_subtrees_forward_cuda(cudaStream_t stream, const SubtreeSolveItem* items, int count,
                                     const PanelLocation* loc, const std::int32_t* rows, const double* stage, int ldn,
                                     int nrhs) {
  constexpr const char* routine = "supernode_subtrees_forward_cuda";
  check(routine, items, count, loc, rows, stage, ldn, nrhs);
  if (count == 0 || nrhs == 0) return;
  with_device_items(routine, stream, items, count, [&](const SubtreeSolveItem* d) {
    subtrees_forward<<<static_cast<unsigned>(count), kThreads, 0, stream>>>(d, loc, rows, stage, ldn, nrhs);
  });
}

void supernode_subtrees_backward_cuda(cudaStream_t stream, const SubtreeSolveItem* items, int count,
                                      const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn,
                                      int nrhs) {
  constexpr const char* routine = "supernode_subtrees_backward_cuda";
  check(routine, items, count, loc, rows, stage, ldn, nrhs);
  if (count == 0 || nrhs == 0) return;
  with_device_items(routine, stream, items, count, [&](const SubtreeSolveItem* d) {
    subtrees_backward<<<static_cast<unsigned>(count), kThreads, 0, stream>>>(d, loc, rows, stage, ldn, nrhs);
  });
}

}  // namespace hetsparse::kernels
