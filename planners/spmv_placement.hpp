// Where the parts of a partitioned product run: MSREP's two-level placement. The first level
// splits the work across NUMA domains in proportion to their devices' rates (each GPU belongs to the
// NUMA node it is attached to, with the CPU workers of that node); the second splits a domain's share
// across its devices. Parts follow the CUDA workers there are, plus CPU parts when a model of the
// product says they shorten it (their rate against the cost of moving x to the host).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sparse/types.hpp"

namespace hetsparse::planners {

struct SpmvGpu {
  int device = 0;                 // CUDA device number
  double bytes_per_s = 2.0e12;    // its SpMV rate (measured, or this default)
};

struct SpmvDomain {
  int numa = -1;  // OS index of the NUMA node; -1: unknown (CPU parts are then not pinned to it)
  std::vector<SpmvGpu> gpus;
  int cpu_workers = 0;
  double cpu_bytes_per_s = 5.0e9;  // one CPU worker's SpMV rate
};

struct SpmvTopology {
  std::vector<SpmvDomain> domains;
  double host_link_bytes_per_s = 2.0e10;  // host <-> GPU copies (x to CPU parts, their y back)
  std::string source;                     // how the topology was obtained (printed by `hetsparse info`)

  int gpus() const;
  int cpu_workers() const;
};

// One domain holding every worker, with the default rates (what a TaskRuntime alone can tell).
SpmvTopology flat_topology(int cuda_workers, int cpu_workers);

enum class CpuUse : std::uint8_t { Auto, Never, Only };

struct PlacementOptions {
  int parts = 0;          // GPU parts (CPU parts when there are no GPUs); 0: one per device, fewer for small matrices
  CpuUse cpus = CpuUse::Auto;
  bool x_moves = true;    // x changes between products (an iterative solver): CPU parts pay its copy
  offset_t min_part_nnz = offset_t{1} << 18;  // smaller parts cost more in task overhead than they save
  double step_overhead_s = 2e-5;
};

struct PartHome {
  bool cpu = false;
  int device = -1;   // CUDA device of a GPU part
  int numa = -1;     // NUMA node (CPU parts are pinned to its CPU workers when >= 0)
  int domain = 0;    // index into SpmvTopology::domains
  double weight = 0; // its share of the nonzeros (sums to 1)
  double bytes_per_s = 0;
};

struct Placement {
  std::vector<PartHome> homes;  // domain by domain; within one, GPU parts by device, then CPU parts
  bool cpus_used = false;
  double gpu_only_s = 0, with_cpus_s = 0;  // the model's prediction of one product both ways
  std::string reason;                      // why CPUs are (not) used
};

// bytes: the product's traffic (12 nnz + 20 rows), cols: x's length.
Placement place_parts(const SpmvTopology& topology, double bytes, offset_t nnz, index_t cols,
                      const PlacementOptions& options);

}  // namespace hetsparse::planners
