// Data registration of the StarPU Runtime: handles, pinning, host access (submission: runtime_submit.cpp).
#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "codelets/support/task_errors.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/runtime_impl.hpp"
#include "runtime/starpu/starpu_check.hpp"

namespace hetsparse::rt {

Runtime::Impl::Entry& Runtime::Impl::entry(HandleId id) {
  if (id >= handles.size() || !handles[id].handle)
    throw InvalidArgument("hetsparse runtime: unknown or unregistered data handle " + std::to_string(id));
  return handles[id];
}

starpu_data_handle_t Runtime::Impl::handle(HandleId id) {
  std::lock_guard<std::mutex> lock(mutex);
  return entry(id).handle;
}

Runtime::Impl::Entry Runtime::Impl::take(HandleId id) {
  std::lock_guard<std::mutex> lock(mutex);
  const Entry e = entry(id);
  handles[id] = Entry{};
  return e;
}

bool Runtime::Impl::inside_pinned_range(const void* p, std::size_t bytes) const {
  const char* c = static_cast<const char*>(p);
  auto it = pinned_ranges.upper_bound(c);  // first range starting after p
  if (it == pinned_ranges.begin()) return false;
  --it;
  return c + bytes <= it->first + it->second;
}

void Runtime::pin_host_range(void* ptr, std::size_t bytes) {
  if (!pin_ || !ptr || bytes == 0) return;
  if (starpu_memory_pin(ptr, bytes) == 0) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->pinned_ranges[static_cast<const char*>(ptr)] = bytes;
  }
}

void Runtime::unpin_host_range(void* ptr) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->pinned_ranges.find(static_cast<const char*>(ptr));
  if (it == impl_->pinned_ranges.end()) return;
  starpu_memory_unpin(ptr, it->second);
  impl_->pinned_ranges.erase(it);
}

// Pins the host range so CPU<->GPU copies are asynchronous DMAs.
void Runtime::Impl::pin_range(Entry& e, void* p, std::size_t bytes) {
  if (!p || bytes == 0) return;
  if (starpu_memory_pin(p, bytes) == 0) {
    e.pinned = p;
    e.pinned_bytes = bytes;
  }
}

namespace {

// The memory node of the CUDA workers that drive `device`; InvalidArgument when none does.
int cuda_memory_node(int device) {
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) == STARPU_CUDA_WORKER &&
        starpu_worker_get_devid(static_cast<int>(w)) == device) {
      return static_cast<int>(starpu_worker_get_memory_node(w));
    }
  }
  throw InvalidArgument("register_vector: no StarPU CUDA worker drives CUDA device " + std::to_string(device) +
                        " (STARPU_NCUDA, --device cpu?)");
}

}  // namespace

HandleId Runtime::register_vector(const VectorDesc& d) {
  Impl::Entry e;
  const bool on_gpu = d.cuda_device >= 0;
  const int node = on_gpu ? cuda_memory_node(d.cuda_device) : STARPU_MAIN_RAM;
  starpu_vector_data_register(&e.handle, node, reinterpret_cast<uintptr_t>(d.ptr), d.n, d.elem_size);
  if (!on_gpu && pin_ && d.pin && !impl_->inside_pinned_range(d.ptr, d.n * d.elem_size)) {
    Impl::pin_range(e, d.ptr, d.n * d.elem_size);
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_matrix(const MatrixDesc& d) {
  if (d.ld < d.rows) throw InvalidArgument("register_matrix: leading dimension smaller than the row count");
  Impl::Entry e;
  starpu_matrix_data_register(&e.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(d.ptr), d.ld, d.rows, d.cols,
                              sizeof(double));
  const std::size_t bytes = d.cols > 0 ? (d.ld * (d.cols - 1) + d.rows) * sizeof(double) : 0;
  if (pin_ && d.pin && !impl_->inside_pinned_range(d.ptr, bytes)) Impl::pin_range(e, d.ptr, bytes);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_csr(const CsrDesc& d) {
  Impl::Entry e;
  starpu_csr_data_register(&e.handle, STARPU_MAIN_RAM, d.nnz, d.rows, reinterpret_cast<uintptr_t>(d.values), d.colind,
                           d.rowptr, 0, sizeof(double));
  // Pin the largest array (values); StarPU copies colind/rowptr synchronously otherwise, which is fine.
  if (pin_) Impl::pin_range(e, d.values, std::size_t(d.nnz) * sizeof(double));
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_temporary(std::size_t n, std::size_t elem_size) {
  Impl::Entry e;
  starpu_vector_data_register(&e.handle, -1, 0, n, elem_size);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

void Runtime::unregister(HandleId id) {
  close_inline_for(id);
  const Impl::Entry e = impl_->take(id);
  starpu_data_unregister(e.handle);  // waits for the tasks and brings the data home
  if (e.pinned) starpu_memory_unpin(e.pinned, e.pinned_bytes);
}

void Runtime::discard(HandleId id) {
  close_inline_for(id);
  const Impl::Entry e = impl_->take(id);
  starpu_data_unregister_no_coherency(e.handle);  // waits for the tasks, copies nothing
  if (e.pinned) starpu_memory_unpin(e.pinned, e.pinned_bytes);
}

bool Runtime::valid_on_host(HandleId id) {
  close_inline_for(id);
  const starpu_data_handle_t h = impl_->handle(id);
  int allocated = 0, valid = 0, requested = 0;
  starpu_data_query_status(h, STARPU_MAIN_RAM, &allocated, &valid, &requested);
  return valid != 0;
}

void Runtime::acquire_on_host(HandleId id, Access mode) {
  if (mode == Access::Scratch || mode == Access::Commute)
    throw InvalidArgument("acquire_on_host: the access must be Read, Write or ReadWrite");
  close_inline_for(id);
  const starpu_data_handle_t h = impl_->handle(id);
  check_starpu(starpu_data_acquire(h, to_starpu(mode)), "starpu_data_acquire of handle " + std::to_string(id));
  try {
    rethrow_task_error();  // a failed writer leaves nothing worth reading
  } catch (...) {
    starpu_data_release(h);
    throw;
  }
}

void Runtime::release_on_host(HandleId id) {
  const starpu_data_handle_t h = impl_->handle(id);
  starpu_data_release(h);
}


}  // namespace hetsparse::rt
