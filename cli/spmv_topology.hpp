// The machine as the partitioned SpMV places parts on it: one domain per NUMA node of StarPU's
// workers, each GPU in the domain of the node its PCI slot hangs off (hwloc; the node of the core its
// StarPU worker is bound to when hwloc cannot tell), with the CPU workers of that node. `hetsparse
// info` prints it, `hetsparse spmv --partition` uses it.
#pragma once
#include <string>
#include <vector>

#include "cli/json.hpp"
#include "planners/spmv_placement.hpp"
#include "runtime/starpu/runtime.hpp"

namespace hetsparse::cli {

planners::SpmvTopology spmv_topology(const rt::Runtime& runtime);
std::vector<std::string> describe_topology(const planners::SpmvTopology& t);
Json topology_json(const planners::SpmvTopology& t);

}  // namespace hetsparse::cli
