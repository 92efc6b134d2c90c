// Names of the task interface's enums, and the device check both runtimes apply at submission.
#include "runtime/task_runtime.hpp"

#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {

const char* to_string(Access a) {
  switch (a) {
    case Access::Read: return "R";
    case Access::Write: return "W";
    case Access::ReadWrite: return "RW";
    case Access::Scratch: return "SCRATCH";
    case Access::Commute: return "RW|COMMUTE";
  }
  return "?";
}

const char* to_string(Where w) {
  switch (w) {
    case Where::Any: return "any";
    case Where::Cpu: return "cpu";
    case Where::Cuda: return "cuda";
  }
  return "?";
}

bool can_run(DeviceMask devices, Where where) {
  switch (where) {
    case Where::Any: return !devices.empty();
    case Where::Cpu: return devices.has(Device::Cpu);
    case Where::Cuda: return devices.has(Device::Cuda);
  }
  return false;
}

void check_workers(const TaskSpec& t, const char* runtime) {
  if (!t.workers.any()) return;
  const std::string task = std::string(runtime) + ": task '" + t.name + "'";
  if ((t.workers.cuda_device >= 0) + (t.workers.numa_node >= 0) + (t.workers.cpu_worker >= 0) > 1)
    throw InvalidArgument(task + " is pinned twice (a CUDA device, a NUMA node or a CPU worker: one of them)");
  if (t.workers.cpu_worker >= 0 && (t.where != Where::Cpu || !t.kernel->devices.has(Device::Cpu)))
    throw InvalidArgument(task + " is pinned to CPU worker " + std::to_string(t.workers.cpu_worker) +
                          " but its device restriction is " + to_string(t.where) + ", not cpu");
  if (t.workers.cuda_device >= 0 && (t.where == Where::Cpu || !t.kernel->devices.has(Device::Cuda)))
    throw InvalidArgument(task + " is pinned to CUDA device " + std::to_string(t.workers.cuda_device) +
                          " but runs on " + to_string(t.where) + " with kernel '" + t.kernel->name + "'");
  if (t.workers.numa_node >= 0 && (t.where != Where::Cpu || !t.kernel->devices.has(Device::Cpu)))
    throw InvalidArgument(task + " is pinned to the CPU workers of NUMA node " + std::to_string(t.workers.numa_node) +
                          " but its device restriction is " + to_string(t.where) + ", not cpu");
}

}  // namespace hetsparse::rt
