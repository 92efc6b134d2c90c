// GPU -> NUMA node through hwloc's I/O objects: the PCI device's first non-I/O ancestor and the NUMA
// node whose CPUs it covers.
#include "runtime/starpu/gpu_numa.hpp"

#include <hwloc.h>

#include "codelets/support/cuda_libraries.hpp"

namespace hetsparse::rt {

GpuNuma gpu_numa_node(const std::string& pci_bus_id) {
  GpuNuma g{-1, "none"};
  if (pci_bus_id.empty()) return g;
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return g;
  hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(topo) == 0) {
    if (hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(topo, pci_bus_id.c_str())) {
      hwloc_obj_t parent = hwloc_get_non_io_ancestor_obj(topo, pci);
      for (hwloc_obj_t n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, nullptr); parent && n;
           n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n)) {
        if (hwloc_bitmap_intersects(parent->cpuset, n->cpuset)) {
          g = {static_cast<int>(n->os_index), "pci"};
          break;
        }
      }
    }
  }
  hwloc_topology_destroy(topo);
  return g;
}

std::vector<GpuNuma> gpu_numa_nodes() {
  std::vector<GpuNuma> out;
  for (const auto& d : cuda::cuda_summary().devices) out.push_back(gpu_numa_node(d.pci_bus_id));
  return out;
}

}  // namespace hetsparse::rt
