// Worker inventory from StarPU plus NUMA placement from hwloc.
#include "runtime/starpu/workers.hpp"

#include <hwloc.h>
#include <starpu.h>

namespace hetsparse::rt {
namespace {

// RAII hwloc topology, loaded once per call (cheap next to starpu_init).
class HwlocTopology {
 public:
  HwlocTopology() {
    if (hwloc_topology_init(&topo_) == 0 && hwloc_topology_load(topo_) == 0) ok_ = true;
  }
  ~HwlocTopology() {
    if (topo_) hwloc_topology_destroy(topo_);
  }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
  bool ok() const { return ok_; }
  hwloc_topology_t get() const { return topo_; }

  // NUMA node (OS index) whose cpuset holds the logical core `core`, or -1.
  int numa_of_core(int core) const {
    if (!ok_ || core < 0) return -1;
    hwloc_obj_t c = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_CORE, static_cast<unsigned>(core));
    if (!c) c = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_PU, static_cast<unsigned>(core));
    if (!c) return -1;
    for (hwloc_obj_t n = hwloc_get_next_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, nullptr); n;
         n = hwloc_get_next_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, n))
      if (hwloc_bitmap_isincluded(c->cpuset, n->cpuset)) return static_cast<int>(n->os_index);
    return -1;
  }

 private:
  hwloc_topology_t topo_ = nullptr;
  bool ok_ = false;
};

}  // namespace

const char* to_string(WorkerInfo::Kind k) {
  switch (k) {
    case WorkerInfo::Kind::Cpu: return "cpu";
    case WorkerInfo::Kind::Cuda: return "cuda";
    case WorkerInfo::Kind::Other: return "other";
  }
  return "?";
}

int cpu_worker_id(const std::vector<WorkerInfo>& workers, int k) {
  int cpu_index = 0;
  for (const WorkerInfo& w : workers)
    if (w.kind == WorkerInfo::Kind::Cpu && cpu_index++ == k) return w.id;
  return -1;
}

int sole_worker(const std::vector<WorkerInfo>& workers, const TaskSpec& t) {
  if (t.workers.numa_node >= 0 || t.kernel == nullptr) return -1;
  if (t.workers.cpu_worker >= 0) {  // that CPU worker, if there is one and the task may run on a CPU
    if (t.where == Where::Cuda || !t.kernel->devices.has(Device::Cpu)) return -1;
    return cpu_worker_id(workers, t.workers.cpu_worker);
  }
  int found = -1, count = 0;
  for (const WorkerInfo& w : workers) {
    const bool cuda = w.kind == WorkerInfo::Kind::Cuda, cpu = w.kind == WorkerInfo::Kind::Cpu;
    const bool kind_ok = (cuda && t.where != Where::Cpu && t.kernel->devices.has(Device::Cuda)) ||
                         (cpu && t.where != Where::Cuda && t.workers.cuda_device < 0 && t.kernel->devices.has(Device::Cpu));
    if (!kind_ok || (t.workers.cuda_device >= 0 && w.device_id != t.workers.cuda_device)) continue;
    found = w.id;
    ++count;
  }
  return count == 1 ? found : -1;
}

std::vector<WorkerInfo> list_workers() {
  HwlocTopology topo;
  std::vector<WorkerInfo> out;
  const unsigned n = starpu_worker_get_count();
  for (unsigned id = 0; id < n; ++id) {
    WorkerInfo w;
    w.id = static_cast<int>(id);
    switch (starpu_worker_get_type(static_cast<int>(id))) {
      case STARPU_CPU_WORKER: w.kind = WorkerInfo::Kind::Cpu; break;
      case STARPU_CUDA_WORKER: w.kind = WorkerInfo::Kind::Cuda; break;
      default: w.kind = WorkerInfo::Kind::Other; break;
    }
    char name[256] = {0};
    starpu_worker_get_name(static_cast<int>(id), name, sizeof name);
    w.name = name;
    w.memory_node = starpu_worker_get_memory_node(id);
    if (w.kind == WorkerInfo::Kind::Cuda) w.device_id = starpu_worker_get_devid(static_cast<int>(id));
    w.bind_core = starpu_worker_get_bindid(static_cast<int>(id));
    w.numa_node = topo.numa_of_core(w.bind_core);
    out.push_back(w);
  }
  return out;
}

Topology machine_topology() {
  HwlocTopology topo;
  Topology t;
  if (!topo.ok()) return t;
  auto count = [&](hwloc_obj_type_t type) { return hwloc_get_nbobjs_by_type(topo.get(), type); };
  t.packages = count(HWLOC_OBJ_PACKAGE);
  t.numa_nodes = count(HWLOC_OBJ_NUMANODE);
  t.cores = count(HWLOC_OBJ_CORE);
  t.pus = count(HWLOC_OBJ_PU);
  if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_PACKAGE, 0))
    if (const char* model = hwloc_obj_get_info_by_name(pkg, "CPUModel")) t.cpu_model = model;
  return t;
}

}  // namespace hetsparse::rt
