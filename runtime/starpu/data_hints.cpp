// Hints that never change results, through StarPU: data movement (TaskRuntime::prefetch_to_gpu,
// write_back_when_done), the GPUs' memory caps, and pausing the polling workers during host-only
// phases.
#include <starpu.h>

#include <mutex>

#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/runtime_impl.hpp"

namespace hetsparse::rt {
namespace {

int first_gpu_memory_node() {
  const int worker = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
  return worker < 0 ? -1 : static_cast<int>(starpu_worker_get_memory_node(static_cast<unsigned>(worker)));
}

// Runs once the host copy is up to date: the read-only acquisition only served to bring it there.
void release_host_copy(void* handle) {
  starpu_data_release_on_node(static_cast<starpu_data_handle_t>(handle), STARPU_MAIN_RAM);
}

}  // namespace

void Runtime::prefetch_to_gpu(HandleId id) {
  const int node = first_gpu_memory_node();
  if (node < 0) return;
  const starpu_data_handle_t h = impl_->handle(id);
  starpu_data_prefetch_on_node(h, static_cast<unsigned>(node), 1);  // a hint: failure changes nothing
}

void Runtime::write_back_when_done(HandleId id) {
  if (cuda_workers() == 0) return;  // everything is in host memory already
  const starpu_data_handle_t h = impl_->handle(id);
  // Ordered after the tasks submitted so far (sequential consistency), before none of the later
  // readers: they take the handle in R mode too.
  starpu_data_acquire_on_node_cb_sequential_consistency(h, STARPU_MAIN_RAM, STARPU_R, release_host_copy, h, 1);
}

std::size_t Runtime::cuda_memory_cap() const {
  std::size_t cap = 0;
  if (!running_) return cap;
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CUDA_WORKER) continue;
    // -1 where no limit is set on that node.
    const starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node(w));
    if (total > 0 && (cap == 0 || static_cast<std::size_t>(total) < cap)) cap = static_cast<std::size_t>(total);
  }
  return cap;
}

void Runtime::pause_workers() {
  if (running_) starpu_pause();
}

void Runtime::resume_workers() {
  if (running_) starpu_resume();
}

}  // namespace hetsparse::rt
