// The supernodal solve's data movement on the GPU: contributions subtracted from a group's unknowns,
// ancestors' unknowns gathered into its external block, the right-hand side permuted into the
// factor's order and the solution stored back. The moves and blocks of one call travel in the
// kernel's parameters (a few KB per launch): no table to copy to the device first.
#include <algorithm>
#include <cstddef>

#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

constexpr int kThreads = 256;
constexpr long long kMaxBlocksPerItem = 256;  // grid-stride beyond
constexpr int kMovesPerLaunch = 32;
constexpr int kBlocksPerLaunch = 64;

template <class Item, int kCapacity>
struct Batch {
  Item items[kCapacity];
};

// Entry e of a move: right-hand side e / length, position p0 + e % length. Rows outside the block
// (a planner error) are skipped. Contributions of several descendants may reach one unknown in the
// same launch: subtraction is atomic.
template <bool kGather>
__global__ void __launch_bounds__(kThreads) move_entries(Batch<SolveMove, kMovesPerLaunch> batch, int nrhs) {
  const SolveMove m = batch.items[blockIdx.y];
  const long long length = m.p1 - m.p0;
  const long long total = length * nrhs;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long e = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; e < total; e += stride) {
    const long long r = e / length;
    const long long p = m.p0 + (e - r * length);
    const long long i = static_cast<long long>(m.rows[p]) - m.c0;
    if (i < 0 || i >= m.block_rows) continue;
    double* unknown = m.block + i + r * m.ldb;
    double* compact = m.compact + p + r * m.ldc;
    if constexpr (kGather) {
      *compact = *unknown;
    } else {
      atomicAdd(unknown, -*compact);
    }
  }
}

template <bool kGather>
void launch_moves(const char* routine, cudaStream_t stream, const SolveMove* moves, int count, int nrhs) {
  check_solve_moves(routine, moves, count, nrhs);
  if (nrhs == 0) return;
  for (int first = 0; first < count; first += kMovesPerLaunch) {
    Batch<SolveMove, kMovesPerLaunch> batch{};
    const int n = std::min(kMovesPerLaunch, count - first);
    long long longest = 0;
    for (int u = 0; u < n; ++u) {
      batch.items[u] = moves[first + u];
      longest = std::max<long long>(longest, static_cast<long long>(moves[first + u].p1 - moves[first + u].p0) * nrhs);
    }
    if (longest == 0) continue;
    const long long blocks = std::min(kMaxBlocksPerItem, (longest + kThreads - 1) / kThreads);
    move_entries<kGather><<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(n)), kThreads, 0, stream>>>(
        batch, nrhs);
    check_cuda(cudaGetLastError(), routine);
  }
}

__global__ void __launch_bounds__(kThreads)
    permute_entries(const double* __restrict__ in, int ldi, const std::int32_t* __restrict__ perm, int n, int nrhs,
                    double* __restrict__ out, int ldo) {
  const long long total = static_cast<long long>(n) * nrhs;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long e = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; e < total; e += stride) {
    const long long r = e / n;
    const long long i = e - r * n;
    out[i + r * ldo] = in[perm[i] + r * static_cast<long long>(ldi)];
  }
}

__global__ void __launch_bounds__(kThreads)
    store_blocks(Batch<SolveBlock, kBlocksPerLaunch> batch, const std::int32_t* __restrict__ perm, int nrhs,
                 double* __restrict__ out, int ldo) {
  const SolveBlock b = batch.items[blockIdx.y];
  const long long rows = b.c1 - b.c0;
  const long long ld = b.ld > 0 ? b.ld : rows;
  const long long total = rows * nrhs;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long e = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; e < total; e += stride) {
    const long long r = e / rows;
    const long long i = e - r * rows;
    out[(perm ? perm[b.c0 + i] : b.c0 + i) + r * ldo] = b.x[i + r * ld];
  }
}

}  // namespace

void supernode_solve_gather_cuda(cudaStream_t stream, const SolveMove* moves, int count, int nrhs) {
  launch_moves<true>("supernode_solve_gather_cuda", stream, moves, count, nrhs);
}

void supernode_solve_subtract_cuda(cudaStream_t stream, const SolveMove* moves, int count, int nrhs) {
  launch_moves<false>("supernode_solve_subtract_cuda", stream, moves, count, nrhs);
}

void supernode_solve_permute_cuda(cudaStream_t stream, const double* in, int ldi, const std::int32_t* perm, int n,
                                  int nrhs, double* out, int ldo) {
  constexpr const char* routine = "supernode_solve_permute_cuda";
  if (n < 0 || nrhs < 0 || ldo < n || (n > 0 && nrhs > 0 && (in == nullptr || out == nullptr)))
    throw InvalidArgument(std::string(routine) + ": n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs) +
                          ", ldo = " + std::to_string(ldo) + " or a null pointer");
  if (n == 0 || nrhs == 0) return;
  if (perm == nullptr) {  // rows of a block: a strided copy
    check_cuda(cudaMemcpy2DAsync(out, sizeof(double) * static_cast<std::size_t>(ldo), in,
                                 sizeof(double) * static_cast<std::size_t>(ldi), sizeof(double) * static_cast<std::size_t>(n),
                                 static_cast<std::size_t>(nrhs), cudaMemcpyDeviceToDevice, stream),
               routine);
    return;
  }
  const long long total = static_cast<long long>(n) * nrhs;
  const long long blocks = std::min(4096LL, (total + kThreads - 1) / kThreads);
  permute_entries<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, ldi, perm, n, nrhs, out, ldo);
  check_cuda(cudaGetLastError(), routine);
}

void supernode_solve_store_cuda(cudaStream_t stream, const SolveBlock* blocks, int count, const std::int32_t* perm,
                                int nrhs, double* out, int ldo) {
  constexpr const char* routine = "supernode_solve_store_cuda";
  if (count < 0 || nrhs < 0 || (count > 0 && (blocks == nullptr || out == nullptr)))
    throw InvalidArgument(std::string(routine) + ": count = " + std::to_string(count) + ", nrhs = " +
                          std::to_string(nrhs) + " or a null pointer");
  if (nrhs == 0) return;
  for (int first = 0; first < count; first += kBlocksPerLaunch) {
    Batch<SolveBlock, kBlocksPerLaunch> batch{};
    const int n = std::min(kBlocksPerLaunch, count - first);
    long long longest = 0;
    for (int u = 0; u < n; ++u) {
      batch.items[u] = blocks[first + u];
      longest = std::max<long long>(longest, static_cast<long long>(blocks[first + u].c1 - blocks[first + u].c0) * nrhs);
    }
    if (longest == 0) continue;
    const long long grid = std::min(kMaxBlocksPerItem, (longest + kThreads - 1) / kThreads);
    store_blocks<<<dim3(static_cast<unsigned>(grid), static_cast<unsigned>(n)), kThreads, 0, stream>>>(batch, perm, nrhs,
                                                                                                       out, ldo);
    check_cuda(cudaGetLastError(), routine);
  }
}

}  // namespace hetsparse::kernels
