// Inventory of StarPU's workers and of the machine's topology (hwloc).
#pragma once
#include <string>
#include <vector>

namespace hetsparse::rt {

struct WorkerInfo {
  enum class Kind { Cpu, Cuda, Other };
  int id = -1;
  Kind kind = Kind::Other;
  std::string name;        // StarPU's name, e.g. "CPU 3" or "CUDA 0.0 (NVIDIA H100 80GB HBM3 ...)"
  unsigned memory_node = 0;
  int device_id = -1;      // CUDA device for CUDA workers, -1 otherwise
  int bind_core = -1;      // logical core the worker thread is bound to
  int numa_node = -1;      // OS index of that core's NUMA node, -1 if unknown
};

// Needs an initialised StarPU (a live Runtime).
std::vector<WorkerInfo> list_workers();

struct Topology {
  int packages = 0, numa_nodes = 0, cores = 0, pus = 0;
  std::string cpu_model;
};
Topology machine_topology();

const char* to_string(WorkerInfo::Kind);

}  // namespace hetsparse::rt
