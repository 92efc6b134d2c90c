// The one registration template of the StarPU glue: a Kernel (runtime/kernel.hpp) bound to a
// starpu_codelet made from its fields and the task functions of its glue. A glue file defines
//   struct GemmTasks { static void cpu(void* buffers[], void* cl_arg); static void cuda(...); };
//   void bind_gemm(rt::StarpuBindings& b) { b.bind<GemmTasks>(gemm_kernel()); }
// and codelets/bind_codelets.cpp lists the bind_<k>() functions. The CUDA function is taken only when
// the kernel says it has a CUDA implementation in this build: otherwise it is never instantiated, so
// a CPU-only build needs no #ifdef around it (the kernels it calls are declared but not built there).
#pragma once
#include <starpu.h>

#include <array>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "codelets/cuda_build.hpp"
#include "codelets/support/task_errors.hpp"
#include "hetsparse/error.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::rt {

using TaskFunction = void (*)(void*[], void*);

// A starpu_codelet and its perf model ("hetsparse_<name>"), made from a Kernel's fields.
class StarpuCodelet {
 public:
  // cuda: guarded (task_errors.hpp); inline_cuda: the same function unguarded, for run_inline, whose
  // caller gets its exceptions.
  StarpuCodelet(const Kernel& kernel, TaskFunction cpu, TaskFunction cuda, TaskFunction inline_cuda = nullptr);
  StarpuCodelet(const StarpuCodelet&) = delete;
  StarpuCodelet& operator=(const StarpuCodelet&) = delete;
  starpu_codelet* codelet() { return &cl_; }
  // The same codelet without the perf model, for tasks pinned to one worker: no scheduler weighs
  // them, and a model would be updated at each one's end (docs/benchmarks.md, issue 16,
  // twenty-fourth session).
  starpu_codelet* pinned_codelet() { return &pinned_cl_; }
  TaskFunction inline_cuda() const { return inline_cuda_; }

 private:
  TaskFunction inline_cuda_ = nullptr;
  std::string symbol_;
  std::array<int, kMaxTaskData> nodes_{};
  starpu_perfmodel model_{};
  starpu_codelet cl_{};
  starpu_codelet pinned_cl_{};
};

template <class Tasks, class = void>
struct has_cuda_task : std::false_type {};
template <class Tasks>
struct has_cuda_task<Tasks, std::void_t<decltype(&Tasks::cuda)>> : std::true_type {};

class StarpuBindings {
 public:
  // Binds kernel to Tasks::cpu and, when the kernel runs on CUDA, Tasks::cuda (both wrapped in
  // guarded<> so that exceptions reach the submitting thread).
  template <class Tasks>
  void bind(const Kernel& kernel) {
    TaskFunction cuda = nullptr, inline_cuda = nullptr;
    if constexpr (has_cuda_task<Tasks>::value && codelets::kCudaBuild) {
      if (kernel.devices.has(Device::Cuda)) cuda = guarded<&Tasks::cuda>, inline_cuda = &Tasks::cuda;
    }
    if (kernel.devices.has(Device::Cuda) && cuda == nullptr)
      throw InvalidArgument(std::string("kernel '") + kernel.name + "' says it runs on CUDA but has no CUDA task");
    add(kernel, guarded<&Tasks::cpu>, cuda, inline_cuda);
  }
  // The codelet of a bound kernel (pinned: StarpuCodelet::pinned_codelet), nullptr for one never bound.
  starpu_codelet* find(const Kernel& kernel, bool pinned = false) const;
  // The kernel's CUDA function unguarded (exceptions reach the caller), nullptr when it has none.
  TaskFunction find_inline_cuda(const Kernel& kernel) const;

 private:
  void add(const Kernel& kernel, TaskFunction cpu, TaskFunction cuda, TaskFunction inline_cuda);
  std::unordered_map<const Kernel*, std::unique_ptr<StarpuCodelet>> codelets_;
};

}  // namespace hetsparse::rt

namespace hetsparse::codelets {
// Binds every kernel of codelets/ (codelets/bind_codelets.cpp); the StarPU Runtime calls it once.
void bind_codelets(rt::StarpuBindings& bindings);
}  // namespace hetsparse::codelets
