#include "runtime/recording_runtime.hpp"

#include <algorithm>
#include <sstream>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {

HandleId RecordingRuntime::add(Data d) {
  data_.push_back(d);
  track_.emplace_back();
  return data_.size() - 1;
}

HandleId RecordingRuntime::register_vector(const VectorDesc& v) {
  return add({DataKind::Vector, v.n, 1, 0});
}
HandleId RecordingRuntime::register_matrix(const MatrixDesc& m) {
  return add({DataKind::Matrix, m.rows, m.cols, 0});
}
HandleId RecordingRuntime::register_csr(const CsrDesc& c) {
  return add({DataKind::Csr, c.rows, c.cols, c.nnz});
}
HandleId RecordingRuntime::register_temporary(std::size_t n, std::size_t) {
  return add({DataKind::Temporary, n, 1, 0});
}

void RecordingRuntime::unregister(HandleId h) {
  if (h >= data_.size() || !data_[h].registered)
    throw InvalidArgument("RecordingRuntime: unregister of an unknown handle " + std::to_string(h));
  data_[h].registered = false;
}

void RecordingRuntime::submit(TaskSpec spec) {
  if (!spec.kernel) throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' has no kernel");
  if (spec.data.size() > kMaxTaskData)
    throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' has more than " + std::to_string(kMaxTaskData) +
                          " data");
  if (!can_run(spec.kernel->devices, spec.where))
    throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' is restricted to " + to_string(spec.where) +
                          " but kernel '" + spec.kernel->name + "' has no implementation there");
  check_workers(spec, "RecordingRuntime");
  if (spec.workers.cuda_device >= cuda_workers_)
    throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' is pinned to CUDA device " +
                          std::to_string(spec.workers.cuda_device) + " of a machine with " +
                          std::to_string(cuda_workers_) + " CUDA workers");
  if (spec.workers.cpu_worker >= cpu_workers_)
    throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' is pinned to CPU worker " +
                          std::to_string(spec.workers.cpu_worker) + " of a machine with " +
                          std::to_string(cpu_workers_) + " CPU workers");
  if (spec.workers.numa_node >= numa_nodes_)
    throw InvalidArgument("RecordingRuntime: task '" + spec.name + "' is pinned to NUMA node " +
                          std::to_string(spec.workers.numa_node) + " of a machine with " +
                          std::to_string(numa_nodes_) + " NUMA nodes");
  Task t{tasks_.size(), spec.kernel->name, std::move(spec), {}};
  if (t.spec.name.empty()) t.spec.name = t.kernel;
  for (const DataAccess& a : t.spec.data) {
    if (a.handle >= data_.size() || !data_[a.handle].registered)
      throw InvalidArgument("RecordingRuntime: task '" + t.spec.name + "' uses an unregistered handle");
    if (a.mode == Access::Scratch) continue;  // per-worker buffer: no dependency
    Track& tr = track_[a.handle];
    if (a.mode == Access::Commute) {
      // Commuting writers wait for what came before the group, not for each other.
      if (tr.commuters.empty()) {
        tr.before_commute = tr.readers;
        if (tr.last_writer != npos) tr.before_commute.push_back(tr.last_writer);
      }
      t.deps.insert(t.deps.end(), tr.before_commute.begin(), tr.before_commute.end());
      tr.commuters.push_back(t.id);
      continue;
    }
    if (!tr.commuters.empty()) {  // the first other access closes the commuting group
      tr.readers.clear();
      tr.last_writer = npos;
      t.deps.insert(t.deps.end(), tr.commuters.begin(), tr.commuters.end());
      if (a.mode == Access::Read) tr.after_commute = tr.commuters;
      tr.commuters.clear();
    }
    if (tr.last_writer != npos) t.deps.push_back(tr.last_writer);
    if (a.mode == Access::Read) {
      tr.readers.push_back(t.id);
    } else {  // a writer waits for the readers since the last write (or the commuting group)
      t.deps.insert(t.deps.end(), tr.readers.begin(), tr.readers.end());
      t.deps.insert(t.deps.end(), tr.after_commute.begin(), tr.after_commute.end());
      tr.after_commute.clear();
      tr.readers.clear();
      tr.last_writer = t.id;
    }
  }
  std::sort(t.deps.begin(), t.deps.end());
  t.deps.erase(std::unique(t.deps.begin(), t.deps.end()), t.deps.end());
  t.deps.erase(std::remove(t.deps.begin(), t.deps.end(), t.id), t.deps.end());
  tasks_.push_back(std::move(t));
}

std::size_t RecordingRuntime::num_edges() const {
  std::size_t e = 0;
  for (const Task& t : tasks_) e += t.deps.size();
  return e;
}

std::size_t RecordingRuntime::critical_path_length() const {
  std::vector<std::size_t> depth(tasks_.size(), 1);  // deps always point to earlier tasks
  std::size_t best = 0;
  for (const Task& t : tasks_) {
    for (std::size_t d : t.deps) depth[t.id] = std::max(depth[t.id], depth[d] + 1);
    best = std::max(best, depth[t.id]);
  }
  return best;
}

std::string RecordingRuntime::to_dot() const {
  std::ostringstream os;
  os << "digraph hetsparse {\n";
  for (const Task& t : tasks_) {
    os << "  t" << t.id << " [label=\"" << t.spec.name << "\\n" << to_string(t.spec.where);
    if (t.spec.workers.cuda_device >= 0) os << " gpu" << t.spec.workers.cuda_device;
    if (t.spec.workers.numa_node >= 0) os << " numa" << t.spec.workers.numa_node;
    if (t.spec.workers.cpu_worker >= 0) os << " cpu" << t.spec.workers.cpu_worker;
    os << " p" << t.spec.priority << "\"];\n";
  }
  for (const Task& t : tasks_)
    for (std::size_t d : t.deps) os << "  t" << d << " -> t" << t.id << ";\n";
  os << "}\n";
  return os.str();
}

}  // namespace hetsparse::rt
