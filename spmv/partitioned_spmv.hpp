// SpMV over several devices the MSREP way: the matrix is cut into parts (pCSR, pCSC or pCOO,
// planners/spmv_partition.hpp, chosen by a model of the matrix or given), the parts are placed on the
// CUDA workers and CPU workers by NUMA domain (planners/spmv_placement.hpp), and each product is one
// task per part plus merge tasks where parts share rows of y (run where y lives, not on the host).
// Everything is registered once: a product registers and copies nothing, so an iterative solver pays
// the kernels and the runtime's task turnaround only. x and y may live in GPU memory.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "codelets/spmv/spmv_codelet.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "planners/spmv_partition_model.hpp"
#include "planners/spmv_placement.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse {

// A vector the product reads or writes: host memory, or memory of a CUDA device (its home then).
struct VectorRef {
  double* data = nullptr;
  std::size_t n = 0;
  int cuda_device = -1;
};

struct PartitionedSpmvOptions {
  planners::PartitionFormat format = planners::PartitionFormat::Auto;
  planners::PlacementOptions placement;  // parts, CPU use, whether x moves between products
  planners::SpmvTopology topology;       // no domains: flat_topology of the runtime's workers
  planners::ModelOptions model;
  codelets::SpmvCudaImpl cuda_impl = codelets::SpmvCudaImpl::Own;
  std::optional<kernels::SpmvPath> path;  // own CUDA kernel; unset: by each part's row profile
  std::optional<kernels::TilePlanOptions> tiles;  // the tiled kernel's tiles; unset: by each part's rows
  // When every task of a product runs on one GPU, launch them on the calling thread's stream
  // (TaskRuntime::launch_inline) rather than as tasks: a chain of products then costs its kernels.
  bool inline_products = true;
};

class PartitionedSpmv {
 public:
  // Partitions, places and registers A's parts, x and y. x and y must outlive this object (or its
  // finish()); host y holds the result after finish(), device y after each product's tasks.
  PartitionedSpmv(rt::TaskRuntime& rt, const Csr& A, VectorRef x, VectorRef y, const PartitionedSpmvOptions& o);
  ~PartitionedSpmv();
  PartitionedSpmv(const PartitionedSpmv&) = delete;
  PartitionedSpmv& operator=(const PartitionedSpmv&) = delete;

  // Submits y = alpha A x + beta y (asynchronous).
  void submit(double alpha = 1.0, double beta = 0.0);
  // Waits for the products, brings y home and unregisters everything. No submit after it.
  void finish();

  const planners::SpmvPartition& partition() const { return partition_; }
  const planners::Placement& placement() const { return placement_; }
  const planners::PartitionChoice& choice() const { return choice_; }
  const planners::SpmvTopology& topology() const { return topology_; }
  // The own CUDA kernel each part runs (parts without a task included).
  std::vector<kernels::SpmvPath> paths() const;
  // The tile size of each part's plan (TilePlanOptions::max_entries), for the tiled kernels.
  std::vector<std::uint32_t> tile_entries() const;
  std::size_t tasks_per_product() const;
  // Where the merges run: a CUDA device, or -1 for CPU workers.
  int merge_device() const { return merge_device_; }
  // Whether submit() asks for its tasks to be launched inline (inline_products, and one GPU runs them all).
  bool launches_inline() const { return launch_inline_; }

 private:
  struct Part;
  struct Merge;
  void register_vectors(VectorRef x, VectorRef y);
  void plan_merges();
  rt::TaskOptions options_at(const planners::PartHome& home, const std::string& name, int priority) const;
  rt::TaskOptions merge_options(const std::string& name) const;

  rt::TaskRuntime& rt_;
  PartitionedSpmvOptions opts_;
  planners::SpmvTopology topology_;
  planners::Placement placement_;
  planners::PartitionChoice choice_;
  planners::SpmvPartition partition_;
  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<Merge> merges_;
  std::vector<rt::DataHandle> y_, x_;  // y: whole (pCSC) or slices; x: whole or slices (pCSC)
  std::vector<void*> pinned_;
  int merge_device_ = -1;
  bool launch_inline_ = false;
  bool finished_ = false;
};

}  // namespace hetsparse
