// A TaskRuntime that executes nothing: it records every task with the dependencies StarPU would infer
// from the data accesses (sequential consistency), so planners' DAGs are tested without StarPU.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/task_runtime.hpp"

namespace hetsparse::rt {

class RecordingRuntime final : public TaskRuntime {
 public:
  enum class DataKind { Vector, Matrix, Csr, Temporary };
  struct Data {
    DataKind kind;
    std::size_t rows = 0, cols = 0, nnz = 0;
    bool registered = true;
  };
  struct Task {
    std::size_t id;
    std::string kernel;
    TaskSpec spec;
    std::vector<std::size_t> deps;  // ids of the tasks this one waits for, ascending, no repeats
  };

  HandleId register_vector(const VectorDesc&) override;
  HandleId register_matrix(const MatrixDesc&) override;
  HandleId register_csr(const CsrDesc&) override;
  HandleId register_temporary(std::size_t n, std::size_t elem_size) override;
  void unregister(HandleId) override;
  void submit(TaskSpec) override;
  void wait_all() override {}
  int min_priority() const override { return -1000000; }
  int max_priority() const override { return 1000000; }
  // What planners are told about the workers (1 CPU, no CUDA by default), to record the DAG a
  // machine of that shape would get.
  int cpu_workers() const override { return cpu_workers_; }
  int cuda_workers() const override { return cuda_workers_; }
  void set_cpu_workers(int n) { cpu_workers_ = n; }
  void set_cuda_workers(int n) { cuda_workers_ = n; }
  // A GPU memory cap of the recorded machine (0: none, the default).
  std::size_t cuda_memory_cap() const override { return cuda_memory_cap_; }
  void set_cuda_memory_cap(std::size_t bytes) { cuda_memory_cap_ = bytes; }
  // NUMA nodes of the recorded machine (1 by default): a task pinned to CUDA device d needs
  // d < cuda_workers(), one pinned to NUMA node n needs n < numa_nodes().
  int numa_nodes() const { return numa_nodes_; }
  void set_numa_nodes(int n) { numa_nodes_ = n; }

  const std::vector<Task>& tasks() const { return tasks_; }
  const Data& data(HandleId h) const { return data_.at(h); }
  std::size_t num_edges() const;
  // Length (in tasks) of the longest dependency chain.
  std::size_t critical_path_length() const;
  // Graphviz text of the DAG: one node per task labelled with its name.
  std::string to_dot() const;

 private:
  int cpu_workers_ = 1, cuda_workers_ = 0, numa_nodes_ = 1;
  std::size_t cuda_memory_cap_ = 0;
  HandleId add(Data d);
  struct Track {
    std::size_t last_writer = npos;
    std::vector<std::size_t> readers;  // readers since the last write
    std::vector<std::size_t> commuters, before_commute, after_commute;
  };
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<Data> data_;
  std::vector<Track> track_;
  std::vector<Task> tasks_;
};

}  // namespace hetsparse::rt
