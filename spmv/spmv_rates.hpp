// Measured SpMV rates, what the placement of a partitioned product sizes its shares by: the own GPU
// kernel (the path the row profile picks) timed on device 0 without the runtime, and spmv_cpu run by
// `cpu_threads` threads at once (they share the memory bus, as CPU workers do).
#pragma once
#include <string>

#include "planners/spmv_placement.hpp"
#include "sparse/csr.hpp"

namespace hetsparse {

struct SpmvRates {
  double gpu_bytes_per_s = 0;  // 0: not measured (no GPU)
  double cpu_bytes_per_s = 0;  // per thread, all running together; 0: not measured
  std::string how;             // what was timed
};

// Times a leading row block of at most sample_nnz nonzeros (the whole matrix when smaller).
SpmvRates measure_spmv_rates(const Csr& A, int cpu_threads, bool gpu, long long sample_nnz = 16'000'000);

// The topology with these rates in place of its defaults (rates of 0 are left alone).
void apply_rates(planners::SpmvTopology& topology, const SpmvRates& rates);

}  // namespace hetsparse
