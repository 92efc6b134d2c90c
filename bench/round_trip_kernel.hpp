// An empty kernel for bench_round_trip (round_trip_kernel.cu).
#pragma once

#include <cuda_runtime_api.h>

namespace hetsparse::bench {

cudaError_t launch_empty_kernel(cudaStream_t stream);

}  // namespace hetsparse::bench
