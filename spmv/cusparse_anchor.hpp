// Direct SpMV timing without StarPU, the anchor a hetsparse SpMV run is compared with in the same
// process: cuSPARSE's cusparseSpMV (or hetsparse's own CUDA kernel) on device-resident data,
// timed with CUDA events, median over `runs` after a warm-up.
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse {

enum class DirectSpmv { Cusparse, OwnKernel };

struct DirectSpmvTiming {
  bool available = false;
  std::string reason;  // why not available (no CUDA build, no device)
  double median_ms = 0, min_ms = 0;
  int runs = 0;
  std::string device;       // e.g. "NVIDIA H100 80GB HBM3"
  std::vector<double> y;    // result of the last product, for checking
};

DirectSpmvTiming time_direct_spmv(const Csr& A, const std::vector<double>& x, int runs, DirectSpmv impl);

}  // namespace hetsparse
