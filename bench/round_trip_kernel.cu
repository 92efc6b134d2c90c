// An empty kernel for bench_round_trip: what launching and awaiting any kernel costs, apart from its work.
#include "bench/round_trip_kernel.hpp"

namespace hetsparse::bench {
namespace {

__global__ void empty_kernel() {}

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 32, 0, stream>>>();
  return cudaGetLastError();
}

}  // namespace hetsparse::bench
