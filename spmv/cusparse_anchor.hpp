// Direct SpMV timing without StarPU, the anchor a hetsparse SpMV run is compared with in the same
// process: cuSPARSE's cusparseSpMV (or hetsparse's own CUDA kernel) on device-resident data,
// timed with CUDA events: each product alone (median over `runs` after a warm-up, the launch's
// latency on an idle GPU included), and `runs` products back to back (chain_ms, a product's share).
#pragma once
#include <string>
#include <vector>

#include "kernels/spmv/spmv_tiled.hpp"
#include "sparse/csr.hpp"

namespace hetsparse {

// OwnKernel: the sub-warp CSR kernel; OwnTiled: the tiled kernel; OwnAuto: the own path the row
// profile chooses (kernels::choose_spmv), with its tiles, as the partitioned product runs it.
enum class DirectSpmv { Cusparse, OwnKernel, OwnTiled, OwnAuto };

struct DirectSpmvTiming {
  bool available = false;
  std::string reason;  // why not available (no CUDA build, no device)
  double median_ms = 0, min_ms = 0;
  double chain_ms = 0;  // a product's share of `runs` launched back to back on one stream
  int runs = 0;
  std::string device;       // e.g. "NVIDIA H100 80GB HBM3"
  std::vector<double> y;    // result of the last product, for checking
  std::string path;         // "cusparse", "subwarp" or "tiled"
};

// tiles: the plan of OwnTiled (OwnAuto takes the chosen one).
DirectSpmvTiming time_direct_spmv(const Csr& A, const std::vector<double>& x, int runs, DirectSpmv impl,
                                  kernels::TilePlanOptions tiles = {});

}  // namespace hetsparse
