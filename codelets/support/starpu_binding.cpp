#include "codelets/support/starpu_binding.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace hetsparse::rt {
namespace {

// FlopsRegression's x: the task's flops when the planner gave them, else its data size.
std::size_t flops_size(starpu_task* task, unsigned) {
  if (task->flops > 0) return static_cast<std::size_t>(task->flops);
  std::size_t bytes = 0;
  for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
    bytes += starpu_data_get_size(STARPU_TASK_GET_HANDLE(task, i));
  return bytes;
}

// FlopsHistory's footprint: a quarter-octave of the task's flops (the data sizes are those of whole
// vectors, the same for every task of the solve).
uint32_t flops_footprint(starpu_task* task) {
  const double flops = std::max(1.0, task->flops);
  return starpu_hash_crc32c_be(static_cast<uint32_t>(std::lround(4.0 * std::log2(flops))), 0);
}

}  // namespace

StarpuCodelet::StarpuCodelet(const Kernel& kernel, TaskFunction cpu, TaskFunction cuda, TaskFunction unguarded_cuda)
    : inline_cuda_(unguarded_cuda), symbol_("hetsparse_") {
  symbol_ += kernel.name;
  model_.type = STARPU_HISTORY_BASED;
  if (kernel.model == PerfModel::FlopsRegression) {
    model_.type = STARPU_NL_REGRESSION_BASED;
    model_.size_base = flops_size;
  } else if (kernel.model == PerfModel::FlopsHistory) {
    model_.footprint = flops_footprint;
  }
  model_.symbol = symbol_.c_str();
  cl_.name = kernel.name;
  cl_.nbuffers = STARPU_VARIABLE_NBUFFERS;  // access modes come with each task
  cl_.cpu_funcs[0] = cpu;
  cl_.cpu_funcs_name[0] = kernel.name;
  if (cuda) {
    cl_.cuda_funcs[0] = cuda;
    cl_.cuda_flags[0] = STARPU_CUDA_ASYNC;  // kernels run on the worker's stream (cuda::local_stream())
  }
  if (kernel.kind != TaskKind::Sequential) {
    cl_.type = kernel.kind == TaskKind::Spmd ? STARPU_SPMD : STARPU_FORKJOIN;
    cl_.max_parallelism = INT_MAX;
  }
  cl_.model = &model_;
  // StarPU reads the codelet's node array at every buffer index, also for variable-arity tasks: give it
  // one as long as the longest task allowed.
  nodes_.fill(STARPU_SPECIFIC_NODE_LOCAL);
  cl_.dyn_nodes = nodes_.data();
  pinned_cl_ = cl_;  // before StarPU has seen either
  pinned_cl_.model = nullptr;
}

void StarpuBindings::add(const Kernel& kernel, TaskFunction cpu, TaskFunction cuda, TaskFunction inline_cuda) {
  if (!kernel.devices.has(Device::Cpu) && !kernel.devices.has(Device::Cuda))
    throw InvalidArgument(std::string("kernel '") + kernel.name + "' runs on no device");
  codelets_[&kernel] = std::make_unique<StarpuCodelet>(kernel, kernel.devices.has(Device::Cpu) ? cpu : nullptr, cuda,
                                                     inline_cuda);
}

starpu_codelet* StarpuBindings::find(const Kernel& kernel, bool pinned) const {
  const auto it = codelets_.find(&kernel);
  if (it == codelets_.end()) return nullptr;
  return pinned ? it->second->pinned_codelet() : it->second->codelet();
}

TaskFunction StarpuBindings::find_inline_cuda(const Kernel& kernel) const {
  const auto it = codelets_.find(&kernel);
  return it == codelets_.end() ? nullptr : it->second->inline_cuda();
}

}  // namespace hetsparse::rt
