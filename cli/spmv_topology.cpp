#include "cli/spmv_topology.hpp"

#include <cstdio>
#include <map>
#include <set>

#include "runtime/starpu/gpu_numa.hpp"

namespace hetsparse::cli {

planners::SpmvTopology spmv_topology(const rt::Runtime& runtime) {
  const std::vector<rt::GpuNuma> gpu_numa = rt::gpu_numa_nodes();
  std::map<int, planners::SpmvDomain> by_numa;  // ordered by NUMA node, -1 (unknown) first
  int from_pci = 0, from_core = 0;
  std::set<int> seen_devices;
  for (const rt::WorkerInfo& w : runtime.workers()) {
    if (w.kind == rt::WorkerInfo::Kind::Cpu) {
      planners::SpmvDomain& d = by_numa[w.numa_node];
      d.numa = w.numa_node;
      ++d.cpu_workers;
    } else if (w.kind == rt::WorkerInfo::Kind::Cuda) {
      if (!seen_devices.insert(w.device_id).second) continue;  // a GPU's second worker (one stream more)
      int numa = w.numa_node;
      const std::size_t dev = static_cast<std::size_t>(w.device_id);
      const bool pci = dev < gpu_numa.size() && gpu_numa[dev].numa >= 0;
      if (pci) numa = gpu_numa[dev].numa;
      ++(pci ? from_pci : from_core);
      planners::SpmvDomain& d = by_numa[numa];
      d.numa = numa;
      d.gpus.push_back({w.device_id});
    }
  }
  planners::SpmvTopology t;
  for (auto& [numa, d] : by_numa) t.domains.push_back(d);
  t.source = "hwloc: CPU workers by the NUMA node of their core; GPUs " +
             std::string(from_pci + from_core == 0 ? "none"
                         : from_core == 0           ? "by PCI locality"
                         : from_pci == 0            ? "by the core of their worker"
                                                    : "by PCI locality or worker core");
  return t;
}

std::vector<std::string> describe_topology(const planners::SpmvTopology& t) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < t.domains.size(); ++i) {
    const planners::SpmvDomain& d = t.domains[i];
    std::string gpus;
    for (const planners::SpmvGpu& g : d.gpus) gpus += (gpus.empty() ? "" : ",") + std::to_string(g.device);
    char line[256];
    std::snprintf(line, sizeof line, "domain %zu: NUMA node %s, GPUs [%s], %d CPU workers", i,
                  d.numa >= 0 ? std::to_string(d.numa).c_str() : "unknown", gpus.c_str(), d.cpu_workers);
    lines.push_back(line);
  }
  lines.push_back("(" + t.source + ")");
  return lines;
}

Json topology_json(const planners::SpmvTopology& t) {
  std::vector<Json> domains;
  for (const planners::SpmvDomain& d : t.domains) {
    std::vector<Json> gpus;
    for (const planners::SpmvGpu& g : d.gpus)
      gpus.push_back(Json().set("device", g.device).set("bytes_per_s", g.bytes_per_s));
    domains.push_back(Json()
                          .set("numa", d.numa)
                          .set("gpus", gpus)
                          .set("cpu_workers", d.cpu_workers)
                          .set("cpu_bytes_per_s", d.cpu_bytes_per_s));
  }
  return Json().set("domains", domains).set("source", t.source);
}

}  // namespace hetsparse::cli
