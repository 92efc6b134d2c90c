// Inventory of StarPU's workers and of the machine's topology (hwloc).
#pragma once
#include <string>
#include <vector>

#include "runtime/task_runtime.hpp"

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

// The id of the k-th CPU worker of `workers` (counted among the CPU workers, WorkerPin::cpu_worker), or -1.
int cpu_worker_id(const std::vector<WorkerInfo>& workers, int k);

// The id of the one worker of `workers` that may run `t` (its Where, its CUDA device or CPU worker pin,
// its kernel's devices), or -1 when none or several may (or it is pinned to a NUMA node's CPU workers).
int sole_worker(const std::vector<WorkerInfo>& workers, const TaskSpec& t);

struct Topology {
  int packages = 0, numa_nodes = 0, cores = 0, pus = 0;
  std::string cpu_model;
};
Topology machine_topology();

const char* to_string(WorkerInfo::Kind);

}  // namespace hetsparse::rt
