// The NUMA node a GPU is attached to, from hwloc's view of the PCI bus: what the two-level placement
// of partitioned products (planners/spmv_placement.hpp) groups GPUs by.
#pragma once
#include <string>
#include <vector>

namespace hetsparse::rt {

struct GpuNuma {
  int numa = -1;       // OS index of the NUMA node, -1 when unknown
  std::string source;  // "pci" (hwloc's PCI locality) or "none"
};

// pci_bus_id as CUDA prints it ("0000:1b:00.0"). Needs no StarPU.
GpuNuma gpu_numa_node(const std::string& pci_bus_id);
// Every CUDA device's, indexed by device number (empty without CUDA).
std::vector<GpuNuma> gpu_numa_nodes();

}  // namespace hetsparse::rt
