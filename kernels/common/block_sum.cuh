// A block's sum of one double per thread, for CUDA kernels: shuffles within each warp, then the warps'
// sums through shared memory and the first warp.
#pragma once

namespace hetsparse::kernels {

// The sum of v over a block of Threads threads (whole warps, at most 32 of them), valid in thread 0.
// Every thread must call it. warp_sums: Threads / 32 doubles of shared memory, not being read by a
// previous call (a caller that sums twice syncs the block in between).
template <unsigned Threads>
__device__ double block_sum(double v, double* warp_sums) {
  static_assert(Threads % 32 == 0 && Threads / 32 <= 32, "a block of whole warps, at most 32");
  constexpr unsigned kFull = 0xffffffffu;
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = 0.0;
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_sums[lane] : 0.0;
#pragma unroll
    for (unsigned offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  }
  return v;
}

}  // namespace hetsparse::kernels
