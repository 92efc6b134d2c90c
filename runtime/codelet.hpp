// StarPU side of a codelet: a starpu_codelet with a history-based performance model, wrapped as the
// planner-visible Kernel. Only codelets/<kernel>/<kernel>_codelet.cpp files include this.
#pragma once
#include <starpu.h>

#include <array>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/task_errors.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::rt {

// How StarPU predicts a codelet's duration. History: mean time per data-size footprint (kernels
// called on a few shapes). FlopsRegression: a * flops^b + c fitted over every run (kernels whose
// shapes rarely repeat, e.g. supernodal updates); the fit is made when StarPU saves the model, so it
// serves from the next process on, and until then (or outside the measured range) the history.
enum class PerfModel { History, FlopsRegression };

class StarpuKernel : public Kernel {
 public:
  // cuda may be null (CPU-only kernel or CPU-only build). The perf model is history-based with
  // StarPU's size footprint over the task's data, stored as "hetsparse_<name>". Pass functions
  // wrapped in guarded<> so that exceptions reach the submitting thread.
  StarpuKernel(const char* kernel_name, starpu_cpu_func_t cpu, starpu_cuda_func_t cuda,
               PerfModel kind = PerfModel::History)
      : symbol_("hetsparse_") {
    symbol_ += kernel_name;
    model_.type = STARPU_HISTORY_BASED;
    if (kind == PerfModel::FlopsRegression) {
      model_.type = STARPU_NL_REGRESSION_BASED;
      model_.size_base = flops_size;
    }
    model_.symbol = symbol_.c_str();
    cl_.name = kernel_name;
    cl_.nbuffers = STARPU_VARIABLE_NBUFFERS;  // access modes come with each task
    cl_.cpu_funcs[0] = cpu;
    cl_.cpu_funcs_name[0] = kernel_name;
    if (cuda) {
      cl_.cuda_funcs[0] = cuda;
      cl_.cuda_flags[0] = STARPU_CUDA_ASYNC;  // kernels run on starpu_cuda_get_local_stream()
    }
    cl_.model = &model_;
    // StarPU reads the codelet's node array at every buffer index, also for variable-arity tasks:
    // give it one as long as the longest task allowed.
    nodes_.fill(STARPU_SPECIFIC_NODE_LOCAL);
    cl_.dyn_nodes = nodes_.data();
    name = kernel_name;
    native = &cl_;
  }
  StarpuKernel(const StarpuKernel&) = delete;
  StarpuKernel& operator=(const StarpuKernel&) = delete;

 private:
  // The regression's x: the task's flops when the planner gave them, else its data size.
  static std::size_t flops_size(starpu_task* task, unsigned) {
    if (task->flops > 0) return static_cast<std::size_t>(task->flops);
    std::size_t bytes = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
      bytes += starpu_data_get_size(STARPU_TASK_GET_HANDLE(task, i));
    return bytes;
  }
  std::string symbol_;
  std::array<int, kMaxTaskData> nodes_{};
  starpu_perfmodel model_{};
  starpu_codelet cl_{};
};

// The argument struct of a task, as set by TaskSpec::set_args.
template <class Args>
Args task_args(const void* cl_arg) {
  static_assert(std::is_trivially_copyable_v<Args>);
  Args a;
  std::memcpy(&a, cl_arg, sizeof(Args));
  return a;
}

// The items following the header written by TaskSpec::set_args(header, items); count from the header.
template <class Header, class Item>
std::vector<Item> task_items(const void* cl_arg, std::size_t count) {
  std::vector<Item> items(count);
  if (count) std::memcpy(items.data(), static_cast<const unsigned char*>(cl_arg) + sizeof(Header), count * sizeof(Item));
  return items;
}

// Typed views of StarPU buffers inside codelet functions.
template <class T = double>
T* vector_ptr(void* buffer) {
  return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffer));
}
inline double* matrix_ptr(void* buffer) { return reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(buffer)); }
inline int matrix_ld(void* buffer) { return static_cast<int>(STARPU_MATRIX_GET_LD(buffer)); }

inline TaskSpec make_task(const Kernel& k, const TaskOptions& o, double default_flops) {
  TaskSpec t;
  t.kernel = &k;
  t.name = o.name.empty() ? k.name : o.name;
  t.priority = o.priority;
  t.where = o.where;
  t.flops = o.flops >= 0 ? o.flops : default_flops;
  return t;
}

}  // namespace hetsparse::rt
